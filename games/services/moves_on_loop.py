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

The moves of one process are written in batches (``_Batches``, group
commit): the moves that come while a batch is being written go together in
the next, the lock statements of all their games (in game order) carrying
the BEGIN, each move decided in turn, and all their writes carrying the
COMMIT. A refused move writes nothing; a move left to ``play.game_act`` gets
its answer after the commit, when its row is free again.

A game's next move that comes to the loop which committed its row last
is decided from that row (``store/written_rows.py``) and written with a
guard, BEGIN to COMMIT in one round trip (``_from_memory``); a row that
moved on since writes nothing, and the move goes to the lock as above.

The connections come from psycopg_pool's ``AsyncConnectionPool``, one per
event loop, ``MOVES_POOL_SIZE`` at most.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone
from psycopg_pool import PoolTimeout

from ..errors import no_such_game, over_budget
from ..store import rows
from ..store.loop_pool import pool_for_this_loop
from ..store.written_rows import WrittenRow, WrittenRows
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

    The move starts a batch at once, or waits for one in flight and goes
    with the moves that came meanwhile (``_Batches``).
    ``admitted`` is awaited only after the row is locked."""
    version, action = game_act_input_check(version=version, action=action)
    move = _Move(parse_game_id(game_id), user, version, action, admitted)
    return await _batches_of_this_loop().add(move)


@dataclass
class _Move:
    game_id: int
    user: Any
    version: Any
    action: Any
    admitted: Admission
    outcome: asyncio.Future[list[Committed] | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def settle(self, outcome: Outcome) -> None:
        if self.outcome.done():
            return
        if isinstance(outcome, Exception):
            self.outcome.set_exception(outcome)
        else:
            self.outcome.set_result(outcome)


class _Batches:
    """The moves of one event loop, written in batches (group commit).

    Measured (bench/bars.py): at load most of a move's server CPU went to its
    two database round trips, each waking PostgreSQL. While a batch is being
    written, the moves that come meanwhile wait and then go together: one
    transaction and two round trips for all of them. A move that finds no
    batch in the way starts its own at once (a batch of one, as before).
    ``IN_FLIGHT`` batches at most: a batch waiting for a row another
    process holds does not hold up every move. A game's second move waits for
    the next batch, behind the row lock of the first."""

    IN_FLIGHT = 2

    def __init__(self) -> None:
        self.waiting: list[_Move] = []
        self.writing: set[asyncio.Task] = set()
        self.starting = False
        self.written = WrittenRows()

    def add(self, move: _Move) -> asyncio.Future[list[Committed] | None]:
        self.waiting.append(move)
        self._next()
        return move.outcome

    def _next(self) -> None:
        """Start the waiting moves' batch on the loop's next turn, when a
        batch may start (so the moves of this turn join it)."""
        if self.waiting and not self.starting and len(self.writing) < self.IN_FLIGHT:
            self.starting = True
            asyncio.get_running_loop().call_soon(self._start)

    def _start(self) -> None:
        self.starting = False
        batch: dict[int, _Move] = {}
        moves, self.waiting = self.waiting, []
        for move in moves:
            if move.game_id in batch:
                self.waiting.append(move)  # the game's second move: the next batch
            else:
                batch[move.game_id] = move
        moves = sorted(batch.values(), key=_by_game)
        task = asyncio.ensure_future(_write_batch(moves, self.written))
        self.writing.add(task)  # (the loop keeps only a weak reference)
        task.add_done_callback(self._written)

    def _written(self, task: asyncio.Task) -> None:
        self.writing.discard(task)
        self._next()


def _by_game(move: _Move) -> int:
    return move.game_id


_batches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Batches] = (
    weakref.WeakKeyDictionary()
)


def _batches_of_this_loop() -> _Batches:
    loop = asyncio.get_running_loop()
    batches = _batches.get(loop)
    if batches is None:
        batches = _batches[loop] = _Batches()
    return batches


async def _write_batch(moves: list[_Move], written: WrittenRows) -> None:
    """Each move's outcome: its committed changes, None (the usual path makes
    it) or its refusal; set only after the commit, so a move left to the
    usual path finds the rows unlocked. The moves whose rows this loop wrote
    last go first, in one round trip (``_from_memory``); the others, and any
    of those whose row had moved on, under the lock."""
    pending = moves
    try:
        pending = await _from_memory(moves, written)
        outcomes = await _written(pending, written) if pending else []
    except Exception as exc:  # each move answers with it, as when it ran alone
        outcomes = [exc] * len(pending)
    except asyncio.CancelledError:  # the loop is ending
        for move in moves:
            move.outcome.cancel()
        raise
    for move, outcome in zip(pending, outcomes, strict=True):
        move.settle(outcome)


Outcome = list[Committed] | None | Exception


async def _written(moves: list[_Move], written: WrittenRows) -> list[Outcome]:
    pool = await pool_for_this_loop()
    # A connection the server dropped (a restart, pg_terminate_backend) is
    # discarded by the pool; the moves are tried once more on a fresh one.
    for _attempt in range(2):
        try:
            async with pool.connection() as conn:
                return await _decide_and_write(conn, moves, written)
        except _Dropped:
            continue
        except PoolTimeout:
            log.warning("no connection for a move on the loop", exc_info=True)
            break
    return [None] * len(moves)


class _Dropped(Exception):
    """The connection broke (or lost its prepared statements) before anything
    was sent to commit."""


async def _decide_and_write(
    conn: psycopg.AsyncConnection, moves: list[_Move], written: WrittenRows
) -> list[Outcome]:
    """Lock every move's game, decide each, and commit what the loop may write."""
    everyone_usual: list[Outcome] = [None] * len(moves)
    try:
        found = await rows.alock_games(conn, [(m.game_id, user_id_of(m.user)) for m in moves])
    except rows.PREPARED_STALE:
        await conn.close()  # the pool replaces it; the moves are tried on the next
        raise _Dropped from None
    except psycopg.OperationalError:
        if conn.broken or conn.closed:
            raise _Dropped from None
        return everyone_usual  # a row stayed locked past LOCK_TIMEOUT: the usual path waits
    outcomes: list[Outcome] = []
    writes: list[tuple[int, list[rows.Statement], list[Committed]]] = []
    for index, (move, locked) in enumerate(zip(moves, found, strict=True)):
        try:
            decided = await _decided(conn, move, locked)
        except psycopg.OperationalError:
            if conn.broken or conn.closed:
                raise _Dropped from None
            await conn.rollback()
            return everyone_usual
        except Exception as refused:  # GameError, or a bug: this move's answer
            outcomes.append(refused)
            continue
        outcomes.append(None)
        if decided is not None:
            writes.append((index, *decided))
    if not writes:
        await conn.rollback()
        return outcomes
    statements = [statement for _, written, _ in writes for statement in written]
    try:
        ids = iter(await rows.acommit(conn, statements))
    except rows.PREPARED_STALE:  # nothing committed: the usual path makes each move
        await conn.close()
        return outcomes
    except (psycopg.IntegrityError, psycopg.OperationalError):
        # A version conflict, or a connection lost mid-commit: the usual path
        # decides each again (a committed move then answers stale_version).
        return outcomes  # (no move has its changes yet: each is None or its refusal)
    for index, _, committed in writes:
        for item in committed:
            pk, xmin = next(ids)  # (an unguarded write always returns its id)
            item.change.event = rows.saved_event(item.change.game, item.change.event, cast(int, pk))
        last = committed[-1].change
        if last.holders is not None and xmin is not None:
            written.remember(last.game, last.holders, xmin)
        outcomes[index] = committed
    return outcomes


async def _decided(
    conn: psycopg.AsyncConnection, move: _Move, locked: rows.LockedGame | None
) -> tuple[list[rows.Statement], list[Committed]] | None:
    """One move of the batch decided under its row's lock: its writes and
    changes, or None for the usual path; refusals raise ``GameError``."""
    if locked is None:
        raise no_such_game()
    await loop_move_admit(move.admitted)
    change = deciding.decide_act(locked, move.user, move.version, move.action, timezone.now())
    return await _with_replies(conn, change)


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
        statements.append(rows.event_statement(game, change.event))
        if change.reply is None:
            committed.append(Committed(change, effects, events.change_publish))
            return statements, committed
        # The reply moves the same game on: this event's frames are built now.
        committed.append(Committed(change, effects, events.change_publish_prepared(change)))
        change = events.reply_change(change)


# -- moves decided from the rows this loop wrote last (store/written_rows.py)


@dataclass
class _Recalled:
    """A move decided from memory, its guarded write and what it commits."""

    move: _Move
    row: WrittenRow
    statement: rows.Statement
    committed: Committed


async def _from_memory(moves: list[_Move], written: WrittenRows) -> list[_Move]:
    """Decide and commit, in one round trip, each move whose game this loop
    wrote last at the move's version, and settle them; the moves left for the
    lock: the others, any whose row has moved on since, and any this path
    does not make (a refusal, a game's end, conditional lines: the lock
    decides them again from the stored row)."""
    rest: list[_Move] = []
    recalled: list[_Recalled] = []
    for move in moves:
        row = written.take(move.game_id, move.version)
        decided = None if row is None else await _decided_from(move, row)
        if decided is None:
            rest.append(move)
        else:
            recalled.append(decided)
    if not recalled:
        return moves
    made = await _commit_guarded(recalled)
    for item, result in zip(recalled, made, strict=True):
        pk, xmin = result
        if pk is None or xmin is None:  # the row moved on: nothing was written
            rest.append(item.move)
            continue
        change = item.committed.change
        change.event = rows.saved_event(change.game, change.event, pk)
        written.remember(change.game, item.row.holders, xmin)
        item.move.settle([item.committed])
    return sorted(rest, key=_by_game)


async def _decided_from(move: _Move, row: WrittenRow) -> _Recalled | None:
    """The move decided as under the lock, from ``row``; None for the lock
    to decide (anything but a plain move this loop may write)."""
    user_id = user_id_of(move.user)
    seats = [seat for seat, holder in row.holders.items() if holder == user_id]
    if user_id is None or len(seats) > 1:
        return None
    # No sanctions assumed: the guarded write finds any, and the lock refuses.
    locked = rows.LockedGame(row.game(), seats[0] if seats else None, row.holders)
    now = timezone.now()
    try:
        change = deciding.decide_act(locked, move.user, move.version, move.action, now)
        # The user's shared count, sent when the frame came, is awaited after
        # deciding: its round trip runs while the move is decided.
        await loop_move_admit(move.admitted)
        effects = events.change_effects(change)
        if not events.loop_may_write(change, effects) or events.plan_owners(change):
            return None
        statement = rows.guarded_statement(
            change.game, change.event, xmin=row.xmin, holders=row.holders, user_id=user_id, now=now
        )
    except Exception:  # a refusal (or a bug): this move's answer comes from the lock's path
        return None
    return _Recalled(move, row, statement, Committed(change, effects, events.change_publish))


async def _commit_guarded(recalled: list[_Recalled]) -> list[rows.Written]:
    """The guarded writes in one transaction; (None, None) for each where
    nothing was written. When the transaction fails, each move goes to the
    lock, which decides it again from the stored row (one committed before
    its connection broke is refused there as stale, as on the lock's path)."""
    try:
        pool = await pool_for_this_loop()
        async with pool.connection() as conn:
            games = [item.move.game_id for item in recalled]
            statements = [item.statement for item in recalled]
            try:
                return await rows.acommit(conn, statements, begin=games)
            except rows.PREPARED_STALE:
                await conn.close()  # the pool replaces it
                raise
            except psycopg.Error:
                if not (conn.broken or conn.closed):
                    await conn.rollback()
                raise
    except (psycopg.Error, PoolTimeout) as failed:
        log.warning("guarded writes on the loop failed: %r", failed)
        return [(None, None)] * len(recalled)
