"""Joining and withdrawing, and a no-show withdrawn (the entry conditions and bans: eligibility.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import Game
from games.services.endings import game_resign
from games.users import signed_in
from lobby.models import Tournament, TournamentPairing, TournamentPlayer

from .internal.common import locked_tournament, refuse_unless_open, tell_lobby, tournament_or_404
from .internal.eligibility import record_no_show, refuse_entry, refuse_unfit_player
from .internal.standings import mark_withdrawn, place_entrant, remove_entrant

if TYPE_CHECKING:
    from accounts.models import User
    from games.users import Visitor


def tournament_join(*, tournament_id: object, user: Visitor | None) -> Tournament:
    """Join an open tournament, or a running Swiss before half its rounds are played."""
    account = signed_in(user)
    refuse_unfit_player(account)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _refuse_unless_joinable(tournament)
        players = refuse_entry(tournament, account)
        late = tournament.status == Tournament.Status.RUNNING
        # A late joiner ranks after everyone seeded at the start.
        TournamentPlayer.objects.create(
            tournament=tournament, user=account, seed=players + 1 if late else None
        )
        place_entrant(tournament, account.pk)
        tell_lobby(tournament)
    return tournament


def _refuse_unless_joinable(tournament: Tournament) -> None:
    """Open, or a Swiss (of two seats) with fewer than half its rounds played."""
    late = (
        tournament.status == Tournament.Status.RUNNING
        and tournament.system == Tournament.System.SWISS
        and tournament.seat_count == 2
        and tournament.current_round * 2 < tournament.rounds
    )
    if not late:
        refuse_unless_open(tournament)


def tournament_withdraw(*, tournament_id: object, user: Visitor | None) -> Tournament:
    """Leave a tournament; a running game of it is resigned, its points stay.

    Requests of one player at once: each resigns what is still running (a game
    a sibling request ended first is passed over), then the tournament's lock
    lets one of them withdraw; the others find nobody to withdraw (``not_joined``).
    """
    account = signed_in(user)
    with transaction.atomic():
        before = tournament_or_404(tournament_id)  # no lock yet: a game's row comes first
        if before.status == Tournament.Status.FINISHED:
            raise GameError("finished", gettext_noop("This tournament is over."))
        _refuse_unless_playing(before, account.pk)
        # Resigning locks the game, then (its ending) the tournament again.
        for game_id in _running_games_of(before.pk, account.pk):
            _resign_if_running(game_id, account)
        tournament = locked_tournament(before.pk)
        found = _refuse_unless_playing(tournament, account.pk)
        if tournament.status == Tournament.Status.OPEN:
            found.delete()  # nothing played yet: as if never joined
            remove_entrant(tournament, account.pk)
        else:
            found.withdrawn = True
            found.save(update_fields=["withdrawn"])
            mark_withdrawn(tournament, account.pk)
        tell_lobby(tournament)
    return tournament


def _refuse_unless_playing(tournament: Tournament, user_id: int) -> TournamentPlayer:
    """The player's row, still in (read again under the lock: a sibling
    request may have withdrawn them meanwhile)."""
    found = TournamentPlayer.objects.filter(
        tournament=tournament, user_id=user_id, withdrawn=False
    ).first()
    if found is None:
        raise GameError("not_joined", gettext_noop("You are not playing in this tournament."))
    return found


def _resign_if_running(game_id: int, account: User) -> None:
    try:
        game_resign(game_id=game_id, user=account)
    except GameError as exc:
        if exc.code != "game_over":  # a sibling request resigned it first
            raise


def _running_games_of(tournament_id: int, user_id: int) -> list[int]:
    games = TournamentPairing.objects.filter(
        tournament_id=tournament_id, game__status=Game.Status.ACTIVE, game__seats__user_id=user_id
    ).values_list("game_id", flat=True)
    return [g for g in games if g is not None]


def on_seat_no_show(sender: object, game: Game, seat: int, **kwargs: object) -> bool:
    """A table's seat ran out of time without a move (in the timeout's
    transaction, the game's row locked): a tournament game's player is
    withdrawn and banned as a two-seat no-show is, and the seat goes to a bot
    (True); the player ranks last at the table (a seat handed to a bot leaves
    first). Not a tournament game: False."""
    pairing = TournamentPairing.objects.filter(game_id=game.pk).only("tournament_id").first()
    if pairing is None or seat >= len(pairing.players):
        return False
    tournament = locked_tournament(pairing.tournament_id)
    uid = TournamentPairing.objects.get(pk=pairing.pk).players[seat]
    if TournamentPlayer.objects.filter(tournament=tournament, user_id=uid, withdrawn=False).update(
        withdrawn=True
    ):
        record_no_show(uid, timezone.now())
        mark_withdrawn(tournament, uid)
    tell_lobby(tournament)
    return True
