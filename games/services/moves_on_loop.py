"""A player's move on PostgreSQL without leaving the event loop.

The usual path (``services.play.game_act`` through the thread pool) hands every
move to a worker thread and back. Measured at saturation (bench/ws_load.py):
that hand-off and the fight for the GIL between the loop and the workers
(dozens of futex calls per move) cost more server CPU than the move's
database work. Here the same decision (``services.play.decide_act``) runs on the
loop, between two statements on an async connection: the lock, carrying
the BEGIN, and the event insert with the game update, carrying the COMMIT.

A move that ends the game needs more than those two statements (results,
notifications, the lobby): it is rolled back untouched and made again by
``services.play.game_act``, which does everything; so is a move that meets a
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
from typing import TYPE_CHECKING, Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone
from psycopg_pool import PoolTimeout

from .. import publish
from ..errors import GameError, no_such_game, over_budget
from ..models import Game
from ..store import presence, rows
from ..store.loop_pool import pool_for_this_loop
from . import notifications, play
from .events import MUTABLE_FIELDS, changes_lobby
from .guards import check_act_input, parse_game_id, user_id_of

if TYPE_CHECKING:
    from ..users import Visitor

log = logging.getLogger(__name__)


def enabled() -> bool:
    return (
        settings.MOVES_ON_LOOP
        and settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] == "django.db.backends.postgresql"
    )


# The user's shared count, started when the frame came (ConnectionBudget.user_count).
# A future, not a coroutine: a move that falls back to the usual path awaits
# it again and gets the same answer, without counting twice.
Admission = asyncio.Future[int | None] | None


async def act(
    *,
    game_id: object,
    user: Visitor | None,
    version: object,
    action: object,
    admitted: Admission = None,
) -> int:
    """Apply one player's action; returns the new version (as ``play.game_act``).

    ``admitted`` is the user's shared budget being counted (None: no count);
    the move waits for it only after locking its row, and is refused with
    ``rate_limited`` when over.

    Run to the end even when the socket's handler is cancelled mid-move: a
    committed move is never cut off from its broadcast and notifications.
    """
    return await publish.to_the_end(
        _act(game_id=game_id, user=user, version=version, action=action, admitted=admitted)
    )


async def _act(*, game_id: Any, user: Any, version: Any, action: Any, admitted: Admission) -> int:
    if enabled():
        done = await _act_on_loop(
            game_id=game_id, user=user, version=version, action=action, admitted=admitted
        )
        if done is not None:
            return done
    await _admit(admitted)
    return await publish.in_thread_then_publish(play.game_act)(
        game_id=game_id, user=user, version=version, action=action
    )


async def _admit(admitted: Admission) -> None:
    if admitted is not None:
        wait = await admitted
        if wait is not None:
            raise over_budget(wait)


async def _act_on_loop(
    *, game_id: Any, user: Any, version: Any, action: Any, admitted: Admission
) -> int | None:
    """The new version, or None when ``play.game_act`` must make this move."""
    check_act_input(version, action)
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
) -> int | None:
    try:
        game = await rows.alock_game(conn, game_id, user_id_of(user))
    except psycopg.OperationalError:
        if conn.broken or conn.closed:
            raise _Dropped from None
        return None  # the row stayed locked past LOCK_TIMEOUT: the usual path waits in a thread
    if game is None:
        raise no_such_game()
    try:
        await _admit(admitted)
    except GameError:
        await conn.rollback()
        raise
    before_to_act = list(game.to_act)
    rs, state, event = play.decide_act(game, user, version, action, timezone.now())
    if changes_lobby(Game.Status.ACTIVE, game, event):
        await conn.rollback()
        return None
    try:
        event = await rows.asave_event(conn, game, event, MUTABLE_FIELDS)
    except (psycopg.IntegrityError, psycopg.OperationalError):
        # A version conflict, or a connection lost mid-commit: the usual path
        # decides again (a committed move then answers stale_version).
        return None
    await publish.publish_from_loop(publish.publish_game_event, game, rs, state, event)
    if not notifications.quiet(game, before_to_act, event):
        if notifications.turn_notice_only(game, before_to_act, event):
            # A realtime turn, told only to a player whose page is closed: most
            # often it is open in this process, which costs no thread and no
            # round trip to find out; else not worth the move's answer waiting.
            takers = notifications.turn_takers(game, before_to_act)
            if set(takers) - presence.watching_here(game.pk, takers):
                _in_background(_notify(game, before_to_act, event))
        else:
            await _notify(game, before_to_act, event)
    return event.version


_background: set[asyncio.Task] = set()


def _in_background(work: Any) -> None:
    task = asyncio.ensure_future(work)
    _background.add(task)  # the loop keeps only a weak reference
    task.add_done_callback(_background.discard)


async def _notify(game: Any, before_to_act: list[int], event: Any) -> None:
    """Tell players whose correspondence turn began, after the commit: best
    effort, like the push itself (the move is stored either way)."""
    try:
        await publish.in_thread_then_publish(notifications.after_game_event)(
            game, before_to_act, event
        )
    except Exception:
        log.warning("notifying game %s version %s failed", game.pk, event.version, exc_info=True)
