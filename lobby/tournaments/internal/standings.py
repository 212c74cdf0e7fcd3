"""The stored standings (``TournamentPlayer.place``, ``rank``, ``points``,
``tiebreaks``): computed by ``lobby.pairing.standings``, the one place that
ranks, and written where they changed; marked due when a change waits.

Every change of what the standings rank (a result, a round's byes and
forfeits) marks them due ``TOURNAMENT_STANDINGS_SECONDS`` later, in the
change's own transaction and only when they are not due already: a round of
500 results costs one computation per that many seconds, not 500. The
sweeper's tournament thread stores the due ones (``standings.py``). Joining
and leaving an open tournament keep the places exact without computing
(before the start everyone shares rank 1 in join order)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Max
from django.utils import timezone

from lobby.models import Tournament, TournamentPlayer
from lobby.pairing import standings
from lobby.selectors import tournaments as read

STORED = ["place", "rank", "points", "tiebreaks"]
# Rows a statement: bulk_update's CASE grows with each (seed_by_rating's lesson).
STORE_BATCH = 100


def store_standings(tournament: Tournament) -> int:
    """Compute the standings from every decided pairing and write the rows
    that changed (the caller holds the tournament's lock); they are current
    now. Returns how many rows were written."""
    players = list(
        TournamentPlayer.objects.filter(tournament=tournament)
        .order_by(*read.STARTING_RANK)
        .only("pk", "user_id", *STORED)
    )
    rows = standings(
        [p.user_id for p in players],
        read.decided_results(tournament),
        tables=tournament.seat_count > 2,
    )
    by_user = {p.user_id: p for p in players}
    changed = []
    for place, row in enumerate(rows, start=1):
        player = by_user[row.id]
        stored = (place, row.rank, row.points, list(row.tiebreaks))
        if (player.place, player.rank, player.points, player.tiebreaks) != stored:
            player.place, player.rank, player.points, player.tiebreaks = stored
            changed.append(player)
    TournamentPlayer.objects.bulk_update(changed, STORED, batch_size=STORE_BATCH)
    if tournament.standings_due is not None:
        tournament.standings_due = None
        tournament.save(update_fields=["standings_due"])
    return len(changed)


def mark_standings_due(tournament: Tournament, now: datetime) -> None:
    """Results changed (the caller holds the tournament's lock): the standings
    are stored again within ``TOURNAMENT_STANDINGS_SECONDS``, once for every
    change until then."""
    if tournament.standings_due is None:
        delay = timedelta(seconds=settings.TOURNAMENT_STANDINGS_SECONDS)
        tournament.standings_due = now + delay
        tournament.save(update_fields=["standings_due"])


def place_entrant(tournament: Tournament) -> dict[str, object]:
    """A new entry's stored standing (the tournament locked): last, with no
    points. Open, that is exact (everyone shares rank 1, in join order);
    running (a late joiner), the rank follows when the standings are stored
    again (marked due here)."""
    last = TournamentPlayer.objects.filter(tournament=tournament).aggregate(n=Max("place"))["n"]
    zeros = [0.0] * (1 if tournament.seat_count > 2 else 2)
    is_open = tournament.status == Tournament.Status.OPEN
    if not is_open:
        mark_standings_due(tournament, timezone.now())
    return {
        "place": (last or 0) + 1,
        "rank": 1 if is_open else None,
        "points": 0.0,
        "tiebreaks": zeros,
    }


def close_gap(tournament: Tournament, place: int | None) -> None:
    """An open tournament's entry left (deleted): the places after it move up."""
    if place is not None:
        TournamentPlayer.objects.filter(tournament=tournament, place__gt=place).update(
            place=F("place") - 1
        )
