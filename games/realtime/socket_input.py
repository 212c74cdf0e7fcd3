"""A socket frame's fields as the services take them (the REST API's input
serializers do the same for a request body).

Malformed values are refused with the service's own message, or handed on as
absent where the service then refuses them (a reason that is no text, move
numbers that are no list of numbers), so both doors answer alike.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from ..errors import GameError
from ..services.internal.guards import game_act_input_check


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def act(frame: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The version the player saw and their action."""
    return game_act_input_check(version=frame.get("version"), action=frame.get("action"))


def sync_version(frame: dict[str, Any]) -> int:
    """The last version the page has (0: none)."""
    version = frame.get("version", 0)
    if not _whole(version):
        raise GameError("bad_request", gettext_noop("The version must be a whole number."))
    return max(version, 0)


def text(frame: dict[str, Any], name: str) -> str:
    """A text field; anything else counts as empty."""
    value = frame.get(name, "")
    return value if isinstance(value, str) else ""


def remis_request(frame: dict[str, Any]) -> dict[str, Any]:
    """A remis request's kind, move, move numbers and reason."""
    kind, action, numbers = frame.get("kind"), frame.get("action"), frame.get("move_numbers")
    if not isinstance(kind, str):
        raise GameError(
            "bad_request", gettext_noop("A remis request is for repetition or deadlock.")
        )
    return {
        "kind": kind,
        "action": action if isinstance(action, dict) else None,
        "move_numbers": numbers
        if isinstance(numbers, list) and all(_whole(n) for n in numbers)
        else None,
        "reason": text(frame, "reason"),
    }


def remis_decision(frame: dict[str, Any]) -> dict[str, Any]:
    """An admin's decision: which request, approved or not, and why."""
    try:
        request_id = int(frame["id"])
    except (KeyError, TypeError, ValueError, OverflowError):
        request_id = 0  # no request has it: "There is no such remis request."
    approve = frame.get("approve")
    if not isinstance(approve, bool):
        raise GameError("bad_request", gettext_noop("Say whether you approve or reject."))
    return {"request_id": request_id, "approve": approve, "reason": text(frame, "reason")}


def flag(frame: dict[str, Any], name: str) -> bool:
    """A true/false field of the frame, else a clear bad_request."""
    value = frame.get(name)
    if not isinstance(value, bool):
        raise GameError("bad_request", gettext_noop("%(name)s must be true or false."), name=name)
    return value
