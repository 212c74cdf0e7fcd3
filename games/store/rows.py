"""The act hot path's statements, with their SQL built once.

Measured (bench/ws_load.py): compiling ORM queries cost more than the
database round trips themselves, so the per-move lock and the writes use SQL
built here once per process: on PostgreSQL two round trips per move (lock;
insert the event and update the game in one statement). Values still go
through each field's ``get_db_prep_save``, so JSON and dates are adapted
exactly as the ORM would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import psycopg
from django.db import connection

from ..models import Event, Game, Seat

GAME = Game._meta.db_table
EVENT = Event._meta.db_table
SEAT = Seat._meta.db_table


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


GAME_FIELDS = tuple(f.attname for f in Game._meta.concrete_fields)


@cache
def _lock_sql(vendor: str) -> str:
    lock = ""
    if connection.features.has_select_for_update:
        lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else " FOR UPDATE"
    columns = ", ".join(f"g.{_q(Game._meta.get_field(a).column)}" for a in _field_names())
    index = _q("index")
    # Every seat's holder as "index:user_id" pairs, for publishing each seat's
    # own frame to its holder: read under the row lock that seat changes take too.
    agg = "string_agg" if vendor == "postgresql" else "group_concat"
    holders = (
        f"(SELECT {agg}(CAST(s.{index} AS TEXT) || ':' || COALESCE(CAST(s.user_id AS TEXT), ''), ',')"
        f" FROM {_q(SEAT)} s WHERE s.game_id = g.id)"
    )
    return (
        f"SELECT {columns}, (SELECT s.{index} FROM {_q(SEAT)} s "
        f"WHERE s.game_id = g.id AND s.user_id = %s LIMIT 1), {holders} "
        f"FROM {_q(GAME)} g WHERE g.id = %s{lock}"
    )


@cache
def _field_names() -> tuple[str, ...]:
    return tuple(f.name for f in Game._meta.concrete_fields)


@cache
def _converters(vendor: str) -> list[tuple[int, list, Any]]:
    """Per column, the backend's and the field's converters (JSON, dates...)."""
    out = []
    for i, name in enumerate(_field_names()):
        column = Game._meta.get_field(name).get_col(Game._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.field.get_db_converters(
            connection
        )
        if found:
            out.append((i, found, column))
    return out


def _fetchone(sql: str, params: list[Any]) -> tuple | None:
    """One statement of the hot path; on PostgreSQL prepared once per connection
    (where the BEGIN or COMMIT cannot ride along, see below).

    Measured: psycopg's client-side binding (Django's default) spent more CPU
    quoting the parameters into the SQL text than the round trip itself. A
    plain psycopg cursor binds them on the server, and ``prepare=True`` spares
    the server parsing and planning the same statements on every move.
    (Pipeline mode, to send the implicit BEGIN along, cost more than it saved.)
    """
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(sql, params, prepare=True)
            return cursor.fetchone()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _outermost_atomic() -> bool:
    return len(connection.atomic_blocks) == 1 and not connection.needs_rollback


def _fetchone_beginning(sql: str, params: list[Any]) -> tuple | None:
    """On PostgreSQL, ``sql`` as the first statement of the caller's outermost
    transaction, with the BEGIN in the same round trip.

    psycopg sends the BEGIN of a transaction as a round trip of its own; on
    this site's machines each round trip's system calls cost more than the
    statement. Switched to autocommit, psycopg leaves the BEGIN to us, and the
    transaction is the database's explicit block: Django's commit or rollback
    at the end of the atomic block ends it as usual, and its own switch back
    to autocommit finds nothing to change.
    """
    if connection.vendor == "postgresql" and _outermost_atomic():
        connection.ensure_connection()
        raw = connection.connection
        if raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            raw.autocommit = True
            return _fetchone_in_one_trip("BEGIN; " + sql, params)
    return _fetchone(sql, params)


def _fetchone_in_one_trip(script: str, params: list[Any]) -> tuple | None:
    """Several statements in one round trip (a simple query, so the parameters
    are bound client-side); the row of the one that returns rows."""
    with connection.wrap_database_errors, psycopg.ClientCursor(connection.connection) as cursor:
        cursor.execute(script, params)
        while cursor.description is None and cursor.nextset():
            pass  # past BEGIN's or COMMIT's empty result
        return cursor.fetchone()


def lock_game(game_id: int, user_id: int | None) -> Game | None:
    """The game row, locked for this transaction, with the user's seat as ``my_seat``."""
    row = _fetchone_beginning(_lock_sql(connection.vendor), [user_id, game_id])
    return None if row is None else _game_from_row(row, connection)


def _game_from_row(row: tuple, wrapper: Any) -> Game:
    values = list(row[:-2])
    for i, converters, column in _converters(wrapper.vendor):
        for convert in converters:
            values[i] = convert(values[i], column, wrapper)
    game = Game.from_db(wrapper.alias, GAME_FIELDS, values)
    game.my_seat = row[-2]
    game.seat_users = _seat_users(row[-1])
    return game


def _seat_users(pairs: str | None) -> dict[int, int | None]:
    """``"0:12,1:"`` -> ``{0: 12, 1: None}``."""
    holders: dict[int, int | None] = {}
    for pair in (pairs or "").split(","):
        if pair:
            index, _, user = pair.partition(":")
            holders[int(index)] = int(user) if user else None
    return holders


EVENT_FIELDS = ("game", "version", "seat", "kind", "action", "events", "created")


@cache
def _insert_sql(vendor: str) -> str:
    columns = ", ".join(_q(Event._meta.get_field(f).column) for f in EVENT_FIELDS)
    marks = ", ".join(["%s"] * len(EVENT_FIELDS))
    return f"INSERT INTO {_q(EVENT)} ({columns}) VALUES ({marks}) RETURNING id"


@cache
def _update_sql(vendor: str, fields: tuple[str, ...], returning: str = "") -> str:
    sets = ", ".join(f"{_q(Game._meta.get_field(f).column)} = %s" for f in fields)
    return f"UPDATE {_q(GAME)} SET {sets} WHERE id = %s{returning}"


@cache
def _insert_and_update_sql(vendor: str, fields: tuple[str, ...]) -> str:
    """Both writes in one statement (one round trip): PostgreSQL's data-modifying CTE."""
    insert = _insert_sql(vendor)
    return f"WITH e AS ({insert}) " + _update_sql(vendor, fields, " RETURNING (SELECT id FROM e)")


def save_event(game: Game, event: Event, fields: list[str], *, last: bool = False) -> Event:
    """Insert ``event`` (its ``created`` already set) and write ``fields`` of the
    locked ``game``. The unique (game, version) constraint still guards
    against a double write.

    ``last``: nothing else follows in the caller's transaction. On PostgreSQL,
    when that transaction is the outermost, its COMMIT then travels in the
    same round trip (Django's commit at the end of the block finds nothing
    left to commit; its on_commit hooks run as usual).
    """
    vendor = connection.vendor
    if vendor == "postgresql" and last and _outermost_atomic():
        return _saved(
            event, _fetchone_in_one_trip(*_committing_write(game, event, fields, connection))
        )
    event_params, game_params = _write_params(game, event, fields, connection)
    if vendor == "postgresql":
        sql = _insert_and_update_sql(vendor, tuple(fields))
        row = _fetchone(sql, [*event_params, *game_params, game.pk])
    else:
        row = _fetchone(_insert_sql(vendor), event_params)
        with connection.cursor() as cursor:
            cursor.execute(_update_sql(vendor, tuple(fields)), [*game_params, game.pk])
    return _saved(event, row)


def _saved(event: Event, row: tuple) -> Event:
    event.pk = row[0]
    event._state.adding = False
    return event


def _committing_write(
    game: Game, event: Event, fields: list[str], wrapper: Any
) -> tuple[str, list[Any]]:
    """Both writes and the COMMIT as one simple query, with its parameters."""
    event_params, game_params = _write_params(game, event, fields, wrapper)
    sql = _insert_and_update_sql(wrapper.vendor, tuple(fields)) + "; COMMIT"
    return sql, [*event_params, *game_params, game.pk]


def _write_params(
    game: Game, event: Event, fields: list[str], wrapper: Any
) -> tuple[list[Any], list[Any]]:
    """The values of the event row and of the game's ``fields``, adapted as the ORM would."""
    event_params = [
        Event._meta.get_field(f).get_db_prep_save(
            event.game_id if f == "game" else getattr(event, f), wrapper
        )
        for f in EVENT_FIELDS
    ]
    game_params = [
        Game._meta.get_field(f).get_db_prep_save(getattr(game, f), wrapper) for f in fields
    ]
    return event_params, game_params


# -- the same two statements for a connection on the event loop (games/loop_moves.py)


async def _afetchone(conn: psycopg.AsyncConnection, script: str, params: list[Any]) -> tuple | None:
    """As ``_fetchone_in_one_trip``, on an autocommit async connection."""
    async with psycopg.AsyncClientCursor(conn) as cursor:
        await cursor.execute(script, params)
        while cursor.description is None and cursor.nextset():
            pass
        return await cursor.fetchone()


async def alock_game(
    conn: psycopg.AsyncConnection, wrapper: Any, game_id: int, user_id: int | None
) -> Game | None:
    """``lock_game`` on ``conn``: BEGIN and the lock in one round trip."""
    row = await _afetchone(conn, "BEGIN; " + _lock_sql(wrapper.vendor), [user_id, game_id])
    return None if row is None else _game_from_row(row, wrapper)


async def asave_event(
    conn: psycopg.AsyncConnection, wrapper: Any, game: Game, event: Event, fields: list[str]
) -> Event:
    """``save_event`` with ``last``: both writes and the COMMIT in one round trip."""
    return _saved(event, await _afetchone(conn, *_committing_write(game, event, fields, wrapper)))
