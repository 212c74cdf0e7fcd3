"""Web push out of the moves' way: a durable outbox that each server process
drains, like the mail outbox (games/services/mail.py; what both share is in
outbox.py).

``notifications.notify`` calls ``enqueue`` in the notifying transaction: one
``OutgoingPush`` row per notification and device of a user who has not
switched that kind off. Nothing is sent there. The worker started beside the
deadline sweeper (games/realtime/sweeper.py) calls ``pushes_send_due`` in a
thread of its own: it leases due rows in a short transaction, then encrypts
(aes128gcm) and sends each outside any transaction, in the recipient's
language, signed with the site's VAPID key (push_keys.py). A push service
answering 404 or 410 has forgotten the subscription: it is deleted with its
queued pushes. A timeout, a connection error or any other answer is tried
again after 1, 2, 4 ... minutes. Each endpoint is checked again before it is
posted to (push_endpoints.py), and the device's keys too: a subscription whose
keys cannot encrypt (no P-256 key, no 16-byte secret) is deleted with its
queued pushes, as a forgotten one is. Anything else a row raises gives up that
row alone (kept a few days with its reason: outbox.py); py_vapid's
``VapidException`` is one such: with the endpoint checked it can only mean the
site's own VAPID settings, which deleting devices would not mend.

A realtime game's turn or draw offer is urgent and soon stale: it goes out
with ``Urgency: high`` and a TTL of minutes, and is dropped unsent once older
than that; everything else may wait a day for a device that is off.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import threading
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from ..models import Notification, OutgoingPush, PushSettings, PushSubscription
from ..selectors.notifications import notification_text
from . import push_endpoints, push_keys
from .outbox import Outbox

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)
BATCH = 20
LEASE = timedelta(minutes=10)  # a claimed push whose sender died goes out again after this
FIRST_RETRY = timedelta(minutes=1)  # then doubling: 1, 2, 4 ... minutes
LAST_RETRY = timedelta(hours=1)
MAX_ATTEMPTS = 8  # a turn pushed hours late helps nobody
TTL = 24 * 3600  # how long the push service may hold a push for a device that is off
URGENT_TTL = 5 * 60  # the same for a realtime game's turn: later it only misleads
URGENT_KINDS = {
    Notification.Kind.YOUR_TURN,
    Notification.Kind.DRAW_OFFER,
    Notification.Kind.ROUND_START,
}
GONE = {404, 410}
MAX_DEVICES = 20  # per user
OUTBOX = Outbox(
    OutgoingPush,
    "push",
    log,
    batch=BATCH,
    lease=LEASE,
    first_retry=FIRST_RETRY,
    last_retry=LAST_RETRY,
    max_attempts=MAX_ATTEMPTS,
)


def _payload(note: Notification) -> dict[str, Any]:
    """What the service worker shows: the text in the reader's language, and
    the page a click opens (the game, else the lobby)."""
    with translation.override(note.user.language_or_default()):
        text = notification_text(note.kind, note.params)
    url = reverse("game", args=[note.game_id]) if note.game_id else reverse("lobby")
    return {
        "title": "Brettspiele",
        "body": text,
        "url": url,
        "kind": note.kind,
        "id": note.pk,
        "tag": f"{note.kind}-{note.game_id or note.pk}",  # a newer one replaces an older
    }


def pushes_send_due(now: datetime | None = None) -> int:
    """Send every push that is due; returns how many the push services took."""
    return OUTBOX.drain(_send, now or timezone.now())


def _urgent(note: Notification) -> bool:
    """Whether ``note`` is a realtime game's turn or draw offer: a player
    waits on the other side of the board."""
    realtime = note.game is not None and note.game.clock.get("kind") == "realtime"
    return realtime and note.kind in URGENT_KINDS


def _send(push_id: int, lease: datetime, now: datetime) -> int:
    push = (
        OutgoingPush.objects.select_related(
            "notification__user", "notification__game", "subscription"
        )
        .filter(pk=push_id, due=lease)  # still ours: not claimed again after a lapsed lease
        .first()
    )
    if push is None:
        return 0
    sub, note = push.subscription, push.notification
    try:
        push_endpoints.push_endpoint_check(sub.endpoint)  # stored before a rule or a narrower list
    except push_endpoints.BadEndpoint as exc:
        log.warning("push subscription %s removed, its endpoint is refused: %s", sub.pk, exc)
        sub.delete()  # and with it every push queued for that device
        return 0
    if _keys_refused(sub.p256dh, sub.auth):
        return _forget(sub, "its keys are no P-256 key and 16-byte secret")
    ttl, urgency = (URGENT_TTL, "high") if _urgent(note) else (TTL, "normal")
    if now - note.created > timedelta(seconds=ttl):
        log.info("push %s dropped unsent: older than its TTL of %s s", push.pk, ttl)
        push.delete()
        return 0
    # pywebpush (with aiohttp) is imported at the first push, not at the
    # start (tests/test_start_cost.py).
    from pywebpush import WebPushException

    try:
        _post(sub, note, ttl, urgency)
    except (WebPushException, requests.RequestException) as exc:
        _failed(push, exc, now)
        return 0
    push.delete()
    PushSubscription.objects.filter(pk=sub.pk).update(last_success=now)
    return 1


def _forget(sub: PushSubscription, why: str) -> int:
    log.warning("push subscription %s removed, %s", sub.pk, why)
    sub.delete()  # and with it every push queued for that device
    return 0


def _keys_refused(p256dh: str, auth: str) -> bool:
    """Whether a device's keys cannot encrypt a push (stored before the API
    checked them): the same checks as the API's."""
    try:
        key = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        return len(base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))) != 16
    except (binascii.Error, ValueError, TypeError):
        return True


def _failed(push: OutgoingPush, exc: Exception, now: datetime) -> None:
    """A push service that forgot the device: the device goes. Any other
    answer, a timeout or a refused connection: tried again later. An error
    that is no push service's answer (pywebpush refusing the row's keys or
    endpoint) is raised on: the outbox gives that row up."""
    from pywebpush import WebPushException

    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(exc, WebPushException) and status is None:
        raise exc
    if status in GONE:
        log.info("push subscription %s is gone (%s): removed", push.subscription_id, status)
        push.subscription.delete()  # and with it every push queued for that device
        return
    OUTBOX.retry_later(push, exc, now)


_THREAD = threading.local()


def _session() -> requests.Session:
    """The sending thread's session: its connections to the push services are
    kept, and it follows no redirect (the push would go to an address that no
    check has seen; requests raises TooManyRedirects, tried again later)."""
    session = getattr(_THREAD, "session", None)
    if session is None:
        session = _THREAD.session = requests.Session()
        session.max_redirects = 0
    return session


def _post(sub: PushSubscription, note: Notification, ttl: int, urgency: str) -> None:
    """Encrypt, sign and post one push (raises what pywebpush raises)."""
    from pywebpush import webpush

    keys = push_keys.push_keys_get()
    webpush(
        {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
        data=json.dumps(_payload(note)),
        vapid_private_key=keys.signer(),
        vapid_claims={"sub": keys.subject},
        timeout=settings.PUSH_TIMEOUT,
        ttl=ttl,
        headers={"Urgency": urgency},  # RFC 8030 5.3
        requests_session=_session(),
    )


def push_subscribe(
    *, user: User, endpoint: str, p256dh: str, auth: str
) -> tuple[PushSubscription, bool]:
    """Store this device's subscription for ``user`` (a device that signed in
    as someone else moves over); returns it and whether it is new."""
    sub, created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )
    if created:  # a user's devices are few; forgotten ones go, oldest first
        stale = user.push_subscriptions.order_by("-created", "-pk").values_list("pk", flat=True)
        PushSubscription.objects.filter(pk__in=list(stale[MAX_DEVICES:])).delete()
    return sub, created


def push_unsubscribe(*, user: User, endpoint: str) -> bool:
    """Forget this device (only the user's own); returns whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted > 0


def push_muted_kinds(user: User) -> list[str]:
    found = PushSettings.objects.filter(user=user).values_list("muted", flat=True).first()
    return list(found or [])


def push_muted_set(*, user: User, kinds: list[str]) -> None:
    """Switch these kinds off for ``user``'s pushes (and every other kind on)."""
    known = set(Notification.Kind.values)
    PushSettings.objects.update_or_create(
        user=user, defaults={"muted": sorted(k for k in set(kinds) if k in known)}
    )
