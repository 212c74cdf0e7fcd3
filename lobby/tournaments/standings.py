"""Storing the standings marked due (internal/standings.py says when), the
sweeper's tournament thread's second share: read from the
``tournament_standings_due`` partial index, so an idle site's round reads
one index entry and a busy one touches only the tournaments whose results
changed. Readers meanwhile see the standings last stored and that they are
due (``Tournament.standings_due``)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from .internal.common import claim_due, each_due, tell_lobby
from .internal.standings import store_standings

STANDINGS_BATCH = 10


def tournament_standings_store_due(now: datetime | None = None) -> int:
    """Store the standings of up to ``STANDINGS_BATCH`` tournaments due by
    ``now`` (tests pass a later ``now``: no waiting); returns how many."""
    return each_due(
        "standings_due", now or timezone.now(), STANDINGS_BATCH, _store, "storing the standings"
    )


def _store(tournament_id: int, now: datetime) -> int:
    """One due tournament's standings, under its lock: a result recorded
    meanwhile waits for the commit, then marks them due again."""
    with transaction.atomic():
        tournament = claim_due(tournament_id, "standings_due", now)
        if tournament is None:
            return 0
        store_standings(tournament)
        tell_lobby(tournament)  # open pages fetch the new standings
    return 1
