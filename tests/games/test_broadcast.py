"""Publishing from the event loop after database work (games/realtime/sending.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.layers import get_channel_layer

from games import publish
from games.realtime import sending


class SlowChange:
    """Database work still running when its caller is cancelled."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, group: str) -> str:
        self.started.set()
        self.release.wait(10)
        publish._send(group, {"type": "game.watchers", "count": 1})
        return "done"


async def test_work_of_a_cancelled_handler_still_publishes():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("game-cancelled", channel)
    change = SlowChange()
    handler = asyncio.ensure_future(sending.in_thread_then_publish(change)("game-cancelled"))
    await asyncio.to_thread(change.started.wait, 10)
    handler.cancel()
    with pytest.raises(asyncio.CancelledError):
        await handler
    change.release.set()
    message = await asyncio.wait_for(layer.receive(channel), 2)
    assert message == {"type": "game.watchers", "count": 1}


async def test_a_failing_publish_is_logged_not_raised(caplog):
    def broken(game_id: int, count: int) -> None:
        raise RuntimeError("no layer")

    await sending.publish_from_loop(broken, 1, 2)
    assert "publishing" in caplog.text
