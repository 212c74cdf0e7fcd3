"""A player's move on PostgreSQL without leaving the event loop: its write.

The usual path (``services.play.game_act`` through the thread pool) hands every
move to a worker thread and back. Measured at saturation (bench/ws_load.py):
that hand-off and the fight for the GIL between the loop and the workers
(dozens of futex calls per move) cost more server CPU than the move's
database work. Here the same decision (``services.internal.deciding.decide_act``) runs on the
loop, between two statements on an async connection: the lock, carrying
the BEGIN, and the event insert with the game update, carrying the COMMIT.

The write goes through the one funnel (``services/internal/events.py``): the same
``Change``, the same side effects, the same publishing after the commit.
A change with a side effect that must commit with the event (a game's end:
its ratings, the remis queue, the lobby) is rolled back untouched and made
again by ``services.play.game_act``, which does everything in one Django
transaction; so is a move that meets a unique-version conflict, which that
path turns into a clear ``stale_version`` (or, in a simultaneous phase, a
retry), one whose row stays locked past LOCK_TIMEOUT, and one that finds no
connection. A connection the server dropped is replaced by the pool and the
move tried once more. The caller (``games/realtime/acts.py``) publishes the
committed change and runs its other side effects after the commit.

The connections come from psycopg_pool's ``AsyncConnectionPool``, one per
event loop, ``MOVES_POOL_SIZE`` at most.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone
from psycopg_pool import PoolTimeout

from ..errors import GameError, no_such_game, over_budget
from ..store import rows
from ..store.loop_pool import pool_for_this_loop
from .internal import deciding, events
from .internal.guards import game_act_input_check, parse_game_id, user_id_of

if TYPE_CHECKING:
    from ..users import Visitor

log = logging.getLogger(__name__)


def loop_moves_enabled() -> bool:
    return (
        settings.MOVES_ON_LOOP
        and settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] == "django.db.backends.postgresql"
    )


# The user's shared count, started when the frame came (ConnectionBudget.user_count).
# A future, not a coroutine: a move that falls back to the usual path awaits
# it again and gets the same answer, without counting twice.
Admission = asyncio.Future[int | None] | None


async def loop_move_admit(admitted: Admission) -> None:
    """Refuse with ``rate_limited`` when the user's shared budget is spent."""
    if admitted is not None:
        wait = await admitted
        if wait is not None:
            raise over_budget(wait)


async def loop_move_write(
    *,
    game_id: object,
    user: Visitor | None,
    version: object,
    action: object,
    admitted: Admission,
) -> events.Change | None:
    """Decide and commit one player's action on the loop; the committed
    change, or None when ``play.game_act`` must make this move.

    ``admitted`` is awaited only after the row is locked."""
    version, action = game_act_input_check(version=version, action=action)
    game_id = parse_game_id(game_id)
    pool = await pool_for_this_loop()
    # A connection the server dropped (a restart, pg_terminate_backend) is
    # discarded by the pool; the move is tried once more on a fresh one.
    for _attempt in range(2):
        try:
            async with pool.connection() as conn:
                return await _decide_and_write(conn, game_id, user, version, action, admitted)
        except _Dropped:
            continue
        except PoolTimeout:
            log.warning("no connection for a move on the loop", exc_info=True)
            return None
    return None


class _Dropped(Exception):
    """The connection broke before anything was sent to commit."""


async def _decide_and_write(
    conn: psycopg.AsyncConnection,
    game_id: int,
    user: Any,
    version: Any,
    action: Any,
    admitted: Admission,
) -> events.Change | None:
    try:
        locked = await rows.alock_game(conn, game_id, user_id_of(user))
    except psycopg.OperationalError:
        if conn.broken or conn.closed:
            raise _Dropped from None
        return None  # the row stayed locked past LOCK_TIMEOUT: the usual path waits in a thread
    if locked is None:
        raise no_such_game()
    try:
        await loop_move_admit(admitted)
    except GameError:
        await conn.rollback()
        raise
    change = deciding.decide_act(locked, user, version, action, timezone.now())
    if not events.loop_may_write(change, events.change_effects(change)):
        await conn.rollback()
        return None
    try:
        change.event = await rows.asave_event(
            conn, change.game, change.event, events.MUTABLE_FIELDS
        )
    except (psycopg.IntegrityError, psycopg.OperationalError):
        # A version conflict, or a connection lost mid-commit: the usual path
        # decides again (a committed move then answers stale_version).
        return None
    return change
