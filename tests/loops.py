"""A loop's own clients closed on that loop before it ends.

The Redis clients (games/redis_clients.py) and, on PostgreSQL, the moves'
connection pool (games/store/loop_pool.py) are kept per event loop. A loop's
end cancels its remaining tasks once and waits for them; a pool worker that
is connecting or returning a connection swallows that cancel and waits on
its queue for good, so the loop's end (and the test run) would hang. Closed
first on the loop, they end cleanly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def close_loop_clients() -> None:
    from games import redis_clients
    from games.store import loop_pool

    await redis_clients.close_loop_clients()
    await loop_pool.close_this_loop()


def run_on_own_loop(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` for a sync test, the loop's clients closed on it first."""

    async def closing() -> T:
        try:
            return await main
        finally:
            await close_loop_clients()

    return asyncio.run(closing())
