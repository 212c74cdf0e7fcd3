"""Storing the standings marked due (internal/standings.py says when), the
sweeper's tournament thread's second share: read from the
``tournament_standings_due`` partial index, so an idle site's round reads
one index entry and a busy one touches only the tournaments whose results
changed. Readers meanwhile see the standings last stored and that they are
due (``Tournament.standings_due``)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from lobby.models import Tournament

from .internal.common import tell_lobby
from .internal.standings import store_standings

log = logging.getLogger(__name__)
STANDINGS_BATCH = 10


def tournament_standings_store_due(now: datetime | None = None) -> int:
    """Store the standings of up to ``STANDINGS_BATCH`` tournaments due by
    ``now`` (tests pass a later ``now``: no waiting); returns how many."""
    now = now or timezone.now()
    due = list(
        Tournament.objects.filter(standings_due__lte=now)
        .order_by("standings_due")
        .values_list("pk", flat=True)[:STANDINGS_BATCH]
    )
    done = 0
    for tournament_id in due:
        try:
            done += _store(tournament_id, now)
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s: storing the standings failed", tournament_id)
    return done


def _store(tournament_id: int, now: datetime) -> int:
    """One due tournament's standings, under its lock: a result recorded
    meanwhile waits for the commit, then marks them due again."""
    with transaction.atomic():
        claimed = Tournament.objects.filter(pk=tournament_id, standings_due__lte=now)
        if connection.features.has_select_for_update_skip_locked:
            # A result's or a round's transaction holds it: the next round retries.
            claimed = claimed.select_for_update(skip_locked=True)
        else:
            claimed = claimed.select_for_update()
        tournament = claimed.first()
        if tournament is None:
            return 0
        store_standings(tournament)
        tell_lobby(tournament)  # open pages fetch the new standings
    return 1
