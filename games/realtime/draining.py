"""A server process that drains for a restart (config/drain.py runs it):
this module holds the flag and the open sockets and streams, and asks each of
them to go.

A socket is asked through its own channel, so the request is handled after
the frame it is working on: a move under way is committed and acked before
the socket goes. The asks are paced (``DRAIN_CLOSES_PER_SECOND``, spread over
at most ``DRAIN_SPREAD_SECONDS``): a socket not yet asked plays on here, so
each page is away only for its own short hint and handshake, and the other
processes take the handshakes at a rate they can serve, not all in one burst
that every page then waits behind. It is sent a last frame, ``{"type":
"restart", "retry_ms": <ms>}``, the page's retry hint (a short random spread
within a batch), and closed with 4012: WebSocket's own
1012 ("service restart") in the private range, as Autobahn (Daphne's
websocket library) lets a server close only with 1000 or 3000-4999, and
Daphne sends no close reason. A page reconnects elsewhere with
``?since=<version>`` and catches up. An API stream ends after its current
line; a bot reconnects the same way.
"""

from __future__ import annotations

import asyncio
import json
import random
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from channels.exceptions import StopConsumer

if TYPE_CHECKING:
    from channels.generic.websocket import AsyncWebsocketConsumer as SocketConsumer
else:
    SocketConsumer = object

RESTART = 4012  # 1012 of RFC 6455 (service restart) in the range a server may send
# The pages' retry hints (milliseconds): the asks themselves are paced, so
# the hint only spreads the sockets of one batch.
RETRY_MIN_MS = 50
RETRY_SPREAD_MS = 250
DRAIN = "server.drain"


@dataclass
class DrainState:
    draining: bool = False
    # Every open socket and stream of this process (gone ones drop out).
    open: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet)


state = DrainState()


def retry_ms(rng: random.Random | None = None) -> int:
    """When a drained socket's page should come back (milliseconds)."""
    return RETRY_MIN_MS + int((rng or random).random() * RETRY_SPREAD_MS)


async def ask_all_to_go(layer: Any, *, per_second: float, within: float) -> int:
    """Ask every open socket and stream to go, each after what it is doing,
    ``per_second`` at most (all of them within ``within`` seconds however
    many); returns how many were asked."""
    goers = [(c, c.channel_name) for c in list(state.open) if getattr(c, "channel_name", None)]
    if layer is None or not goers:
        return 0
    loop = asyncio.get_running_loop()
    spread = min(len(goers) / per_second, within) if per_second > 0 else 0.0
    began = loop.time()
    for n, (_consumer, channel) in enumerate(goers):
        wait = began + spread * n / len(goers) - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        await layer.send(channel, {"type": DRAIN, "retry_ms": retry_ms()})
    return len(goers)


class DrainsSocketMixin(SocketConsumer):
    """Every socket of the site: refused while the process drains, counted
    while open, closed with 1012 and a retry hint when asked to go."""

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        if state.draining:
            self.refused_draining = True
            await self.close()  # before the handshake: Daphne answers 403
            return
        state.open.add(self)
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        state.open.discard(self)
        if getattr(self, "refused_draining", False):
            raise StopConsumer()  # nothing was opened
        await super().websocket_disconnect(message)

    async def server_drain(self, message: dict[str, Any]) -> None:
        # Counted until its disconnect: the page's answer to the close.
        await self.send(text_data=json.dumps({"type": "restart", "retry_ms": message["retry_ms"]}))
        await self.close(code=RESTART)
        self.drained = True

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Nothing more once closed for the restart: a game's frame that
        comes before the page's answer to the close would find the socket
        closing (Autobahn raises), and the consumer would die uncounted."""
        if not getattr(self, "drained", False):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)


class DrainsStreamMixin:
    """Every API stream: counted while open, ended when asked to go."""

    async def http_request(self, message: dict[str, Any]) -> None:
        state.open.add(self)
        await super().http_request(message)  # type: ignore[misc]

    async def server_drain(self, message: dict[str, Any]) -> None:
        try:
            await self.finish()  # type: ignore[attr-defined]
        finally:
            state.open.discard(self)

    async def http_disconnect(self, message: dict[str, Any]) -> None:
        state.open.discard(self)
        await super().http_disconnect(message)  # type: ignore[misc]
