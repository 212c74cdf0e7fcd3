"""Watcher counts batched across two Daphne processes (games/realtime/watchers.py):
spectators arrive on both, each socket hears at most about one ``watchers``
frame per window for the game (the window is shared in Redis), and every
socket ends on the true count, arrivals and departures on the other process
included."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest

from .cluster import wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]

CROWD = 40
WINDOW = 1.0


class Spectator:
    """A raw socket that keeps the ``watchers`` counts it hears."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.counts: list[int] = []
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                frame = json.loads(text)
                if frame["type"] == "watchers":
                    self.counts.append(frame["count"])

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2)
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


async def spectator(server: Any, game_id: int) -> Spectator:
    from websockets.asyncio.client import connect

    ws = await connect(
        f"{server.ws}/ws/game/{game_id}/",
        origin=server.http,
        open_timeout=10,
        ping_interval=None,
    )
    hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
    assert hello["type"] == "hello", hello
    return Spectator(ws)


def all_told(crowd: list[Spectator], count: int):
    return lambda: all(s.counts and s.counts[-1] == count for s in crowd)


async def test_watcher_counts_are_batched_across_two_processes(cluster):
    a, b = await cluster.daphnes("daphne-a", "daphne-b", WATCHERS_BATCH_SECONDS=str(WINDOW))
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    crowd: list[Spectator] = []
    try:
        started = time.monotonic()
        for i in range(CROWD):
            crowd.append(await spectator(a if i % 2 else b, g["id"]))
        await wait_until(all_told(crowd, CROWD), WINDOW * 3 + 10, f"{CROWD} watchers everywhere")
        joining = time.monotonic() - started
        frames = [len(s.counts) for s in crowd]
        print(f"\n{CROWD} joins over two processes: {sum(frames)} watchers frames")
        # One window per game for both processes; unbatched this was CROWD**2 / 2.
        assert max(frames) <= joining / WINDOW + 3, (frames, joining)

        on_a = crowd[1::2]
        for s in on_a:
            await s.close()
        stay = crowd[0::2]  # on B: they hear A's departures through Redis
        await wait_until(all_told(stay, len(stay)), WINDOW * 3 + 10, "the departures on B")
    finally:
        for s in crowd:
            await s.close()
