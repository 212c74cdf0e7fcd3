"""Reads of a user's notifications, in the recipient's language."""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from ..models import Notification

TEXTS: dict[str, str] = {
    Notification.Kind.YOUR_TURN: gettext_noop("Your turn in game #%(game)s (%(title)s)."),
    Notification.Kind.DRAW_OFFER: gettext_noop("%(player)s offers a draw in game #%(game)s."),
    Notification.Kind.CHALLENGE: gettext_noop("%(player)s challenges you to %(title)s."),
    Notification.Kind.GAME_OVER: gettext_noop("Game #%(game)s (%(title)s) is over: %(result)s"),
    Notification.Kind.DECISION: gettext_noop(
        "An admin decided your remis request in game #%(game)s: %(decision)s"
    ),
    Notification.Kind.FOLLOWED: gettext_noop(
        "%(player)s, whom you follow, started a live game: #%(game)s (%(title)s). Watch it now."
    ),
    Notification.Kind.ROUND_START: gettext_noop(
        "Round %(round)s of the tournament %(tournament)s has begun: your game #%(game)s "
        "(%(title)s) is waiting."
    ),
}


BYE = gettext_noop(
    "Round %(round)s of the tournament %(tournament)s has begun: you have a bye this round "
    "(1 point)."
)


REMATCH = gettext_noop(
    "%(player)s offers a rematch of game #%(game)s (%(title)s): open the game to accept."
)


REMATCH_BEGUN = gettext_noop(
    "%(player)s accepted the rematch: game #%(game)s (%(title)s) has begun."
)


CLUB_MATCH = gettext_noop(
    "%(player)s of the club %(club)s challenges your club to a match of %(title)s over "
    "%(boards)s boards."
)


APPROVED = gettext_noop("An admin approved the remis request in game #%(game)s.")


REJECTED = gettext_noop("An admin rejected the remis request in game #%(game)s: %(reason)s")


REPORT_ACTED = gettext_noop("Your report about %(report_on)s was acted on. Thank you.")


WARNING = gettext_noop("A moderator warns you: %(warning)s")


def notification_text(kind: str, params: dict[str, Any]) -> str:
    """The text in the reader's language: msgids in the params are translated now."""
    values = dict(params)
    if "title" in values:
        values["title"] = gettext(values["title"])
    if "reason_key" in values:  # a game's result: its reason is a msgid with params
        values["result"] = _translated(values["reason_key"], values.get("reason_params"))
    template = TEXTS.get(kind, "%(game)s")
    if kind == Notification.Kind.CHALLENGE and values.get("rematch"):
        template = REMATCH
    if kind == Notification.Kind.CHALLENGE and values.get("rematch_of"):
        template = REMATCH_BEGUN
    if kind == Notification.Kind.CHALLENGE and values.get("club_match"):
        template = CLUB_MATCH
    if kind == Notification.Kind.ROUND_START and values.get("bye"):
        template = BYE
    if kind == Notification.Kind.DECISION and "approved" in values:
        template = APPROVED if values["approved"] else REJECTED
    if kind == Notification.Kind.DECISION and "report_on" in values:
        template = REPORT_ACTED
    if kind == Notification.Kind.DECISION and "warning" in values:
        template = WARNING
    template = gettext(template)
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template


def _translated(reason: str, params: dict[str, Any] | None) -> str:
    text = gettext(reason) if reason else ""
    try:
        return text % params if params else text
    except (KeyError, TypeError, ValueError):
        return text


def as_dict(note: Notification) -> dict[str, Any]:
    return {
        "id": note.pk,
        "kind": note.kind,
        "game": note.game_id,
        "text": notification_text(note.kind, note.params),
        "read": note.read,
        "created": note.created.isoformat(),
    }


# Notifications kept per user (services/internal/notifications.py trims the rest).
KEEP = 500


def unread(user: Any, limit: int = 30) -> list[dict[str, Any]]:
    """The newest notifications, in the user's stored language like the pushed
    ones: newest first from the index ``notification_user_newest``."""
    newest = Notification.objects.filter(user=user).order_by("-created", "-pk")[:limit]
    with translation.override(user.language_or_default()):
        return [as_dict(n) for n in newest]


def newest_ids(user_ids: list[int]) -> dict[int, int]:
    """Each user's newest notification id (users without one left out), in one query."""
    rows = (
        Notification.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(newest=Max("id"))
        .values_list("user_id", "newest")
    )
    return dict(rows)
