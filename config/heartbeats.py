"""A page's heartbeat answered while its socket is busy with an earlier frame.

A page that sent a frame (a move) sends ``{"type": "hb"}`` after it and takes
the socket for dead if nothing comes back within 3 s (socket.js
``ANSWER_MS``). A consumer handles its socket's frames one after another:
behind a move that waits for its row, a batch or a busy process, the
heartbeat waited too, and past 3 s the page dropped a healthy socket and
came back through a handshake, which cost the busy process more.

So each socket's frames are read as they come (``Inbox``, in the outermost
app, config/drain.py's ``Gate``): a heartbeat that comes while the socket is
open is answered at once, at most ``PER_SECOND`` a second; every other frame,
and every heartbeat past that (counted and answered by the consumer, whose
frame window closes a flood), waits for the consumer in its order.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from games.ratelimit import Window
from games.realtime.socket_frames import HEARTBEAT

PER_SECOND = 2  # a page sends one after each frame of its own, 3 s apart at most


class Inbox:
    """One socket's frames, read from the server as they come."""

    __slots__ = ("answered", "messages", "open", "receive", "send", "waiter")

    def __init__(self, receive: Any, send: Any) -> None:
        self.receive, self.send = receive, send
        # A list, not a deque: a deque's first block alone is 0.6 kB, and an
        # idle socket holds this for hours with nothing in it.
        self.messages: list[dict[str, Any]] = []
        self.waiter: asyncio.Future[None] | None = None
        self.open = False  # accepted and not closed: a heartbeat may be answered
        self.answered = Window(PER_SECOND, 1.0)  # the last second's answers

    async def pump(self) -> None:
        """Read every message; answer heartbeats; queue the rest."""
        while True:
            message = await self.receive()
            if self.open and _is_heartbeat(message) and self._may_answer():
                # A socket closing under the answer (Autobahn refuses to send
                # on it): its disconnect follows; the pump reads on until then.
                with contextlib.suppress(Exception):
                    await self.send({"type": "websocket.send", "text": HEARTBEAT})
                continue
            self.messages.append(message)
            if self.waiter is not None and not self.waiter.done():
                self.waiter.set_result(None)
            if message["type"] == "websocket.disconnect":
                return

    def _may_answer(self) -> bool:
        return self.answered.allow(asyncio.get_running_loop().time())

    async def next_message(self) -> dict[str, Any]:
        """The app's ``receive``: the oldest message not yet handed over."""
        while not self.messages:
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.messages.pop(0)

    async def sending(self, message: dict[str, Any]) -> None:
        """The app's ``send``: watches whether the socket is open."""
        kind = message["type"]
        if kind == "websocket.accept":
            self.open = True
        elif kind == "websocket.close":
            self.open = False
        await self.send(message)


def _is_heartbeat(message: dict[str, Any]) -> bool:
    return message["type"] == "websocket.receive" and message.get("text") == HEARTBEAT


class Heartbeats:
    """ASGI middleware: a websocket's app gets its frames through an ``Inbox``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        inbox = Inbox(receive, send)
        pump = asyncio.ensure_future(inbox.pump())
        pump.add_done_callback(lambda task: _wake(inbox, task))
        try:
            await self.app(scope, inbox.next_message, inbox.sending)
        finally:
            pump.cancel()


def _wake(inbox: Inbox, pump: asyncio.Task[None]) -> None:
    """A pump that failed (the server's receive raised) ends the app's wait
    with a disconnect, as a lost connection would."""
    if pump.cancelled() or pump.exception() is None:
        return
    inbox.messages.append({"type": "websocket.disconnect", "code": 1006})
    if inbox.waiter is not None and not inbox.waiter.done():
        inbox.waiter.set_result(None)
