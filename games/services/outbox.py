"""What the durable outboxes (mail.py, push.py) share: draining due rows in
batches, leasing them to one sender, and the retry schedule after a failure.

An outbox model has a nullable ``due`` (when to try next; None: given up), an
``attempts`` count and a ``last_error``. A sender claims due rows by moving
their ``due`` to its lease; a row whose ``due`` still equals that lease is
still the sender's to send.

Each row is tried on its own: what one row's sender raises gives up that row
alone (``due`` None: kept, logged, with its reason in ``last_error``), and the
rest of the batch goes out in the same pass. A row that raised once would
raise again on every try, and with it every row claimed beside it would sit
out the lease. The database failing in passing (``OperationalError``,
``InterfaceError``) is no fault of the row's: it is tried again later, as a
transport error is.

Given-up rows are kept ``KEEP_GIVEN_UP`` for a look at ``last_error``, then
deleted by ``drain`` (at most every ``PURGE_EVERY``, a bounded batch found
through the ``due`` index).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

KEEP_GIVEN_UP = timedelta(days=3)
PURGE_EVERY = timedelta(minutes=10)
PURGE_BATCH = 500
PASSING = (OperationalError, InterfaceError)  # the database, not the row


@dataclass(frozen=True)
class Outbox:
    model: Any  # the outbox's model class (OutgoingMail, OutgoingPush)
    what: str  # how the log names one row: "mail", "push"
    log: logging.Logger  # the outbox module's own logger
    batch: int  # rows claimed at a time
    lease: timedelta  # a claimed row whose sender died goes out again after this
    first_retry: timedelta  # then doubling: 1, 2, 4 ... times this
    last_retry: timedelta  # the longest pause between two attempts
    max_attempts: int  # given up after this many
    next_purge: list[datetime] = field(default_factory=list, compare=False)  # this process's

    def drain(self, send: Callable[[int, datetime, datetime], int], now: datetime) -> int:
        """Claim and send due rows batch by batch until a batch comes back
        short; ``send(row_id, lease, now)`` returns 1 for a row that went out.
        Returns how many went out."""
        self.purge_when_due(now)
        sent = 0
        lease = now + self.lease
        while True:
            claimed = self.claim_due(now, lease)
            sent += sum(self.send_one(send, row_id, lease, now) for row_id in claimed)
            if len(claimed) < self.batch:
                return sent

    def send_one(
        self,
        send: Callable[[int, datetime, datetime], int],
        row_id: int,
        lease: datetime,
        now: datetime,
    ) -> int:
        """``send`` one row; what it raises (anything the sender has not
        sorted into "sent", "gone" or "try again") gives that row up, unless
        it is the database failing in passing: then the row is tried again."""
        try:
            return send(row_id, lease, now)
        except PASSING as exc:
            self.retry_claimed(row_id, lease, exc, now)
            return 0
        except Exception as exc:
            self.log.error(
                "giving up %s %s, it cannot be sent: %r", self.what, row_id, exc, exc_info=exc
            )
            self.model.objects.filter(pk=row_id, due=lease).update(
                due=None, last_error=repr(exc)[:300]
            )
            return 0

    def retry_claimed(self, row_id: int, lease: datetime, exc: Exception, now: datetime) -> None:
        """``retry_later`` for a claimed row; a database still failing leaves
        the row to its lease (sent again once that runs out)."""
        try:
            row = self.model.objects.filter(pk=row_id, due=lease).first()
            if row is not None:
                self.retry_later(row, exc, now)
        except PASSING:
            self.log.warning("%s %s left to its lease: %r", self.what, row_id, exc)

    def purge_when_due(self, now: datetime) -> int:
        """``purge_given_up`` at most every ``PURGE_EVERY`` in this process."""
        if self.next_purge and now < self.next_purge[0]:
            return 0
        self.next_purge[:] = [now + PURGE_EVERY]
        return self.purge_given_up(now)

    def purge_given_up(self, now: datetime) -> int:
        """Delete up to ``PURGE_BATCH`` rows given up over ``KEEP_GIVEN_UP`` ago."""
        rows = self.model.objects
        old = rows.filter(due__isnull=True, created__lt=now - KEEP_GIVEN_UP)
        ids = list(old.values_list("pk", flat=True)[:PURGE_BATCH])
        if ids:
            rows.filter(pk__in=ids, due__isnull=True).delete()
        return len(ids)

    def claim_due(self, now: datetime, lease: datetime) -> list[int]:
        """Due rows, leased to this caller until ``lease``: no other process
        sends them meanwhile (on PostgreSQL skipping rows another process
        claimed; on SQLite the IMMEDIATE transaction serialises the claim)."""
        rows = self.model.objects
        if not rows.filter(due__lte=now).exists():
            return []  # the usual answer, without a write transaction
        with transaction.atomic():
            ids = list(
                rows.select_for_update(skip_locked=True)
                .filter(due__lte=now)
                .order_by("due")
                .values_list("pk", flat=True)[: self.batch]
            )
            rows.filter(pk__in=ids).update(due=lease, attempts=F("attempts") + 1)
        return ids

    def next_due(self, *, purge: bool = True) -> datetime | None:
        """When ``drain`` next has work: the earliest row's ``due`` (its
        index), or this process's next purge (with ``purge``; before the
        first one: now). None: nothing is queued."""
        first = (
            self.model.objects.filter(due__isnull=False)
            .order_by("due")
            .values_list("due", flat=True)
            .first()
        )
        times = [] if first is None else [first]
        if purge:
            times.append(self.next_purge[0] if self.next_purge else timezone.now())
        return min(times, default=None)

    def retry_later(self, row: Any, exc: Exception, now: datetime) -> None:
        """Try ``row`` again after a growing pause, or give it up (``due``
        None) once it has had ``max_attempts``."""
        if row.attempts >= self.max_attempts:
            due = None
            self.log.error(
                "giving up %s %s after %s attempts: %r", self.what, row.pk, row.attempts, exc
            )
        else:
            due = now + min(self.first_retry * 2 ** (row.attempts - 1), self.last_retry)
            self.log.warning("%s %s failed (attempt %s): %r", self.what, row.pk, row.attempts, exc)
        self.model.objects.filter(pk=row.pk).update(due=due, last_error=repr(exc)[:300])
