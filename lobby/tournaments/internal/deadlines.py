"""Correspondence rounds: each round's deadline, and adjudicating the games
still running when it passes (the thinking-time rule of
``games.services.adjudication``; docs/tournaments.md)."""

from __future__ import annotations

from datetime import datetime, timedelta

from games.services.adjudication import game_adjudicate
from lobby.models import Tournament, TournamentPairing

# A round ends this long after its days: round_days is at least the days per
# move, so the first-move window of every game of the round (its own clock,
# started a moment after the pairing) has closed by then, and a no-show is
# caught by its clock, not adjudicated.
GRACE = timedelta(hours=1)


def set_round_deadline(tournament: Tournament, now: datetime) -> None:
    """A round paired now ends ``round_days`` (and ``GRACE``) later, in memory;
    the caller saves ``round_deadline`` and ``due``. No ``round_days``: none."""
    if tournament.round_days:
        tournament.round_deadline = now + timedelta(days=tournament.round_days) + GRACE
        tournament.due = tournament.round_deadline
    else:
        tournament.round_deadline = None


def _overdue_games(tournament_id: int, now: datetime) -> list[int]:
    """The current round's games still running past its deadline (no lock:
    each game's own row is locked first when it is adjudicated, as a game's
    end always locks the game before its tournament)."""
    tournament = (
        Tournament.objects.filter(
            pk=tournament_id, status=Tournament.Status.RUNNING, round_deadline__lte=now
        )
        .only("pk", "current_round")
        .first()
    )
    if tournament is None:
        return []
    found = TournamentPairing.objects.filter(
        tournament=tournament,
        round=tournament.current_round,
        points__isnull=True,
        game__isnull=False,
    ).values_list("game_id", flat=True)
    return [g for g in found if g is not None]


def adjudicate_round(tournament_id: int, now: datetime) -> int:
    """End every overdue game of the round; the last one's end records the
    round and pairs the next (``rounds.on_game_over``). Returns how many."""
    done = 0
    for game_id in _overdue_games(tournament_id, now):
        if game_adjudicate(game_id=game_id, now=now) is not None:
            done += 1
    return done
