"""E-mail out of the moves' way: a durable outbox that each server process drains.

``notifications.notify`` writes an ``OutgoingMail`` row in the notifying
transaction; nothing is sent there, so a slow or broken mail server never
holds up a move or its acknowledgement. The worker started beside the
deadline sweeper (games/sweeper.py) calls ``send_due_mail`` in a thread of its
own: it claims due rows in a short transaction (on PostgreSQL skipping rows
another process claimed; on SQLite the IMMEDIATE transaction serialises the
claim), then sends outside any transaction, each mail in its recipient's
stored language. A failed send is tried again later, with growing pauses; a
claim whose process died is picked up again once its lease runs out.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from ..models import OutgoingMail
from ..selectors.notifications import notification_text

log = logging.getLogger(__name__)
BATCH = 20
LEASE = timedelta(minutes=10)  # a claimed mail whose sender died goes out again after this
FIRST_RETRY = timedelta(minutes=1)  # then doubling: 1, 2, 4 ... minutes
LAST_RETRY = timedelta(hours=6)
MAX_ATTEMPTS = 10  # about two days of retries
SUBJECT_LENGTH = 70


def send_due_mail(now: datetime | None = None) -> int:
    """Send every mail that is due; returns how many went out."""
    now = now or timezone.now()
    sent = 0
    lease = now + LEASE
    while True:
        claimed = _claim_due(now, lease)
        sent += sum(_send(mail_id, lease, now) for mail_id in claimed)
        if len(claimed) < BATCH:
            return sent


def _claim_due(now: datetime, lease: datetime) -> list[int]:
    """Due mails, leased to this caller until ``lease``: no other process sends
    them meanwhile."""
    if not OutgoingMail.objects.filter(due__lte=now).exists():
        return []  # the usual answer, without a write transaction
    with transaction.atomic():
        ids = list(
            OutgoingMail.objects.select_for_update(skip_locked=True)
            .filter(due__lte=now)
            .order_by("due")
            .values_list("pk", flat=True)[:BATCH]
        )
        OutgoingMail.objects.filter(pk__in=ids).update(due=lease, attempts=F("attempts") + 1)
    return ids


def _send(mail_id: int, lease: datetime, now: datetime) -> int:
    mail = (
        OutgoingMail.objects.select_related("notification__user")
        .filter(pk=mail_id, due=lease)  # still ours: not claimed again after a lapsed lease
        .first()
    )
    if mail is None:
        return 0
    note, user = mail.notification, mail.notification.user
    if not (user.email and user.email_notifications):
        mail.delete()  # turned off since the notification was made
        return 0
    with translation.override(user.language_or_default()):
        text = notification_text(note.kind, note.params)
    try:
        send_mail(text[:SUBJECT_LENGTH], text, None, [user.email])
    except Exception as exc:  # whatever the backend raises, the mail stays queued
        _retry_later(mail, exc, now)
        return 0
    mail.delete()
    return 1


def _retry_later(mail: OutgoingMail, exc: Exception, now: datetime) -> None:
    if mail.attempts >= MAX_ATTEMPTS:
        due = None
        log.error("giving up mail %s after %s attempts: %r", mail.pk, mail.attempts, exc)
    else:
        due = now + min(FIRST_RETRY * 2 ** (mail.attempts - 1), LAST_RETRY)
        log.warning("mail %s failed (attempt %s): %r", mail.pk, mail.attempts, exc)
    OutgoingMail.objects.filter(pk=mail.pk).update(due=due, last_error=repr(exc)[:300])
