"""The act hot path's statements, with their SQL built once, on documented APIs.

Measured (bench/ws_load.py): compiling ORM queries cost more than the
database round trips themselves, so the per-move lock and the writes use SQL
built here once per process. Everything else is documented Django and
psycopg: ``connection.cursor()`` (so ``OPTIONS`` such as
``server_side_binding`` and psycopg's ``prepare_threshold`` apply),
``Manager.raw()`` to turn the locked row into a ``Game`` (the fields' own
converters, extra columns as attributes), ``Field.get_db_prep_save`` to adapt
written values as the ORM would, and ``Model.from_db`` for the saved Event.
Transactions are the caller's ``transaction.atomic()``: Django sends BEGIN and
COMMIT. The same code runs on SQLite; ``tests/games/test_hot_path.py`` counts
its statements on both databases.

The loop's variant (``alock_games``, ``acommit``; ``aread_plans`` when a move
meets conditional lines) runs on psycopg's ``AsyncConnection`` from
``psycopg_pool`` (PostgreSQL only): there the BEGIN rides with the lock and
the COMMIT with the writes (the event's insert and the game's update, a
reply's too, and the owners' plan rows), as two simple queries on an
autocommit connection (psycopg's client-side-binding cursor, the documented
way to send several statements at once); the lock and a move's write are
prepared once per connection (``prepare_sql``) and EXECUTEd there. A move
decided from the row the loop wrote last (``written_rows``) is one script:
BEGIN, the row held, its guarded write (``guarded_statement``) and COMMIT.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, cast

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from psycopg.types.json import Jsonb

from moderation.models import Standing

from .. import plain_json
from ..models import DUE_FIELDS, DUE_SOURCES, ConditionalPlan, Event, Game, Seat
from .constraints import column


def _concrete(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.get_fields() if f.concrete]


def _q(name: str) -> str:
    """An SQL identifier, quoted as SQL has it (PostgreSQL and SQLite alike)."""
    return '"' + name.replace('"', '""') + '"'


GAME = _q(Game._meta.db_table)
EVENT = _q(Event._meta.db_table)
SEAT = _q(Seat._meta.db_table)
STANDING = _q(Standing._meta.db_table)
PLAN = _q(ConditionalPlan._meta.db_table)
GAME_FIELDS = _concrete(Game)
EVENT_FIELDS = [f for f in _concrete(Event) if not f.primary_key]

# What a game event may change (a narrower UPDATE than saving every column).
MUTABLE_FIELDS = [
    "version",
    "state",
    "status",
    "result",
    "started",
    "ended",
    "to_act",
    "clocks",
    "turn_started",
    "deadline",
    "timer",
    "phase_deadline",
    "timer_key",
    "paused",
    "draw_offers",
    "left_seats",
    "remis_pending",
    "deadlock_requests",
    "bots",
    "has_bots",
    "handovers",
    "banks",
    "away",
    "plan_seats",
    "forced_at",
    *DUE_FIELDS,  # derived by the store from the fields above
]


@cache
def _lock_sql(vendor: str) -> str:
    """The game row with the user's seat, every seat's holder and the user's
    sanctions (a suspension, a closed account), locked on PostgreSQL
    (SQLite's IMMEDIATE transactions hold the write lock from BEGIN)."""
    columns = ", ".join(f"g.{_q(column(Game, f.name))}" for f in GAME_FIELDS)
    index = _q("index")
    # Every seat's holder as "index:user_id" pairs, for publishing each seat's
    # own frame to its holder: read under the row lock that seat changes take too.
    holders = _holders_sql(vendor)
    # The mover's sanctions in the same statement: the decision refuses a
    # sanctioned move without another round trip (deciding.decide_act).
    suspended = _q(column(Standing, "suspended_until"))
    closed = _q(column(Standing, "closed"))
    lock = " FOR UPDATE OF g" if vendor == "postgresql" else ""
    return (
        f"SELECT {columns}, (SELECT s.{index} FROM {SEAT} s "
        f"WHERE s.game_id = g.id AND s.user_id = %s LIMIT 1) AS my_seat, {holders} AS holders, "
        f"st.{suspended} AS my_suspension, st.{closed} AS my_closed "
        f"FROM {GAME} g LEFT JOIN {STANDING} st ON st.user_id = %s WHERE g.id = %s{lock}"
    )


def _holders_sql(vendor: str, order: str = "") -> str:
    """Every seat's holder of game ``g`` as "index:user_id" pairs."""
    index = _q("index")
    agg = "string_agg" if vendor == "postgresql" else "group_concat"
    pair = f"CAST(s.{index} AS TEXT) || ':' || COALESCE(CAST(s.user_id AS TEXT), '')"
    return f"(SELECT {agg}({pair}, ','{order}) FROM {SEAT} s WHERE s.game_id = g.id)"


@dataclass(frozen=True)
class MoverStanding:
    """The mover's sanctions as the lock read them (no row: none)."""

    suspended_until: datetime | None = None
    closed: bool = False


@dataclass
class LockedGame:
    """A game row locked for the caller's transaction, with what the same
    statement read under that lock: the services pass it along so the checks
    and the publishing after the commit need no further query."""

    game: Game
    seat: int | None  # the caller's seat; None: no seat (or no caller)
    holders: dict[int, int | None]  # every seat's holder (None: left the site)
    standing: MoverStanding = MoverStanding()  # the caller's sanctions


def lock_game(game_id: int, user_id: int | None) -> LockedGame | None:
    """The game row, locked for the caller's transaction, with the user's seat,
    the seats' holders and the user's sanctions."""
    params = [user_id, user_id, game_id]
    game = next(iter(Game.objects.raw(_lock_sql(connection.vendor), params)), None)
    if game is None:
        return None
    # Manager.raw sets the extra columns as attributes: the value carries them instead.
    extra = vars(game)  # (the model declares none of them)
    seat, pairs = extra.pop("my_seat"), extra.pop("holders")
    standing = _standing(extra.pop("my_suspension"), extra.pop("my_closed"))
    return LockedGame(game, seat, _seat_users(pairs), standing)


def _standing(suspended: object, closed: object) -> MoverStanding:
    """Raw columns as read (SQLite: text and 0/1) -> the mover's standing."""
    if isinstance(suspended, str):
        suspended = parse_datetime(suspended)
    if isinstance(suspended, datetime) and suspended.tzinfo is None:
        suspended = suspended.replace(tzinfo=UTC)  # stored in UTC (USE_TZ)
    return MoverStanding(suspended if isinstance(suspended, datetime) else None, bool(closed))


def _seat_users(pairs: str | None) -> dict[int, int | None]:
    """``"0:12,1:"`` -> ``{0: 12, 1: None}``."""
    holders: dict[int, int | None] = {}
    for pair in (pairs or "").split(","):
        if pair:
            index, _, user = pair.partition(":")
            holders[int(index)] = int(user) if user else None
    return holders


@cache
def _insert_sql() -> str:
    columns = ", ".join(_q(column(Event, f.name)) for f in EVENT_FIELDS)
    marks = ", ".join(["%s"] * len(EVENT_FIELDS))
    return f"INSERT INTO {EVENT} ({columns}) VALUES ({marks}) RETURNING id"


@cache
def _update_sql(fields: tuple[str, ...], returning: str = "") -> str:
    sets = ", ".join(f"{_q(column(Game, f))} = %s" for f in fields)
    return f"UPDATE {GAME} SET {sets} WHERE id = %s{returning}"


@cache
def _insert_and_update_sql(fields: tuple[str, ...], returning: str = "") -> str:
    """Both writes in one statement (one round trip): PostgreSQL's data-modifying CTE."""
    returned = f" RETURNING (SELECT id FROM e){returning}"
    return f"WITH e AS ({_insert_sql()}) " + _update_sql(fields, returned)


def save_event(game: Game, event: Event, fields: list[str]) -> Event:
    """Insert ``event`` (its ``created`` already set) and write ``fields`` of the
    locked ``game``, in the caller's transaction; returns the saved Event (a
    new instance, as the ORM loads one). The unique (game, version)
    constraint still guards against a double write."""
    event_params, game_params = _write_params(game, event, fields, connection)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                _insert_and_update_sql(tuple(fields)), [*event_params, *game_params, game.pk]
            )
            (pk,) = cursor.fetchone()
        else:
            cursor.execute(_insert_sql(), event_params)
            (pk,) = cursor.fetchone()
            cursor.execute(_update_sql(tuple(fields)), [*game_params, game.pk])
    return _saved(game, event, pk)


BULK_ROWS = 500  # events per INSERT (SQLite allows 32,766 parameters)


def save_events_many(events: list[Event]) -> None:
    """Insert new games' first events (their games saved already) as
    ``save_event`` writes one: ``created`` as set, not the insert's time
    (which ``bulk_create`` would give an auto_now_add field)."""
    columns = ", ".join(_q(column(Event, f.name)) for f in EVENT_FIELDS)
    row = "(" + ", ".join(["%s"] * len(EVENT_FIELDS)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(events), BULK_ROWS):
            batch = events[start : start + BULK_ROWS]
            for event in batch:
                event.game_id = event.game.pk
            params = [
                f.get_db_prep_save(getattr(event, f.attname), connection)
                for event in batch
                for f in EVENT_FIELDS
            ]
            values = ", ".join([row] * len(batch))
            cursor.execute(f"INSERT INTO {EVENT} ({columns}) VALUES {values}", params)


def _saved(game: Game, event: Event, pk: int) -> Event:
    """``event`` as a saved instance with primary key ``pk`` (``Model.from_db``,
    the documented way the ORM builds loaded instances), its game attached."""
    saved = Event.from_db(
        DEFAULT_DB_ALIAS,
        ["id", *(f.attname for f in EVENT_FIELDS)],
        [pk, *(getattr(event, f.attname) for f in EVENT_FIELDS)],
    )
    saved.game = game
    return saved


def _write_params(
    game: Game, event: Event, fields: list[str], wrapper: Any
) -> tuple[list[Any], list[Any]]:
    """The values of the event row and of the game's ``fields``, adapted as the
    ORM would (``Field.get_db_prep_save``)."""
    if DUE_SOURCES.intersection(fields):
        game.mark_due()  # the due columns follow what they derive from (in ``fields`` too)
    event_params = [_prep(f, getattr(event, f.attname), wrapper) for f in EVENT_FIELDS]
    game_params = [
        _prep(cast(models.Field, Game._meta.get_field(f)), getattr(game, f), wrapper)
        for f in fields
    ]
    return event_params, game_params


def _prep(field: models.Field, value: Any, wrapper: Any) -> Any:
    """``field.get_db_prep_save(value, wrapper)``; on PostgreSQL a JSON
    document (a dict or a list, no custom encoder) is encoded by ujson
    (psycopg's ``Jsonb`` takes a ``dumps``) where Django passes the stdlib's:
    measured 0.085 ms against 0.110 ms to build and quote a Halma move's write."""
    if (
        isinstance(value, dict | list)
        and isinstance(field, models.JSONField)
        and field.encoder is None
        and wrapper.vendor == "postgresql"
    ):
        return Jsonb(value, dumps=plain_json.dumps)
    return field.get_db_prep_save(value, wrapper)


# -- the same two statements on the event loop's connections (services/moves_on_loop.py)

# Each connection of the loop's pool prepares the lock and a move's write once
# (SQL PREPARE; ``loop_pool.LoopPool``) and the scripts EXECUTE them: PostgreSQL
# no longer parses and plans them on every move (planning the lock alone took
# 0.14 ms), on the cores the loop shares with it. Measured (bench/bars.py,
# alternated): 3.6-3.8 ms of server CPU a move against 4.0-4.3, saturation
# 268-276 moves/s against 233-247.
PREPARED_LOCK = "bsp_lock_game"
PREPARED_WRITE = "bsp_write_event"
# A move decided from the row this loop wrote last (``WrittenRows``): the row
# held, then the write made only if nothing changed since (``guarded_statement``).
PREPARED_HOLD = "bsp_hold_game"
PREPARED_GUARDED = "bsp_write_guarded"
# A session whose statements are gone (DEALLOCATE; a pooler in transaction mode)
# or were planned for a column a migration has since changed ("cached plan must
# not change result type"): the caller closes it, and the pool's next
# connection prepares them anew.
PREPARED_STALE = (psycopg.errors.InvalidSqlStatementName, psycopg.errors.FeatureNotSupported)


def prepare_sql() -> str:
    """The script that prepares the loop's statements on a fresh session."""
    # Each write returns the row's new xmin, which a next move decided from
    # memory checks (``_guarded_sql``).
    write = _insert_and_update_sql(tuple(MUTABLE_FIELDS), ", xmin::text")
    prepared = {
        PREPARED_LOCK: _lock_sql("postgresql"),
        PREPARED_WRITE: write,
        PREPARED_HOLD: f"SELECT 1 FROM {GAME} WHERE id = %s FOR UPDATE",
        PREPARED_GUARDED: _guarded_sql(),
    }
    return "; ".join(f"PREPARE {name} AS {_numbered(sql)}" for name, sql in prepared.items())


@cache
def _guarded_sql() -> str:
    """``save_event``'s two writes, made only where the game row is the very
    version this loop wrote (its ``xmin``: any update since changes it), its
    seats have the holders it read, and the mover has no sanction now: what
    the lock would have read for the decision. Returns the event's id and the
    row's new xmin, or two NULLs when the row has moved on (nothing written).
    Its caller holds the row first (``PREPARED_HOLD``, a statement before it),
    so this statement's snapshot sees every seat change the hold waited for."""
    suspended = _q(column(Standing, "suspended_until"))
    closed = _q(column(Standing, "closed"))
    sets = ", ".join(f"{_q(column(Game, f))} = %s" for f in MUTABLE_FIELDS)
    holders = _holders_sql("postgresql", f" ORDER BY s.{_q('index')}")
    sanctioned = (
        f"SELECT 1 FROM {STANDING} st WHERE st.user_id = %s "
        f"AND (st.{closed} OR st.{suspended} > %s)"
    )
    update = (
        f"UPDATE {GAME} g SET {sets} WHERE g.id = %s AND g.xmin::text = %s "
        f"AND {holders} IS NOT DISTINCT FROM %s AND NOT EXISTS ({sanctioned}) "
        "RETURNING g.xmin::text AS seen"
    )
    columns = ", ".join(_q(column(Event, f.name)) for f in EVENT_FIELDS)
    # Typed: a SELECT list gives PostgreSQL no column to infer a parameter's type from.
    wrapper = _adapting_connection()
    values = ", ".join(f"CAST(%s AS {f.db_type(wrapper)})" for f in EVENT_FIELDS)
    insert = f"INSERT INTO {EVENT} ({columns}) SELECT {values} FROM u RETURNING id"
    return f"WITH u AS ({update}), e AS ({insert}) SELECT (SELECT id FROM e), (SELECT seen FROM u)"


def _numbered(sql: str) -> str:
    """``%s`` placeholders as PREPARE's ``$1``, ``$2``, ..."""
    head, *rest = sql.split("%s")
    return head + "".join(f"${n}{part}" for n, part in enumerate(rest, 1))


@cache
def _adapting_connection() -> Any:
    """Django's connection object for ``Field.get_db_prep_save`` on the loop:
    it only adapts values there and never connects. Kept once per process:
    ``connections[...]`` in each move's new task built a new one (measured
    0.14 ms a move)."""
    return connections[DEFAULT_DB_ALIAS]


def _bound(cursor: psycopg.AsyncClientCursor, statements: list[tuple[str, list[Any]]]) -> str:
    """One script of ``statements``, each bound to its values by itself
    (``mogrify``, as ``execute`` binds): psycopg keeps how it split a query
    only up to 4 kB and 50 values, so a batch's statements joined before
    binding were split anew on every batch. Measured (four Halma moves'
    locks and writes): 128 us a move against 225 us."""
    return "; ".join([cursor.mogrify(sql, params) for sql, params in statements])


async def alock_games(
    conn: psycopg.AsyncConnection, wanted: list[tuple[int, int | None]]
) -> list[LockedGame | None]:
    """``lock_game`` on an autocommit ``conn`` for several (game, user) pairs,
    in one transaction and one round trip: BEGIN and one lock statement each,
    in the order given (callers sort by game, so two such transactions never
    wait on each other in a circle).

    The pool's connections keep psycopg's own loaders (JSON parsed, aware
    datetimes), so the rows' values are the fields' Python values, and have
    the lock prepared (``prepare_sql``)."""
    lock = f"EXECUTE {PREPARED_LOCK}(%s, %s, %s)"
    found: list[LockedGame | None] = []
    async with psycopg.AsyncClientCursor(conn) as cursor:
        locks = [(lock, [user_id, user_id, game_id]) for game_id, user_id in wanted]
        await cursor.execute("BEGIN; " + _bound(cursor, locks))
        cursor.nextset()  # past BEGIN's empty result
        for _ in wanted:
            row = await cursor.fetchone()
            found.append(None if row is None else _locked(row))
            cursor.nextset()
    return found


def _locked(row: tuple) -> LockedGame:
    game = Game.from_db(DEFAULT_DB_ALIAS, [f.attname for f in GAME_FIELDS], row[:-4])
    seat, pairs, suspended, closed = row[-4:]
    return LockedGame(game, seat, _seat_users(pairs), _standing(suspended, closed))


@dataclass(frozen=True)
class Statement:
    """One write of the loop's transaction, its values adapted when it was made."""

    sql: str
    params: list[Any]
    returns_id: bool = False  # an event's insert: its id comes back


def event_statement(game: Game, event: Event) -> Statement:
    """``save_event``'s insert and update of ``MUTABLE_FIELDS`` as the one
    statement every loop connection has prepared (PostgreSQL's data-modifying
    CTE), with the values of ``game`` as it is now (a conditional reply moves
    it on after)."""
    event_params, game_params = _write_params(game, event, MUTABLE_FIELDS, _adapting_connection())
    params = [*event_params, *game_params, game.pk]
    marks = ", ".join(["%s"] * len(params))
    return Statement(f"EXECUTE {PREPARED_WRITE}({marks})", params, returns_id=True)


def holders_text(holders: dict[int, int | None]) -> str | None:
    """The holders as ``_holders_sql`` orders them (no seats: NULL)."""
    pairs = [f"{index}:{'' if user is None else user}" for index, user in sorted(holders.items())]
    return ",".join(pairs) or None


def guarded_statement(
    game: Game,
    event: Event,
    *,
    xmin: str,
    holders: dict[int, int | None],
    user_id: int,
    now: datetime,
) -> Statement:
    """``event_statement`` for a move decided from memory: written only if the
    row is still at ``xmin``, the seats held by ``holders`` and the mover
    ``user_id`` unsanctioned at ``now`` (``_guarded_sql``)."""
    event_params, game_params = _write_params(game, event, MUTABLE_FIELDS, _adapting_connection())
    guards = [game.pk, xmin, holders_text(holders), user_id, now]
    params = [*game_params, *guards, *event_params]
    marks = ", ".join(["%s"] * len(params))
    return Statement(f"EXECUTE {PREPARED_GUARDED}({marks})", params, returns_id=True)


def plan_statement(game_id: int, seat: int, lines: list[Any] | None) -> Statement:
    """A seat's conditional lines left after a move (``replies.PlanWrite``),
    or its row gone (None), as ``replies.decide`` writes them."""
    where = (
        f"{_q(column(ConditionalPlan, 'game'))} = %s AND {_q(column(ConditionalPlan, 'seat'))} = %s"
    )
    if lines is None:
        return Statement(f"DELETE FROM {PLAN} WHERE {where}", [game_id, seat])
    wrapper = _adapting_connection()
    values = [
        _prep(cast(models.Field, ConditionalPlan._meta.get_field(name)), value, wrapper)
        for name, value in (("lines", lines), ("updated", timezone.now()))
    ]
    sets = ", ".join(f"{_q(column(ConditionalPlan, f))} = %s" for f in ("lines", "updated"))
    sql = f"UPDATE {PLAN} SET {sets} WHERE {where}"
    return Statement(sql, [*values, game_id, seat])


# An event's write: the event's id and the game row's new xmin (both None: a
# guarded write that found the row moved on, and wrote nothing).
Written = tuple[int | None, str | None]


async def acommit(
    conn: psycopg.AsyncConnection, statements: list[Statement], *, begin: list[int] | None = None
) -> list[Written]:
    """Every write of the transaction ``alock_games`` began, and the COMMIT, in
    one round trip; each event's id and row version, in order. With ``begin``
    (game ids, in order) the transaction begins here instead, holding those
    rows first: the one round trip of moves decided from memory."""
    written: list[Written] = []
    async with psycopg.AsyncClientCursor(conn) as cursor:
        writes = [(statement.sql, statement.params) for statement in statements]
        holds = [(f"EXECUTE {PREPARED_HOLD}(%s)", [game_id]) for game_id in begin or []]
        start = "BEGIN; " if begin else ""
        await cursor.execute(start + _bound(cursor, [*holds, *writes]) + "; COMMIT")
        for _ in ([None] if begin else []) + holds:
            cursor.nextset()  # past BEGIN's empty result and each hold's row
        for statement in statements:
            if statement.returns_id:
                written.append(cast(Written, await cursor.fetchone()))
            cursor.nextset()
    return written


@cache
def _plans_sql(count: int) -> str:
    """The lines of ``count`` seats of a game with each seat's holder's
    sanctions (as ``replies._plan_of`` reads them), on the unique (game, seat) index."""
    index = _q("index")
    suspended = _q(column(Standing, "suspended_until"))
    closed = _q(column(Standing, "closed"))
    game, seat, lines = (_q(column(ConditionalPlan, f)) for f in ("game", "seat", "lines"))
    seats = ", ".join(["%s"] * count)
    return (
        f"SELECT p.{seat}, p.{lines}, st.{suspended}, st.{closed} FROM {PLAN} p "
        f"LEFT JOIN {SEAT} s ON s.game_id = p.{game} AND s.{index} = p.{seat} "
        f"LEFT JOIN {STANDING} st ON st.user_id = s.user_id "
        f"WHERE p.{game} = %s AND p.{seat} IN ({seats})"
    )


async def aread_plans(
    conn: psycopg.AsyncConnection, game_id: int, seats: list[int]
) -> dict[int, tuple[list[Any] | None, MoverStanding]]:
    """The seats' conditional lines (None: no row) and their holders'
    sanctions, in the transaction ``alock_games`` began (``replies.Plans``)."""
    found: dict[int, tuple[list[Any] | None, MoverStanding]] = {}
    async with conn.cursor() as cursor:
        await cursor.execute(_plans_sql(len(seats)), [game_id, *seats])
        for seat, lines, suspended, closed in await cursor.fetchall():
            found[seat] = (lines, _standing(suspended, closed))
    return {seat: found.get(seat, (None, MoverStanding())) for seat in seats}


def saved_event(game: Game, event: Event, pk: int) -> Event:
    """The event as saved with id ``pk`` (the loop's writes)."""
    return _saved(game, event, pk)
