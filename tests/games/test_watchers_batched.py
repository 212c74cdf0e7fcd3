"""Watcher counts are batched (issue "Hold against strangers", item 7): a
crowd arriving costs each socket a frame per batch window, not one per
arrival, and the last frame carries the final count. Two processes:
tests/ops/test_watchers_batched.py."""

from __future__ import annotations

import json
import time

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.db_threads import sync_to_async
from tests.factories import started_game
from tests.games.test_consumers import ORIGIN, receive

pytestmark = pytest.mark.django_db(transaction=True)

CROWD = 200
WINDOW = 1.0


async def spectator(path: str, i: int) -> WebsocketCommunicator:
    """An anonymous socket (each its own person) from an address of its own."""
    comm = WebsocketCommunicator(application, path, headers=[ORIGIN])
    comm.scope["client"] = (f"10.9.{i // 200}.{i % 200 + 1}", 40000 + i)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    return comm


async def watchers_until(comm: WebsocketCommunicator, count: int, timeout: float) -> int:
    """Read ``watchers`` frames until one says ``count``; how many came."""
    seen = 0
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"never told {count} watchers"
        frame = json.loads(await comm.receive_from(timeout=left))
        if frame["type"] == "watchers":
            seen += 1
            if frame["count"] == count:
                return seen


async def test_a_crowd_arriving_and_leaving_costs_a_frame_per_window(settings, capsys):
    settings.WATCHERS_BATCH_SECONDS = WINDOW
    game = await sync_to_async(started_game)()
    path = f"/ws/game/{game.pk}/"
    started = time.monotonic()
    crowd = []
    for i in range(CROWD):
        crowd.append(await spectator(path, i))
        assert (await receive(crowd[-1], "hello", timeout=10))["watchers"] == i + 1
    frames = [await watchers_until(comm, CROWD, WINDOW * 3 + 5) for comm in crowd]
    joining = time.monotonic() - started
    windows = joining / WINDOW + 2  # the first change is sent at once, the last after a window
    with capsys.disabled():
        print(f"\n{CROWD} joins: {sum(frames)} watchers frames in {joining:.1f} s")
    # One frame per join to every socket was CROWD**2 / 2 (20,000 for 200).
    assert max(frames) <= windows and sum(frames) <= CROWD * windows

    started = time.monotonic()
    last = crowd.pop()
    for comm in crowd:
        await comm.disconnect()
    told = await watchers_until(last, 1, WINDOW * 3 + 5)
    leaving = time.monotonic() - started
    with capsys.disabled():
        print(f"{CROWD - 1} leaves: {told} watchers frames to the last socket in {leaving:.1f} s")
    assert told <= leaving / WINDOW + 2
    await last.disconnect()


async def test_a_single_arrival_is_told_at_once_and_a_later_one_after_the_window(settings):
    settings.WATCHERS_BATCH_SECONDS = WINDOW
    game = await sync_to_async(started_game)()
    path = f"/ws/game/{game.pk}/"
    first = await spectator(path, 0)
    await receive(first, "hello")
    assert await watchers_until(first, 1, WINDOW / 2) == 1  # nothing sent lately: at once
    told = time.monotonic()
    second = await spectator(path, 1)
    await receive(second, "hello")
    await watchers_until(first, 2, WINDOW * 3)
    assert time.monotonic() - told >= WINDOW * 0.9  # within the first's window: batched
    await second.disconnect()
    await first.disconnect()
