"""Graceful restarts of a Daphne process: SIGTERM drains, then stops.

On SIGTERM (installed once Daphne's reactor runs, in place of Twisted's
handler, which stopped at once and cut every socket):

1. the process is draining: ``/readyz`` answers 503, every other new request
   503 with ``Retry-After`` and every new socket is refused (403), for
   ``DRAIN_LISTEN_SECONDS`` (0 by default; an orchestrator that routes by
   ``/readyz`` wants a few); then the process stops listening, so a proxy's
   next connection goes to another process at once (nginx's
   ``proxy_next_upstream error``);
2. the background loops stop after their current round and hand their leases
   back as they stop (games/realtime/polling.py): another process takes the
   bot turns, sweeps, imports and rounds at once, not after a lease lapses;
3. every open socket is closed with 1012 and a short retry hint after the
   frame it is working on, paced (``DRAIN_CLOSES_PER_SECOND``, within
   ``DRAIN_SPREAD_SECONDS``) so that the other processes take the handshakes
   as they can, and every API stream ends (games/realtime/draining.py);
4. once the requests and sockets under way are done, or after
   ``DRAIN_SECONDS`` (10), the reactor stops (Daphne cancels what is left).

A second SIGTERM, or SIGINT, stops at once as before.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import Any, cast

from channels.layers import get_channel_layer
from django.conf import settings

from games.realtime import draining
from games.realtime.bot_worker import thinkers
from games.realtime.sweeper import sweeper

from .health import PATHS
from .heartbeats import Heartbeats
from .openings import openings

log = logging.getLogger(__name__)
POLL = 0.05


class Requests:
    """HTTP requests under way in this process (streams count as sockets)."""

    def __init__(self) -> None:
        self.under_way = 0

    async def counted(self, coroutine: Any) -> None:
        self.under_way += 1
        try:
            await coroutine
        finally:
            self.under_way -= 1


requests = Requests()


async def refuse(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A request or socket that came while draining: try another process."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close"})  # before the handshake: 403
        return
    headers = [
        (b"content-type", b"application/json"),
        (b"retry-after", b"1"),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    body = b'{"code": "restarting", "message": "This server is restarting; try again."}'
    await send({"type": "http.response.body", "body": body})


class Gate:
    """The outermost ASGI app: health probes first (config/health.py), then
    the refusals of a draining process, then the site (socket handshakes
    in turn, config/openings.py)."""

    _asgi_single_callable = True

    def __init__(self, app: Any, health: Any, started_health: Any) -> None:
        self.app = app
        self.socket_app = Heartbeats(app)  # heartbeats answered at once (config/heartbeats.py)
        self.health = health
        self.started_health = started_health  # the probe also starts the loops

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        path = scope.get("path", "")
        if scope["type"] == "http" and path in PATHS:
            probe = self.health if draining.state.draining else self.started_health
            return probe(scope, receive, send)
        if draining.state.draining and scope["type"] in ("http", "websocket"):
            return refuse(scope, receive, send)
        if scope["type"] == "http" and not path.startswith("/api/stream/"):
            return requests.counted(self.app(scope, receive, send))
        if scope["type"] == "websocket":
            return openings(self.socket_app, scope, receive, send)  # in turn (config/openings.py)
        return self.app(scope, receive, send)


class Drainer:
    """Runs one drain on the reactor's event loop (see the module)."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self.task: asyncio.Task[None] | None = None

    def on_sigterm(self) -> None:
        if self.task is not None:  # asked twice: stop now
            self.stop()
            return
        log.warning("SIGTERM: draining before stopping")
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        draining.state.draining = True
        until = asyncio.get_running_loop().time() + settings.DRAIN_SECONDS
        background = asyncio.ensure_future(sweeper.stop())
        try:
            await asyncio.sleep(settings.DRAIN_LISTEN_SECONDS)
            await self.stop_listening()
            asked = await draining.ask_all_to_go(
                get_channel_layer(),
                per_second=settings.DRAIN_CLOSES_PER_SECOND,
                within=min(settings.DRAIN_SPREAD_SECONDS, settings.DRAIN_SECONDS / 2),
            )
            log.warning("draining: %s sockets and streams asked to go", asked)
            await self.wait(lambda: not draining.state.open and not requests.under_way, until)
            await self.wait(background.done, until)
        except Exception:
            log.exception("draining failed; stopping")
        log.warning(
            "drained: %s sockets, %s requests left; background work %s",
            len(draining.state.open),
            requests.under_way,
            "stopped" if background.done() else "still running",
        )
        self.stop()

    def stop(self) -> None:
        thinkers.shutdown()
        self.reactor.stop()

    async def stop_listening(self) -> None:
        """Close this process's listening ports (its open connections stay)."""
        from twisted.internet import tcp, unix

        ports = [r for r in self.reactor.getReaders() if isinstance(r, tcp.Port | unix.Port)]
        for port in ports:
            await asyncio.ensure_future(_as_future(port.stopListening()))

    @staticmethod
    async def wait(done: Any, until: float) -> None:
        loop = asyncio.get_running_loop()
        while not done() and loop.time() < until:
            await asyncio.sleep(POLL)


async def _as_future(deferred: Any) -> None:
    if deferred is not None:
        await deferred.asFuture(asyncio.get_running_loop())


def install_under_daphne() -> None:
    """Under Daphne (its server module loaded), take over SIGTERM once the
    reactor runs; elsewhere (tests' communicators, manage.py) do nothing."""
    if "daphne.server" not in sys.modules:
        return
    from twisted.internet import reactor

    drainer = Drainer(cast(Any, reactor))

    def install() -> None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, drainer.on_sigterm)

    cast(Any, reactor).callLater(0, install)  # on the running loop, after Twisted set its handlers
