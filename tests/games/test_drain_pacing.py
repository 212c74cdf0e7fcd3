"""A draining process asks its sockets to go at a paced rate
(games/realtime/draining.py): the rest play on meanwhile, so the other
processes take the handshakes as they can instead of in one burst."""

from __future__ import annotations

import asyncio
from typing import Any

from games.realtime import draining


class Socket:
    def __init__(self, n: int) -> None:
        self.channel_name = f"socket.{n}"


class Layer:
    """Records when each channel was asked to go (the loop's clock)."""

    def __init__(self) -> None:
        self.asked: list[tuple[float, str, dict[str, Any]]] = []

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        self.asked.append((asyncio.get_running_loop().time(), channel, message))


def open_sockets(count: int) -> list[Socket]:
    sockets = [Socket(n) for n in range(count)]
    draining.state.open.clear()
    for s in sockets:
        draining.state.open.add(s)
    return sockets


async def drained(per_second: float, within: float) -> tuple[int, float, Layer]:
    layer = Layer()
    began = asyncio.get_running_loop().time()
    asked = await draining.ask_all_to_go(layer, per_second=per_second, within=within)
    return asked, began, layer


def test_the_asks_are_spread_at_the_rate_asked():
    sockets = open_sockets(20)
    asked, began, layer = asyncio.run(drained(per_second=50, within=5))
    assert asked == 20 and {c for _, c, _ in layer.asked} == {s.channel_name for s in sockets}
    times = [t - began for t, _, _ in layer.asked]
    # 20 at 50 a second: spread over 0.4 s, never more than the rate allows.
    assert times[-1] >= 0.37, times
    assert times[9] >= 0.17 and times[9] < 0.35, times
    for _, _, message in layer.asked:
        assert message["type"] == draining.DRAIN
        assert draining.RETRY_MIN_MS <= message["retry_ms"] <= 300


def test_many_sockets_are_all_asked_within_the_cap():
    sockets = open_sockets(400)  # held: the open set is weak
    asked, began, layer = asyncio.run(drained(per_second=50, within=0.3))
    times = [t - began for t, _, _ in layer.asked]
    assert asked == 400
    assert 0.27 <= times[-1] < 1.0, times[-1]  # 8 s at the rate; the cap is 0.3 s
    assert len(sockets) == asked


def test_no_rate_asks_everyone_at_once():
    sockets = open_sockets(30)
    asked, began, layer = asyncio.run(drained(per_second=0, within=5))
    assert asked == len(sockets) and layer.asked[-1][0] - began < 0.2
