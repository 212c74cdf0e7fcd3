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
A move that meets its opponent's conditional lines is answered here too:
the owner's rows are read in the same transaction (one statement), the
reply decided by the same ``replies.match`` and ``events.reply_change``,
and the rows' new lines, the move's event and the reply's event sent with
the COMMIT, in one round trip.
A change with a side effect that must commit with the event (a game's end:
its ratings, the remis queue, the lobby; a reply that ends the game among
them) is rolled back untouched and made
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
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass
class Committed:
    """A change the loop committed, with what follows its commit."""

    change: events.Change
    effects: list[events.SideEffect]  # wanted, as this change left the game
    publish: Callable[[events.Change], None]  # a reply's move: its frames built before


async def loop_move_write(
    *,
    game_id: object,
    user: Visitor | None,
    version: object,
    action: object,
    admitted: Admission,
) -> list[Committed] | None:
    """Decide and commit one player's action on the loop; the committed
    changes (the move, then any conditional replies), or None when
    ``play.game_act`` must make this move.

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
) -> list[Committed] | None:
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
    try:
        decided = await _with_replies(conn, change)
    except psycopg.OperationalError:
        if conn.broken or conn.closed:
            raise _Dropped from None
        decided = None
    if decided is None:
        await conn.rollback()
        return None
    statements, committed = decided
    try:
        ids = await rows.acommit(conn, statements)
    except (psycopg.IntegrityError, psycopg.OperationalError):
        # A version conflict, or a connection lost mid-commit: the usual path
        # decides again (a committed move then answers stale_version).
        return None
    for item, pk in zip(committed, ids, strict=True):
        item.change.event = rows.saved_event(item.change.game, item.change.event, pk)
    return committed


async def _with_replies(
    conn: psycopg.AsyncConnection, change: events.Change
) -> tuple[list[rows.Statement], list[Committed]] | None:
    """The writes of ``change`` and of the conditional replies that answer
    it, each decided on the same game in turn, as ``events.store_event``
    stores them (``_plan_reply``, the event, ``_store_reply``); None when one
    of them is not the loop's to write."""
    statements: list[rows.Statement] = []
    committed: list[Committed] = []
    while True:
        effects = events.change_effects(change)
        if not events.loop_may_write(change, effects):
            return None
        game = change.game
        owners = events.plan_owners(change)
        if owners:
            plans = await rows.aread_plans(conn, game.pk, owners)
            for write in events.plans_matched(change, plans):
                statements.append(rows.plan_statement(game.pk, write.seat, write.lines))
        statements.append(rows.event_statement(game, change.event, events.MUTABLE_FIELDS))
        if change.reply is None:
            committed.append(Committed(change, effects, events.change_publish))
            return statements, committed
        # The reply moves the same game on: this event's frames are built now.
        committed.append(Committed(change, effects, events.change_publish_prepared(change)))
        change = events.reply_change(change)
