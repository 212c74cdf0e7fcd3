"""A loop's own clients closed, and its tasks ended, on that loop before it ends.

The Redis clients (games/redis_clients.py) and, on PostgreSQL, the moves'
connection pool (games/store/loop_pool.py) are kept per event loop. A loop's
end cancels its remaining tasks once and waits for them; a pool worker that
is connecting or returning a connection swallows that cancel and waits on
its queue for good, so the loop's end (and the test run) would hang. So the
clients are closed first, on the loop, and what is left of the test's tasks
(a consumer still finishing a move may open a pool again) is cancelled until
it ends: a task that will not end fails the test by name instead of hanging.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
CANCEL_ROUNDS = 20
ROUND_SECONDS = 0.5  # the most one round waits for the tasks it cancelled


async def close_loop_clients() -> None:
    from games import redis_clients
    from games.store import loop_pool

    await redis_clients.close_loop_clients()
    await loop_pool.close_this_loop()
    # A pool a cancelled task opened on its way out has its workers ended
    # here and its connections finished by loop_pool.close_all (tests/conftest.py).
    await _end_other_tasks()


async def _end_other_tasks() -> None:
    """Cancel the loop's other tasks, again while any is left (each cancel a
    task swallows sends it on to its next wait, where the next one lands)."""
    current = asyncio.current_task()
    for _ in range(CANCEL_ROUNDS):
        left = [t for t in asyncio.all_tasks() if t is not current]
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.wait(left, timeout=ROUND_SECONDS)
    names = sorted(t.get_name() for t in asyncio.all_tasks() if t is not current)
    raise AssertionError(f"tasks that do not end when cancelled: {names}")


def run_on_own_loop(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` for a sync test, the loop's clients closed on it first."""

    async def closing() -> T:
        try:
            return await main
        finally:
            await close_loop_clients()

    return asyncio.run(closing())
