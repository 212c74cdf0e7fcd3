"""What config/heartbeats.py's Inbox costs a socket: memory while idle (the
app waiting for a frame; tracemalloc over 2,000 sockets) and CPU per frame
read through it, against the app reading the server's queue directly.

  .venv/bin/python bench/heartbeat_inbox.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import tracemalloc
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from config.heartbeats import Heartbeats  # noqa: E402

SCOPE = {"type": "websocket"}
FRAME = {"type": "websocket.receive", "text": '{"type":"act"}'}


async def ignore(message: dict[str, Any]) -> None:
    pass


async def waiting_app(scope: Any, receive: Any, send: Any) -> None:
    await receive()


async def direct_app(scope: Any, receive: Any, send: Any) -> None:
    await waiting_app(scope, receive, send)


async def idle_bytes(sockets: int) -> None:
    never = asyncio.Event()

    async def receive() -> None:
        await never.wait()

    for label, app in (("direct", direct_app), ("inbox", Heartbeats(waiting_app))):
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        tasks = [asyncio.ensure_future(app(SCOPE, receive, ignore)) for _ in range(sockets)]
        await asyncio.sleep(0.05)
        grown = sum(d.size_diff for d in tracemalloc.take_snapshot().compare_to(before, "filename"))
        tracemalloc.stop()
        print(f"{label}: {grown / sockets:.0f} bytes per idle socket")
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def cpu_per_frame(label: str, frames: int) -> None:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    done = asyncio.get_running_loop().create_future()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        for _ in range(frames):
            await receive()
        done.set_result(None)

    runner = app if label == "direct" else Heartbeats(app)
    started = time.process_time()
    task = asyncio.ensure_future(runner(SCOPE, queue.get, ignore))
    for i in range(frames):
        queue.put_nowait(FRAME)
        if i % 2 == 0:
            await asyncio.sleep(0)  # frames come a turn of the loop or two apart
    await done
    await task
    print(f"{label}: {(time.process_time() - started) / frames * 1e6:.1f} us CPU per frame")


async def main() -> None:
    await idle_bytes(2000)
    for label in ("direct", "inbox", "direct", "inbox"):
        await cpu_per_frame(label, 100_000)


if __name__ == "__main__":
    asyncio.run(main())
