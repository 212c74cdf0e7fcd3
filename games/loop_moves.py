"""A player's move on PostgreSQL without leaving the event loop.

The usual path (``services.game_act`` through the thread pool) hands every
move to a worker thread and back. Measured at saturation (bench/ws_load.py):
that hand-off and the fight for the GIL between the loop and the workers
(dozens of futex calls per move) cost more server CPU than the move's
database work. Here the same decision (``services.decide_act``) runs on the
loop, between two statements on an async connection: the lock, carrying
the BEGIN, and the event insert with the game update, carrying the COMMIT.

A move that ends the game needs more than those two statements (results,
notifications, the lobby): it is rolled back untouched and made again by
``services.game_act``, which does everything; so is a move that meets a
unique-version conflict, which that path turns into a clear
``stale_version`` (or, in a simultaneous phase, a retry), one whose pooled
connection the server dropped, and one whose row stays locked past
LOCK_TIMEOUT. Players whose correspondence turn
begins are notified after the commit (in the thread pool, as a push is).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from . import broadcast, notifications, services, store
from .broadcast import in_thread_then_publish
from .errors import no_such_game
from .models import Game

log = logging.getLogger(__name__)
# Connections per event loop: moves waiting for one queue on the loop.
POOL_SIZE = 4
# A row locked longer than this (a slow sweeper job, say) is waited for by the
# usual path in a thread instead, so a few such moves cannot hold up the rest.
LOCK_TIMEOUT = "500ms"


def enabled() -> bool:
    return (
        settings.MOVES_ON_LOOP
        and settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] == "django.db.backends.postgresql"
    )


async def act(*, game_id: Any, user: Any, version: Any, action: Any) -> int:
    """Apply one player's action; returns the new version (as ``services.game_act``).

    Run to the end even when the socket's handler is cancelled mid-move: a
    committed move is never cut off from its broadcast and notifications.
    """
    return await broadcast.to_the_end(
        _act(game_id=game_id, user=user, version=version, action=action)
    )


async def _act(*, game_id: Any, user: Any, version: Any, action: Any) -> int:
    if enabled():
        done = await _act_on_loop(game_id=game_id, user=user, version=version, action=action)
        if done is not None:
            return done
    return await in_thread_then_publish(services.game_act)(
        game_id=game_id, user=user, version=version, action=action
    )


async def _act_on_loop(*, game_id: Any, user: Any, version: Any, action: Any) -> int | None:
    """The new version, or None when ``services.game_act`` must make this move."""
    services.check_act_input(version, action)
    game_id = services.parse_game_id(game_id)
    pool = _pool()
    async with pool.connection() as conn:
        if conn is None:
            return None  # no connection to be had (the usual path has its own)
        try:
            game = await store.alock_game(conn, pool.wrapper, game_id, services.user_id_of(user))
        except psycopg.OperationalError:
            # Dropped by the server, or the row stayed locked past LOCK_TIMEOUT
            # (the usual path waits in a thread); nothing was sent to commit.
            return None
        if game is None:
            raise no_such_game()
        before_to_act = list(game.to_act)
        rs, state, event = services.decide_act(game, user, version, action, timezone.now())
        if services.changes_lobby(Game.Status.ACTIVE, game, event):
            return None
        try:
            await store.asave_event(conn, pool.wrapper, game, event, services.MUTABLE_FIELDS)
        except psycopg.IntegrityError:
            return None
    await broadcast.publish_from_loop(broadcast.publish_game_event, game, rs, state, event)
    if not notifications.quiet(game, before_to_act, event):
        await _notify(game, before_to_act, event)
    return event.version


async def _notify(game: Any, before_to_act: list[int], event: Any) -> None:
    """Tell players whose correspondence turn began, after the commit: best
    effort, like the push itself (the move is stored either way)."""
    try:
        await in_thread_then_publish(notifications.after_game_event)(game, before_to_act, event)
    except Exception:
        log.warning("notifying game %s version %s failed", game.pk, event.version, exc_info=True)


class LoopConnections:
    """A few autocommit connections for one event loop (Daphne runs one per
    process). A connection comes back idle: whatever transaction the caller
    left open (an error, a move handed to the usual path) is rolled back."""

    def __init__(self, size: int) -> None:
        # Not connected: its settings, converters and adapters for this database.
        self.wrapper = connections.create_connection(DEFAULT_DB_ALIAS)
        self.idle: list[psycopg.AsyncConnection] = []
        self.slots = asyncio.Semaphore(size)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection | None]:
        """An idle connection, or None when none can be opened now."""
        async with self.slots:
            try:
                conn = self.idle.pop() if self.idle else await self._connect()
            except psycopg.OperationalError:
                log.warning("no connection for a move on the loop", exc_info=True)
                yield None
                return
            try:
                yield conn
            finally:
                await self._give_back(conn)

    async def _connect(self) -> psycopg.AsyncConnection:
        params = self.wrapper.get_connection_params()
        params.pop("cursor_factory", None)  # a sync class; the statements pick their cursor
        conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        await conn.execute(
            "SELECT set_config('TimeZone', %s, false), set_config('lock_timeout', %s, false)",
            [self.wrapper.timezone_name, LOCK_TIMEOUT],
        )
        return conn

    async def _give_back(self, conn: psycopg.AsyncConnection) -> None:
        try:
            if (
                not conn.closed
                and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
            ):
                await conn.execute("ROLLBACK")
        except psycopg.Error:
            await conn.close()
        except BaseException:
            conn.pgconn.finish()  # cancelled mid-rollback: ending the session frees its locks
            raise
        if not conn.closed:
            self.idle.append(conn)

    def close(self) -> None:
        """Close the idle connections now (no loop needed: at a test's end)."""
        for conn in self.idle:
            conn.pgconn.finish()
        self.idle.clear()


# Daphne runs one loop per process; tests run one per test and close_all() after it.
_pools: dict[asyncio.AbstractEventLoop, LoopConnections] = {}


def _pool() -> LoopConnections:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = LoopConnections(POOL_SIZE)
    return pool


def close_all() -> None:
    for pool in list(_pools.values()):
        pool.close()
    _pools.clear()
