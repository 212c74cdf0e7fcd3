"""What an account's sanctions refuse: chat (``muted``), play (``suspended``),
new realtime tables and quick play (``playban`` with ``retry_after``).

Each check is one indexed read of a small table, asked by the services that
a sanction refuses. A move reads none: the statement that locks the game
reads the mover's standing too (``games/store/rows.py``), and the decision
refuses with ``refuse_sanctioned_move`` on both move paths (the game socket
keeps no flag of its own), and for a conditional reply's owner too. A play-ban refuses new realtime games only,
never a move in a game already running.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext_noop

from games.errors import GameError

from .models import PlayBan, Standing

if TYPE_CHECKING:
    from games.store.rows import MoverStanding


def standing_of(user_id: int | None) -> Standing | None:
    if user_id is None:
        return None
    return Standing.objects.filter(user_id=user_id).first()


def muted_until(user_id: int | None, now: datetime | None = None) -> datetime | None:
    found = standing_of(user_id)
    now = now or timezone.now()
    if found and found.muted_until and found.muted_until > now:
        return found.muted_until
    return None


def suspended_until(user_id: int | None, now: datetime | None = None) -> datetime | None:
    found = standing_of(user_id)
    now = now or timezone.now()
    if found and found.suspended_until and found.suspended_until > now:
        return found.suspended_until
    return None


def refuse_if_muted(user: object) -> None:
    until = muted_until(getattr(user, "pk", None))
    if until is not None:
        raise GameError(
            "muted",
            gettext_noop("A moderator muted your chat until %(until)s."),
            status=403,
            until=until.strftime(UNTIL_FORMAT),
        )


def suspended_error(until: datetime) -> GameError:
    return GameError(
        "suspended",
        gettext_noop("Your account is suspended until %(until)s: you cannot play until then."),
        status=403,
        until=until.strftime(UNTIL_FORMAT),
    )


def refuse_if_suspended(user: object) -> None:
    until = suspended_until(getattr(user, "pk", None))
    if until is not None:
        raise suspended_error(until)


def refuse_sanctioned_move(standing: MoverStanding, now: datetime) -> None:
    """A move by a closed or suspended account is refused (the decision's
    check, from what the game's lock read: no query)."""
    if standing.closed:
        raise GameError("closed", gettext_noop("Your account was closed."), status=403)
    if standing.suspended_until is not None and standing.suspended_until > now:
        raise suspended_error(standing.suspended_until)


def playban_in_force(user_id: int | None, now: datetime) -> PlayBan | None:
    """The play-ban that ends last among those still running, or None."""
    if user_id is None:
        return None
    return PlayBan.objects.filter(user_id=user_id, until__gt=now).order_by("-until").first()


def playban_left(user_id: int | None, now: datetime | None = None) -> tuple[int, str] | None:
    """The seconds a play-ban still runs and its reason, or None."""
    now = now or timezone.now()
    ban = playban_in_force(user_id, now)
    if ban is None:
        return None
    return math.ceil((ban.until - now).total_seconds()), ban.reason


PLAYBAN_TEXTS = {
    "abort": gettext_noop(
        "You aborted too many games: no new realtime games for %(minutes)s more minutes."
    ),
    "leave": gettext_noop(
        "You left too many games: no new realtime games for %(minutes)s more minutes."
    ),
    "flag": gettext_noop(
        "You let the clock run out too often: no new realtime games for %(minutes)s more minutes."
    ),
}


def refuse_if_playbanned(user: object, clock: dict[str, Any] | None) -> None:
    """Realtime tables and quick play only: correspondence stays open."""
    if (clock or {}).get("kind") != "realtime":
        return
    left = playban_left(getattr(user, "pk", None))
    if left is None:
        return
    seconds, reason = left
    raise GameError(
        "playban",
        PLAYBAN_TEXTS.get(reason, PLAYBAN_TEXTS["leave"]),
        status=403,
        retry_after=seconds,
        minutes=math.ceil(seconds / 60),
    )


# How an end time is told (TIME_ZONE is UTC).
UNTIL_FORMAT = "%Y-%m-%d %H:%M UTC"

# Told where the player would seek a game (the lobby), before they try.
PLAYBAN_NOTICES = {
    "abort": gettext_noop(
        "You aborted too many games: no new realtime games until %(until)s."
        " Correspondence games stay open."
    ),
    "leave": gettext_noop(
        "You left too many games: no new realtime games until %(until)s."
        " Correspondence games stay open."
    ),
    "flag": gettext_noop(
        "You let the clock run out too often: no new realtime games until %(until)s."
        " Correspondence games stay open."
    ),
}


def playban_notice(user_id: int | None, now: datetime | None = None) -> dict[str, Any] | None:
    """A play-ban in force as the lobby tells it: the sentence (an English
    msgid and its ``until``) and the end time; None without one."""
    ban = playban_in_force(user_id, now or timezone.now())
    if ban is None:
        return None
    return {
        "template": PLAYBAN_NOTICES.get(ban.reason, PLAYBAN_NOTICES["leave"]),
        "until": ban.until,
        "until_text": ban.until.strftime(UNTIL_FORMAT),
    }
