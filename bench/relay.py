"""The bare reference: a consumer that only relays a frame to its group.

Run it like the site, with the same channel layer settings (REDIS_URL...):

  .venv/bin/daphne -p 8001 bench.relay:application
  .venv/bin/daphne -p 8002 bench.relay:lean_application

The first uses channels' stock consumer dispatch, which hops to a thread
before every message to close stale ORM connections; the lean one dispatches
on the loop as the site's consumers do (games/realtime/consumer_base.py).

and drive it with the same load tool: ``bench/ws_load.py --target relay``.

``bench.relay:pong_application`` is the floor of bench/idle.py: the site's
socket paths (``ws/lobby/``, ``ws/game/<id>/``, ``ws/notify/``), each served by
a lean consumer that answers every frame with ``{"type": "pong"}``; lobby
sockets join one group, so a single group message reaches them all.
Groups of 4 sockets (one sender, three listeners), closed loop (send, wait
until all four have the frame, send again) or open loop with a random phase.
Its figures are the ceiling of this stack on this machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _application(lean: bool = False):
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    from games.realtime.consumer_base import LoopOnlyDispatchMixin

    # Stock: channels' own dispatch (a thread hop per message to close stale
    # ORM connections). Lean: the site's dispatch, straight to the handler.
    bases = (LoopOnlyDispatchMixin, AsyncWebsocketConsumer) if lean else (AsyncWebsocketConsumer,)

    class RelayConsumer(*bases):
        async def connect(self) -> None:
            self.group = "relay-" + self.scope["url_route"]["kwargs"]["group"]
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def disconnect(self, code: int) -> None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(
            self, text_data: str | None = None, bytes_data: bytes | None = None
        ) -> None:
            await self.channel_layer.group_send(
                self.group, {"type": "relay.frame", "text": text_data}
            )

        async def relay_frame(self, message: dict[str, Any]) -> None:
            await self.send(text_data=message["text"])

    routes = URLRouter([path("ws/relay/<str:group>/", RelayConsumer.as_asgi())])
    return ProtocolTypeRouter({"websocket": routes})


PONG = json.dumps({"type": "pong"})
FLOOR_LOBBY_GROUP = "idle-floor-lobby"


def _pong_application():
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    from games.realtime.consumer_base import LoopOnlyDispatchMixin

    class PongConsumer(LoopOnlyDispatchMixin, AsyncWebsocketConsumer):
        """Answers any frame with a pong, on the loop; lobby sockets share a group."""

        async def connect(self) -> None:
            self.lobby = self.scope["path"].rstrip("/").endswith("lobby")
            if self.lobby:
                await self.channel_layer.group_add(FLOOR_LOBBY_GROUP, self.channel_name)
            await self.accept()

        async def disconnect(self, code: int) -> None:
            if self.lobby:
                await self.channel_layer.group_discard(FLOOR_LOBBY_GROUP, self.channel_name)

        async def receive(
            self, text_data: str | None = None, bytes_data: bytes | None = None
        ) -> None:
            await self.send(text_data=PONG)

        async def floor_frame(self, message: dict[str, Any]) -> None:
            await self.send(text_data=message["text"])

    consumer = PongConsumer.as_asgi()
    routes = URLRouter(
        [
            path("ws/lobby/", consumer),
            path("ws/game/<int:game_id>/", consumer),
            path("ws/notify/", consumer),
        ]
    )
    return ProtocolTypeRouter({"websocket": routes})


def __getattr__(name: str):  # built lazily so the load tool can import this module
    if name == "application":
        return _application()
    if name == "lean_application":
        return _application(lean=True)
    if name == "pong_application":
        return _pong_application()
    raise AttributeError(name)


# -- the driver (used by bench/ws_load.py --target relay) --------------------------


class RelayGroup:
    def __init__(self, url: str, index: int, size: int) -> None:
        self.url = f"{url}/ws/relay/g{index}-{random.randrange(1 << 30)}/"
        self.size = size
        self.sockets: list[Any] = []
        self.pending: dict[int, tuple[float, set[int]]] = {}
        self.latencies: list[float] = []
        self.seq = 0
        self.done = asyncio.Event()

    async def connect(self, origin: str) -> None:
        import websockets

        self.sockets = [
            await websockets.connect(self.url, origin=origin, max_size=None)
            for _ in range(self.size)
        ]
        self.readers = [asyncio.create_task(self.read(i, ws)) for i, ws in enumerate(self.sockets)]

    async def read(self, i: int, ws: Any) -> None:
        async for text in ws:
            seq = json.loads(text)["seq"]
            sent, seen = self.pending.get(seq, (None, None))
            if seen is None:
                continue
            seen.add(i)
            if len(seen) == self.size:
                self.latencies.append(time.perf_counter() - sent)
                del self.pending[seq]
                self.done.set()

    async def send(self) -> None:
        self.seq += 1
        self.pending[self.seq] = (time.perf_counter(), set())
        self.done.clear()
        await self.sockets[0].send(json.dumps({"seq": self.seq, "pad": "x" * 200}))

    async def closed_loop(self, until: float) -> None:
        while time.perf_counter() < until:
            await self.send()
            try:
                await asyncio.wait_for(self.done.wait(), timeout=10)
            except TimeoutError:
                return

    async def open_loop(self, until: float, interval: float) -> None:
        await asyncio.sleep(random.random() * interval)
        while time.perf_counter() < until:
            await self.send()
            await asyncio.sleep(interval)

    async def close(self) -> None:
        for task in getattr(self, "readers", []):
            task.cancel()
        for ws in self.sockets:
            await ws.close()


async def run(args: Any) -> dict[str, Any]:
    from bench.ws_load import proc_cpu, summary

    groups = [RelayGroup(args.url, i, 4) for i in range(args.games)]
    sem = asyncio.Semaphore(args.connect_concurrency)

    async def connect(g: RelayGroup) -> None:
        async with sem:
            await g.connect(args.origin)

    await asyncio.gather(*(connect(g) for g in groups))
    cpu0, t0 = proc_cpu(args.server_pid), time.perf_counter()
    until = t0 + args.duration
    if args.mode == "closed":
        await asyncio.gather(*(g.closed_loop(until) for g in groups))
    else:
        await asyncio.gather(*(g.open_loop(until, args.interval) for g in groups))
        await asyncio.sleep(0.5)
    elapsed = time.perf_counter() - t0
    cpu = proc_cpu(args.server_pid) - cpu0
    await asyncio.gather(*(g.close() for g in groups))
    latencies = [x for g in groups for x in g.latencies]
    lost = sum(len(g.pending) for g in groups)
    rate = len(latencies) / elapsed
    print(f"relay: {args.games} groups x 4 sockets, {args.mode} loop, {elapsed:.1f}s")
    print(f"frames/s {rate:.1f}   latency {summary(latencies)}   unanswered {lost}")
    if args.server_pid:
        print(f"server CPU {cpu:.1f}s = {1000 * cpu / max(len(latencies), 1):.2f} ms per frame")
    return {
        "target": "relay",
        "rate": rate,
        "n": len(latencies),
        "lost": lost,
        "p50_ms": _p(latencies, 50),
        "p99_ms": _p(latencies, 99),
    }


def _p(values: list[float], p: float) -> float:
    from bench.ws_load import pct

    return pct([v * 1000 for v in values], p)
