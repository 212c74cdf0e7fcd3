"""Connections for moves on the event loop: psycopg_pool's AsyncConnectionPool,
one per event loop, ``MOVES_POOL_SIZE`` at most."""

from __future__ import annotations

import asyncio
import weakref

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg_pool import AsyncConnectionPool

# A row locked longer than this (a slow sweeper job, say) is waited for by the
# usual path in a thread instead, so a few such moves cannot hold up the rest.
LOCK_TIMEOUT = "500ms"


# Daphne runs one loop per process; tests run one per test and close_all() after it.
_pools: dict[asyncio.AbstractEventLoop, LoopPool] = {}


class LoopPool(AsyncConnectionPool):
    """psycopg_pool's pool of autocommit connections for one event loop (Daphne
    runs one per process), with the database settings Django would use."""

    def __init__(self, size: int) -> None:
        # Not connected: its settings, converters and adapters for this database.
        self.wrapper = connections.create_connection(DEFAULT_DB_ALIAS)
        self.opened: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()
        params = self.wrapper.get_connection_params()
        params.pop("cursor_factory", None)  # a sync class; the statements pick their cursor
        super().__init__(
            kwargs={**params, "autocommit": True},
            min_size=1,
            max_size=size,
            open=False,
            configure=self._configure,
            name="moves-on-loop",
        )

    async def _configure(self, conn: psycopg.AsyncConnection) -> None:
        self.opened.add(conn)
        await conn.execute(
            "SELECT set_config('TimeZone', %s, false), set_config('lock_timeout', %s, false)",
            [self.wrapper.timezone_name, LOCK_TIMEOUT],
        )


async def pool_for_this_loop() -> LoopPool:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = LoopPool(settings.MOVES_POOL_SIZE)
    if pool.closed:
        await pool.open(wait=True)  # its first connection ready before the first move
    return pool


def close_all() -> None:
    """End every pool's sessions without a loop (at a test's end, when the
    test's loop, which the pool's tasks ran on, has stopped)."""
    for pool in _pools.values():
        for conn in list(pool.opened):
            conn.pgconn.finish()
    _pools.clear()
