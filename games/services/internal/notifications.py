"""Notifications: stored per user, pushed live to their sockets, optionally
mailed (through the outbox that ``services.mail`` sends), all in the
recipient's language."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone, translation

from ... import publish, wakeups
from ...models import (
    DigestSent,
    Event,
    Game,
    Notification,
    OutgoingMail,
    OutgoingPush,
    PushSettings,
    PushSubscription,
    Seat,
)
from ...rules import get_ruleset
from ...selectors.notifications import KEEP, as_dict
from ...selectors.seats import seat_holders
from ...store import presence
from ..mail import DIGEST_EVERY

if TYPE_CHECKING:
    from accounts.models import User


def notify(
    *,
    user_ids: list[int],
    kind: str,
    game: Game | None,
    params: dict[str, Any],
    mail: bool = True,
) -> None:
    """Store one notification per user, its e-mail in the outbox for those
    who want mail (sent in the background, services/mail.py) and its web pushes
    in theirs (services/push.py); push to open pages after the commit."""
    notify_each(
        notes=[Notification(user_id=uid, kind=kind, game=game, params=params) for uid in user_ids],
        mail=mail,
    )


def notify_each(*, notes: list[Notification], mail: bool = True) -> None:
    """``notify()`` for notes that differ (one kind), in a fixed number of
    queries plus one trim per user: a tournament round's notices."""
    if not notes:
        return
    kind = notes[0].kind
    user_ids = list(dict.fromkeys(n.user_id for n in notes))
    with transaction.atomic(savepoint=False):  # the caller's transaction, if there is one
        notes = Notification.objects.bulk_create(notes)
        mailed = (
            set(
                get_user_model()
                .objects.filter(pk__in=user_ids, email_notifications=True)
                .exclude(email="")
                .values_list("pk", flat=True)
            )
            if mail
            else set()
        )
        outgoing = OutgoingMail.objects.bulk_create(_outgoing(notes, kind, mailed))
        if outgoing:  # the sender sleeps until its next due row: it is told
            wakeups.wake_after_commit(
                "mail", at=min((m.due for m in outgoing if m.due), default=None)
            )
        _enqueue(notes)  # web push, through its own outbox (sent by services/push.py)
        _trim(user_ids)
    publish.after_commit(partial(_push, [n.pk for n in notes]))


def _trim(user_ids: list[int]) -> None:
    """Keep each user's newest ``KEEP`` notifications: the bell lists the
    newest, and a history nobody reads must not grow its every read. One
    statement finds, per user, the first one past the kept (an index walk
    each); none is deleted until the user has that many."""
    newest = Notification.objects.filter(user_id=OuterRef("pk")).order_by("-created", "-pk")
    past = newest[KEEP : KEEP + 1]
    cuts = (
        get_user_model()
        .objects.filter(pk__in=user_ids)
        .annotate(cut_pk=Subquery(past.values("pk")), cut_created=Subquery(past.values("created")))
        .filter(cut_pk__isnull=False)
        .values_list("pk", "cut_created", "cut_pk")
    )
    for uid, created, pk in cuts:
        mine = Notification.objects.filter(user_id=uid)
        mine.filter(Q(created__lt=created) | Q(created=created, pk__lte=pk)).delete()


def notify_once(
    *,
    user_ids: list[int],
    kind: str,
    game: Game,
    params: dict[str, Any],
    same: dict[str, Any] | None = None,
) -> None:
    """``notify()``, but at most once per game and person: an offer made again
    (withdrawn and offered anew, declined and offered anew) renews the
    person's notification of the first one (unread, on top, with these
    ``params``): no new e-mail, no new web push. Open pages hear of it only
    if the person had read it, so an offer repeated at will is not a toast
    repeated at will. ``same``: params that tell this offer apart from others
    of its ``kind``."""
    filters = {f"params__{name}": value for name, value in (same or {}).items()}
    earlier = list(
        Notification.objects.filter(user_id__in=user_ids, kind=kind, game=game, **filters)
        .order_by()
        .values_list("pk", "user_id", "read")
    )
    if earlier:
        Notification.objects.filter(pk__in=[pk for pk, _, _ in earlier]).update(
            params=params, read=False, created=timezone.now()
        )
        seen_again = [pk for pk, _, read in earlier if read]
        if seen_again:
            publish.after_commit(partial(_push, seen_again))
    told = {uid for _, uid, _ in earlier}
    notify(
        user_ids=[uid for uid in user_ids if uid not in told],
        kind=kind,
        game=game,
        params=params,
    )


def _outgoing(notes: list[Notification], kind: str, mailed: set[int]) -> list[OutgoingMail]:
    """The outbox rows; a turn notice waits for the player's hourly digest
    (services/mail.py)."""
    notes = [n for n in notes if n.user_id in mailed]
    if kind != Notification.Kind.YOUR_TURN or not notes:
        return [OutgoingMail(notification=n) for n in notes]
    due = _digest_due([n.user_id for n in notes], timezone.now())
    return [OutgoingMail(notification=n, digest=True, due=due[n.user_id]) for n in notes]


def _push(ids: list[int]) -> None:
    """Each user's open pages hear of it at once, in that user's language."""
    for note in Notification.objects.filter(pk__in=ids).select_related("user"):
        with translation.override(note.user.language_or_default()):
            payload = {"kind": "notification", "notification": as_dict(note)}
        publish.publish_to_user(note.user_id, payload)


def _seat_users(game: Game) -> dict[int, int]:
    """The people seated (bots hear of nothing)."""
    seated = Seat.objects.filter(game=game, user__isnull=False, user__is_bot=False)
    return dict(seated.values_list("index", "user_id"))


def turn_takers(
    game: Game, before_to_act: list[int], holders: dict[int, int | None] | None = None
) -> list[int]:
    """The people whose turn has just begun (bots' seats are in ``game.bots``).
    On the move path the seats' ``holders`` come with the locked row: no query.
    At one screen nobody is told: the players sit at the device."""
    if game.one_screen is not None:
        return []
    if holders is None:
        holders = seat_holders(game)
    return [uid for s in _fresh_people(game, before_to_act) if (uid := holders.get(s)) is not None]


def _correspondence(game: Game) -> bool:
    return game.clock.get("kind") == "correspondence"


def _fresh_people(game: Game, before_to_act: list[int]) -> list[int]:
    """Seats whose turn has just begun, bots' seats left out."""
    bots = game.bots or {}
    return [s for s in game.to_act if s not in before_to_act and str(s) not in bots]


def quiet(game: Game, before_to_act: list[int], event: Event) -> bool:
    """Nobody hears about this event: ``after_game_event`` does nothing.
    A realtime game's turn is told only to a player whose page is closed
    (``after_game_event`` asks presence)."""
    if game.is_over or event.kind == Event.Kind.DRAW_OFFER:
        return False
    return not _fresh_people(game, before_to_act)


def turn_notice_only(game: Game, before_to_act: list[int], event: Event) -> bool:
    """At most a realtime game's turn notice (for pages that are closed):
    the move's answer need not wait for it."""
    return not (game.is_over or event.kind == Event.Kind.DRAW_OFFER or _correspondence(game))


def after_game_event(
    game: Game,
    before_to_act: list[int],
    event: Event,
    *,
    holders: dict[int, int | None] | None = None,
) -> None:
    """Decide who hears about this event (``services/internal/events.py``'s side effect)."""
    if quiet(game, before_to_act, event):
        return
    title = get_ruleset(game.ruleset).title
    base = {"game": game.pk, "title": title}
    if game.is_over:
        users = _seat_users(game)
        result = game.result or {}
        params = {
            **base,
            "reason_key": result.get("reason") or "",
            "reason_params": result.get("reason_params") or {},
        }
        notify(
            user_ids=list(users.values()),
            kind=Notification.Kind.GAME_OVER,
            game=game,
            params=params,
        )
        return
    if event.kind == Event.Kind.DRAW_OFFER:
        users = _seat_users(game)
        offered = users.get(event.seat) if event.seat is not None else None
        name = (
            get_user_model().objects.filter(pk=offered).values_list("username", flat=True).first()
            if offered is not None
            else None
        )
        others = [uid for seat, uid in users.items() if seat not in game.draw_offers]
        notify_once(
            user_ids=others,
            kind=Notification.Kind.DRAW_OFFER,
            game=game,
            params={**base, "player": name or "?"},
        )
        return
    # Some seats' turn has just begun.
    fresh = turn_takers(game, before_to_act, holders)
    # Nobody needs telling what the open game page already shows; in a realtime
    # game only a player whose page is closed hears (no e-mail: by the time it
    # is read, the clock has decided).
    watching = presence.watching(game.pk, fresh)
    fresh = [uid for uid in fresh if uid not in watching]
    notify(
        user_ids=fresh,
        kind=Notification.Kind.YOUR_TURN,
        game=game,
        params=base,
        mail=_correspondence(game),
    )


def notifications_mark_read(*, user: User, ids: list[int] | None = None) -> int:
    qs = Notification.objects.filter(user=user, read=False)
    if ids is not None:
        qs = qs.filter(pk__in=[i for i in ids if -(2**63) <= i < 2**63])  # the DB's range
    return qs.update(read=True)


def _digest_due(user_ids: list[int], now: datetime) -> dict[int, datetime]:
    """When each user's next turn digest may go out (an hour after the last)."""
    last = dict(DigestSent.objects.filter(user_id__in=user_ids).values_list("user_id", "sent"))
    return {uid: max(now, last[uid] + DIGEST_EVERY) if uid in last else now for uid in user_ids}


def _enqueue(notes: list[Notification]) -> None:
    """Queue each notification for every device of its user, unless the user
    switched that kind off (called inside the notifying transaction)."""
    user_ids = {n.user_id for n in notes}
    devices: dict[int, list[int]] = {}
    for sub_id, user_id in PushSubscription.objects.filter(user_id__in=user_ids).values_list(
        "pk", "user_id"
    ):
        devices.setdefault(user_id, []).append(sub_id)
    if not devices:
        return  # the usual answer: one query
    muted = dict(
        PushSettings.objects.filter(user_id__in=list(devices)).values_list("user_id", "muted")
    )
    queued = OutgoingPush.objects.bulk_create(
        [
            OutgoingPush(notification=n, subscription_id=sub_id)
            for n in notes
            if n.kind not in (muted.get(n.user_id) or [])
            for sub_id in devices.get(n.user_id, [])
        ]
    )
    if queued:
        wakeups.wake_after_commit("pushes")
