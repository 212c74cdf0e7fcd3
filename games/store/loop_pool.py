"""Connections for moves on the event loop: psycopg_pool's AsyncConnectionPool,
one per event loop, ``MOVES_POOL_SIZE`` at most."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Mapping
from typing import Any

import psycopg
import ujson
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool

from . import rows

# A row locked longer than this (a slow sweeper job, say) is waited for by the
# usual path in a thread instead, so a few such moves cannot hold up the rest.
LOCK_TIMEOUT = "500ms"


# Daphne runs one loop per process; tests run one per test and close_all() after it.
_pools: dict[asyncio.AbstractEventLoop, LoopPool] = {}


# Keys of ``DATABASES[...]["OPTIONS"]`` that Django reads itself; the rest
# are libpq/psycopg connection parameters (documented for the backend).
DJANGO_ONLY_OPTIONS = {
    "pool",
    "server_side_binding",
    "isolation_level",
    "assume_role",
    "cursor_factory",
}


def connect_kwargs(db: Mapping[str, Any]) -> dict[str, Any]:
    """psycopg connection parameters from a ``DATABASES`` entry (its documented keys)."""
    kwargs = {
        key: db[name]
        for key, name in (("dbname", "NAME"), ("user", "USER"), ("password", "PASSWORD"))
        if db.get(name)
    }
    kwargs |= {
        key: str(db[name]) for key, name in (("host", "HOST"), ("port", "PORT")) if db.get(name)
    }
    options = {k: v for k, v in db.get("OPTIONS", {}).items() if k not in DJANGO_ONLY_OPTIONS}
    return {**kwargs, **options, "autocommit": True}


class LoopPool(AsyncConnectionPool):
    """psycopg_pool's pool of autocommit connections for one event loop (Daphne
    runs one per process), to the database of ``DATABASES["default"]``.

    Its connections keep psycopg's own loaders (jsonb parsed, here by ujson;
    timestamptz as aware datetimes in the session's UTC): what
    ``rows.alock_games`` reads needs no further conversion. Each prepares the
    move's two statements once, when it connects."""

    def __init__(self, size: int) -> None:
        self.opened: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()
        super().__init__(
            kwargs=connect_kwargs(settings.DATABASES[DEFAULT_DB_ALIAS]),
            min_size=1,
            max_size=size,
            open=False,
            configure=self._configure,
            name="moves-on-loop",
        )

    async def _configure(self, conn: psycopg.AsyncConnection) -> None:
        self.opened.add(conn)
        # jsonb read by ujson: a locked row has some 15 JSON columns (measured:
        # 0.43 ms against 0.61 ms CPU to lock and read 4 games with the stdlib).
        set_json_loads(ujson.loads, conn)
        await conn.execute(
            "SELECT set_config('TimeZone', 'UTC', false), set_config('lock_timeout', %s, false)",
            [LOCK_TIMEOUT],
        )
        await conn.execute(rows.prepare_sql())  # the lock and the write (rows.PREPARED_*)


async def pool_for_this_loop() -> LoopPool:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = LoopPool(settings.MOVES_POOL_SIZE)
    if pool.closed:
        # Not open(wait=True): that waits for an idle connection in the pool,
        # which never comes while other moves take each one as it connects (a
        # server starting under load), and closes the pool after 30 s. The
        # first move waits for its connection in turn, like the rest.
        await pool.open()
    return pool


async def close_this_loop(timeout: float = 5.0) -> None:
    """Close the running loop's pool on that loop, before the loop ends (a
    test's loop): its workers stop at their queue. Cancelled instead, as a
    loop's end cancels every task once, a worker that is adding or returning
    a connection swallows the cancel (psycopg_pool's workers take every error
    of a task, CancelledError included) and waits on its queue for good, and
    the loop's end waits with it."""
    pool = _pools.pop(asyncio.get_running_loop(), None)
    if pool is not None and not pool.closed:
        await pool.close(timeout)


def close_all() -> None:
    """End every pool's sessions without a loop (at a test's end, when the
    test's loop, which the pool's tasks ran on, has stopped)."""
    for pool in _pools.values():
        for conn in list(pool.opened):
            conn.pgconn.finish()
    _pools.clear()
