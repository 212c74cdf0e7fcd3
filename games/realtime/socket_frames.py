"""What every socket does with a client frame before its handler: size and
rate limits, JSON parsing, and error frames instead of closes."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from django.utils.translation import gettext as _

from .. import plain_json
from ..errors import GameError, over_budget, unexpected
from ..ratelimit import ConnectionBudget
from ..selectors.frames import dumps
from .consumer_base import SocketConsumer

log = logging.getLogger(__name__)


MAX_FRAME = 64 * 1024


# Close code for floods: 1008 (policy violation) in the application range,
# since the websocket library lets applications send only 1000 and 3000-4999.
POLICY_VIOLATION = 4008


UNAVAILABLE = 4503  # the server cannot serve this socket now; the page retries

# The pages' heartbeat: answered at once, before any shared budget or lookup,
# so a page learns within a round trip that its socket still carries frames.
HEARTBEAT = '{"type":"hb"}'


def error_frame(code: str, message: str, **extra: Any) -> str:
    return dumps({"type": "error", "code": code, "message": message, **extra})


def rate_limited_frame(wait: int, ref: Any) -> str:
    """A user over their budget across sockets (and processes) is told when to go on."""
    return dumps({"type": "error", **over_budget(wait).as_dict(), "ref": ref})


def since_from_query(scope: dict[str, Any]) -> int:
    """The version a reconnecting page already has (``?since=N``)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        return max(int(query.get("since", ["0"])[0]), 0)
    except ValueError:
        return 0


def _no_constants(name: str) -> Any:
    """NaN and Infinity are not JSON; refuse them rather than store them."""
    raise ValueError(name)


def parse_frame(text_data: str | None) -> tuple[dict[str, Any], str | None]:
    """A client frame as a dict, or the message explaining why it is not one."""
    if text_data is None:
        return {}, _("Send text frames containing JSON.")
    if len(text_data) > MAX_FRAME:
        return {}, _("The message is too large.")
    try:
        frame = json.loads(text_data, parse_constant=_no_constants)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        return {}, _("The message is not valid JSON.")
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return {}, _('A message must be a JSON object with a "type".')
    found = plain_json.problem(frame)  # NUL, lone surrogates, deep nesting
    if found:
        return {}, _(found)
    return frame, None


class FrameConsumerMixin(SocketConsumer):
    """Every socket's first steps with a client frame: rate limit, then parse."""

    budget: ConnectionBudget
    # Kinds whose shared count runs while the frame is handled (a move locks
    # its row meanwhile) and is awaited by the handler: ``admission``.
    deferred_budgets: frozenset[str] = frozenset()
    admission: asyncio.Future[int | None] | None = None

    async def checked_frame(self, text_data: str | None) -> dict[str, Any] | None:
        """The frame, or None after answering with an error (or closing a flood)."""
        frame, error = parse_frame(text_data)
        kind = frame.get("type", "junk") if error is None else "junk"
        if not self.budget.allow(kind):
            await self.close(code=POLICY_VIOLATION)
            return None
        if error is not None:
            await self.send(text_data=error_frame("bad_request", error))
            return None
        if kind == "hb":  # counted by the socket's own window above, nothing else
            await self.send(text_data=HEARTBEAT)
            return None
        if kind in self.deferred_budgets:
            self.admission = self.budget.user_count(kind)
            return frame
        wait = await self.budget.user_wait(kind)
        if wait is not None:
            await self.send(text_data=rate_limited_frame(wait, frame.get("ref")))
            return None
        return frame

    async def answering_errors(self, handler: Any, frame: dict[str, Any]) -> None:
        """Run ``handler(frame)``; a refusal or a failure of the server's own
        (a database gone, a bug) is answered with an error frame, so the socket
        stays open (never a 1011 close)."""
        try:
            await handler(frame)
        except GameError as exc:
            await self.send(
                text_data=dumps({"type": "error", "ref": frame.get("ref"), **exc.as_dict()})
            )
        except Exception as exc:
            log.warning("%s frame failed", frame.get("type"), exc_info=True)
            error = unexpected(exc)
            await self.send(
                text_data=dumps({"type": "error", "ref": frame.get("ref"), **error.as_dict()})
            )
