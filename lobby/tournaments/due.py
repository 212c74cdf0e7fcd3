"""The sweeper's tournament thread (games/realtime/sweeper.py): due starts
and rounds (rounds.py), then due standings (standings.py); when it next has
work, one statement on the two partial indexes."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Subquery

from lobby.models import Tournament

from .rounds import tournament_rounds_pair_due
from .standings import tournament_standings_store_due


def tournament_due_run(now: datetime | None = None) -> int:
    """One round of the thread: what is due by ``now``; returns how much was done."""
    return tournament_rounds_pair_due(now) + tournament_standings_store_due(now)


def tournament_due_next() -> datetime | None:
    """The earliest due start, round or standings, or None."""

    def earliest(field: str) -> Subquery:
        rows = Tournament.objects.filter(**{f"{field}__isnull": False}).order_by(field)
        return Subquery(rows.values(field)[:1])

    row = (
        Tournament.objects.order_by()
        .annotate(next_round=earliest("due"), next_standings=earliest("standings_due"))
        .values_list("next_round", "next_standings")[:1]
    )
    times = [t for found in row for t in found if t is not None]
    return min(times, default=None)
