"""The stored standings (``TournamentStanding``): computed by
``lobby.pairing.standings``, the one place that ranks, and stored whole;
marked due when a change waits.

Every change of what the standings rank (a result, a round's byes and
forfeits) marks them due ``TOURNAMENT_STANDINGS_SECONDS`` later, in the
change's own transaction and only when they are not due already: a round of
500 results costs one computation per that many seconds, not 500. The
sweeper's tournament thread stores the due ones (``standings.py``). Joining
and leaving an open tournament keep the rows exact without computing (before
the start everyone shares rank 1, in join order); a withdrawal is marked on
the row at once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Max
from django.utils import timezone

from lobby.models import Tournament, TournamentPlayer, TournamentStanding
from lobby.pairing import standings
from lobby.selectors import tournaments as read


def store_standings(tournament: Tournament) -> int:
    """Compute the standings from every decided pairing and store them in
    place of the old rows (the caller holds the tournament's lock: one
    delete and one insert, however many rows changed); they are current now.
    Returns how many rows were stored."""
    players = list(
        TournamentPlayer.objects.filter(tournament=tournament)
        .order_by(*read.STARTING_RANK)
        .values_list("user_id", "withdrawn")
    )
    rows = standings(
        [uid for uid, _ in players],
        read.decided_results(tournament),
        tables=tournament.seat_count > 2,
    )
    gone = {uid for uid, withdrawn in players if withdrawn}
    TournamentStanding.objects.filter(tournament=tournament).delete()
    TournamentStanding.objects.bulk_create(
        TournamentStanding(
            tournament=tournament,
            user_id=row.id,
            place=place,
            rank=row.rank,
            points=row.points,
            tiebreaks=list(row.tiebreaks),
            withdrawn=row.id in gone,
        )
        for place, row in enumerate(rows, start=1)
    )
    if tournament.standings_due is not None:
        tournament.standings_due = None
        tournament.save(update_fields=["standings_due"])
    return len(rows)


def mark_standings_due(tournament: Tournament, now: datetime) -> None:
    """Results changed (the caller holds the tournament's lock): the standings
    are stored again within ``TOURNAMENT_STANDINGS_SECONDS``, once for every
    change until then."""
    if tournament.standings_due is None:
        delay = timedelta(seconds=settings.TOURNAMENT_STANDINGS_SECONDS)
        tournament.standings_due = now + delay
        tournament.save(update_fields=["standings_due"])


def place_entrant(tournament: Tournament, user_id: int) -> None:
    """A new entry's row (the tournament locked): last, with no points. Open,
    that is exact (everyone shares rank 1, in join order); running (a late
    joiner), the rank follows when the standings are stored again (due now)."""
    last = TournamentStanding.objects.filter(tournament=tournament).aggregate(n=Max("place"))["n"]
    is_open = tournament.status == Tournament.Status.OPEN
    TournamentStanding.objects.create(
        tournament=tournament,
        user_id=user_id,
        place=(last or 0) + 1,
        rank=1 if is_open else None,
        tiebreaks=[0.0] * (1 if tournament.seat_count > 2 else 2),
    )
    if not is_open:
        mark_standings_due(tournament, timezone.now())


def remove_entrant(tournament: Tournament, user_id: int) -> None:
    """An open tournament's entry left (deleted): its row goes, the places
    after it move up."""
    row = TournamentStanding.objects.filter(tournament=tournament, user_id=user_id).first()
    if row is not None:
        row.delete()
        TournamentStanding.objects.filter(tournament=tournament, place__gt=row.place).update(
            place=F("place") - 1
        )


def mark_withdrawn(tournament: Tournament, user_id: int) -> None:
    """A player withdrew or was withdrawn: their row says so at once."""
    TournamentStanding.objects.filter(tournament=tournament, user_id=user_id).update(withdrawn=True)
