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
``stale_version`` (or, in a simultaneous phase, a retry), one whose row stays
locked past LOCK_TIMEOUT, and one that finds no connection. A connection the
server dropped is replaced by the pool and the move tried once more. Players
whose correspondence turn begins are notified after the commit (in the
thread pool, as a push is).

The connections come from psycopg_pool's ``AsyncConnectionPool``, one per
event loop, ``MOVES_POOL_SIZE`` at most.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from . import broadcast, notifications, services, store
from .broadcast import in_thread_then_publish
from .errors import no_such_game
from .models import Game

log = logging.getLogger(__name__)
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
    pool = await pool_for_this_loop()
    # A connection the server dropped (a restart, pg_terminate_backend) is
    # discarded by the pool; the move is tried once more on a fresh one.
    for _attempt in range(2):
        try:
            async with pool.connection() as conn:
                return await _decide_and_write(conn, pool.wrapper, game_id, user, version, action)
        except _Dropped:
            continue
        except PoolTimeout:
            log.warning("no connection for a move on the loop", exc_info=True)
            return None
    return None


class _Dropped(Exception):
    """The connection broke before anything was sent to commit."""


async def _decide_and_write(
    conn: psycopg.AsyncConnection, wrapper: Any, game_id: int, user: Any, version: Any, action: Any
) -> int | None:
    try:
        game = await store.alock_game(conn, wrapper, game_id, services.user_id_of(user))
    except psycopg.OperationalError:
        if conn.broken or conn.closed:
            raise _Dropped from None
        return None  # the row stayed locked past LOCK_TIMEOUT: the usual path waits in a thread
    if game is None:
        raise no_such_game()
    before_to_act = list(game.to_act)
    rs, state, event = services.decide_act(game, user, version, action, timezone.now())
    if services.changes_lobby(Game.Status.ACTIVE, game, event):
        await conn.rollback()
        return None
    try:
        await store.asave_event(conn, wrapper, game, event, services.MUTABLE_FIELDS)
    except (psycopg.IntegrityError, psycopg.OperationalError):
        # A version conflict, or a connection lost mid-commit: the usual path
        # decides again (a committed move then answers stale_version).
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


# Daphne runs one loop per process; tests run one per test and close_all() after it.
_pools: dict[asyncio.AbstractEventLoop, LoopPool] = {}


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
