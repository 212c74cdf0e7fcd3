"""When the background loops next have work (games/realtime/polling.py's
``next_due``): each read from the index its loop's round reads, one
statement, so an idle process asks the database once per loop per sleep."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, F, Q, QuerySet, Subquery
from django.utils import timezone

from ..models import Game
from . import analysis, import_jobs, mail, push


def loop_seconds_until(at: datetime | None) -> float | None:
    """Seconds from now until ``at`` (0 or less: due); None stays None."""
    return None if at is None else (at - timezone.now()).total_seconds()


def _earliest(rows: QuerySet[Game], field: str) -> Subquery:
    """The smallest ``field`` of ``rows``, walked from its index (LIMIT 1)."""
    ordered = rows.filter(**{f"{field}__isnull": False}).order_by(field)
    return Subquery(ordered.values(field)[:1])


def loop_sweep_due() -> datetime | None:
    """The earliest deadline of a running clock, forced turn and leave offer
    (the deadline sweep's three indexes), in one statement."""
    row = (
        Game.objects.order_by()
        .annotate(
            due_clock=_earliest(Game.objects.filter(paused=False), "deadline"),
            due_forced=_earliest(Game.objects.all(), "forced_at"),
            due_offer=_earliest(Game.objects.all(), "offer_due"),
        )
        .values_list("due_clock", "due_forced", "due_offer")[:1]
    )
    times = [t for found in row for t in found if t is not None]
    return min(times, default=None)


def loop_bots_due() -> datetime | None:
    """Now when a bot turn nobody claimed waits (``bot_turns_due`` would
    find it), else when the earliest claim runs out; one statement on the
    ``bot_due`` partial index."""
    due = Game.objects.filter(bot_due=True)
    unclaimed = Q(bot_claim__lt=F("version")) | Q(bot_claim_at__isnull=True)
    row = (
        Game.objects.order_by()
        .annotate(due_free=Exists(due.filter(unclaimed)), due_claim=_earliest(due, "bot_claim_at"))
        .values_list("due_free", "due_claim")[:1]
    )
    for free, claimed in row:
        if free:
            return timezone.now()
        if claimed is not None:
            return claimed + timedelta(seconds=settings.BOT_CLAIM_SECONDS)
    return None


def loop_mail_due() -> datetime | None:
    return mail.OUTBOX.next_due()


def loop_pushes_due() -> datetime | None:
    return push.OUTBOX.next_due()


def loop_imports_due() -> datetime | None:
    return import_jobs.imports_next_due()


def loop_analyses_due() -> datetime | None:
    return analysis.analyses_next_due()
