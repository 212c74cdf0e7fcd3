"""E-mail out of the moves' way: a durable outbox that each server process drains.

``notifications.notify`` writes an ``OutgoingMail`` row in the notifying
transaction; nothing is sent there, so a slow or broken mail server never
holds up a move or its acknowledgement. The worker started beside the
deadline sweeper (games/realtime/sweeper.py) calls ``mail_send_due`` in a thread of its
own: it claims due rows in a short transaction (on PostgreSQL skipping rows
another process claimed; on SQLite the IMMEDIATE transaction serialises the
claim), then sends outside any transaction, each mail in its recipient's
stored language. A failed send is tried again later, with growing pauses; a
claim whose process died is picked up again once its lease runs out.

Turn notices (``OutgoingMail.digest``) are not mailed one by one: they wait
until an hour after the player's last digest (``DigestSent``), and the first
one claimed then sends a single digest listing every correspondence game
waiting for the player's move, each with an absolute link (``SITE_URL``);
games the player has moved in meanwhile are left out, and a digest with
nothing left to list is not sent.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from ..models import DigestSent, Game, Notification, OutgoingMail
from ..rules import get_ruleset
from ..selectors.notifications import notification_text
from .internal.guards import lock_user
from .outbox import Outbox

log = logging.getLogger(__name__)
BATCH = 20
LEASE = timedelta(minutes=10)  # a claimed mail whose sender died goes out again after this
FIRST_RETRY = timedelta(minutes=1)  # then doubling: 1, 2, 4 ... minutes
LAST_RETRY = timedelta(hours=6)
MAX_ATTEMPTS = 10  # about two days of retries
SUBJECT_LENGTH = 70
DIGEST_EVERY = timedelta(hours=1)  # at most one turn digest per player this often
OUTBOX = Outbox(
    OutgoingMail,
    "mail",
    log,
    batch=BATCH,
    lease=LEASE,
    first_retry=FIRST_RETRY,
    last_retry=LAST_RETRY,
    max_attempts=MAX_ATTEMPTS,
)


def mail_send_due(now: datetime | None = None) -> int:
    """Send every mail that is due; returns how many went out."""
    return OUTBOX.drain(_send, now or timezone.now())


_claim_due = OUTBOX.claim_due  # due mails, leased to the caller until ``lease``


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
    if mail.digest:
        return _send_digest(mail, lease, now)
    with translation.override(user.language_or_default()):
        text = notification_text(note.kind, note.params)
    try:
        send_mail(text[:SUBJECT_LENGTH], text, None, [user.email])
    except Exception as exc:  # whatever the backend raises, the mail stays queued
        OUTBOX.retry_later(mail, exc, now)
        return 0
    mail.delete()
    return 1


def _send_digest(mail: OutgoingMail, lease: datetime, now: datetime) -> int:
    """One mail for all of a user's queued turn notices (``mail`` among them)."""
    user = mail.notification.user
    claimed = _claim_digest(user, lease, now)
    if claimed is None:
        return 0
    ids, last = claimed
    notes = list(Notification.objects.filter(mail__pk__in=ids).order_by("pk"))
    with translation.override(user.language_or_default()):
        subject, body = _digest_text(user, notes)
    if not body:  # every game has moved on: nothing to tell
        OutgoingMail.objects.filter(pk__in=ids).delete()
        return 0
    try:
        send_mail(subject[:SUBJECT_LENGTH], body, None, [user.email])
    except Exception as exc:
        _unclaim_digest(user, last, now)
        OUTBOX.retry_later(mail, exc, now)
        return 0
    OutgoingMail.objects.filter(pk__in=ids).delete()
    return 1


def _claim_digest(user: Any, lease: datetime, now: datetime) -> tuple[list[int], Any] | None:
    """Take this hour's digest for ``user``: its notices and the previous send
    time, or None (one went out less than an hour ago). The user's row lock
    makes two processes holding two of the user's notices take turns, so only
    one digest goes out; the send itself happens after the commit."""
    with transaction.atomic():
        lock_user(user.pk)
        rows = OutgoingMail.objects.filter(notification__user=user, digest=True)
        mine = rows.filter(due=lease) | rows.filter(due__lte=now)
        last = DigestSent.objects.filter(user=user).values_list("sent", flat=True).first()
        if last is not None and last + DIGEST_EVERY > now:  # one an hour: wait for the next
            mine.update(due=last + DIGEST_EVERY)
            return None
        ids = list(mine.values_list("pk", flat=True))
        OutgoingMail.objects.filter(pk__in=ids).update(due=lease)  # out of other drains' reach
        DigestSent.objects.update_or_create(user=user, defaults={"sent": now})
    return ids, last


def _unclaim_digest(user: Any, last: datetime | None, now: datetime) -> None:
    """The send failed: the hour is not used up (unless a later digest took it)."""
    taken = DigestSent.objects.filter(user=user, sent=now)
    if last is None:
        taken.delete()
    else:
        taken.update(sent=last)


def _game_url(game_id: int) -> str:
    """An absolute link that opens the game (``SITE_URL``, no trailing slash)."""
    return settings.SITE_URL.rstrip("/") + reverse("game", args=[game_id])


def _waiting_games(user_id: int) -> list[Game]:
    """The running correspondence games where it is the user's move."""
    games = Game.objects.filter(
        status=Game.Status.ACTIVE, clock__kind="correspondence", seats__user_id=user_id
    ).values_list("pk", "ruleset", "to_act", "seats__index")
    return [
        Game(pk=pk, ruleset=ruleset, to_act=to_act)
        for pk, ruleset, to_act, seat in games.order_by("pk")
        if seat in (to_act or [])
    ]


def _digest_text(user: object, notes: list[Notification]) -> tuple[str, str]:
    """The digest's subject and body in the active language; an empty body
    when nothing waits any more (notices without a game keep their own text)."""
    lines = [notification_text(n.kind, n.params) for n in notes if n.game_id is None]
    for game in _waiting_games(user.pk):  # type: ignore[attr-defined]
        params = {"game": game.pk, "title": get_ruleset(game.ruleset).title}
        lines.append(notification_text(Notification.Kind.YOUR_TURN, params))
        lines.append(_game_url(game.pk))
    if not lines:
        return "", ""
    count = sum(1 for line in lines if not line.startswith(("http://", "https://")))
    if count == 1:
        subject = lines[0]
    else:
        subject = ngettext(
            "%(n)s game waits for your move", "%(n)s games wait for your move", count
        ) % {"n": count}
    footer = gettext("You get at most one such e-mail an hour.")
    return subject, "\n".join([*lines, "", footer])
