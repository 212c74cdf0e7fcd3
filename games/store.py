"""The act hot path's three statements, with their SQL built once.

Measured (bench/ws_load.py): compiling ORM queries cost more than the
database round trips themselves, so the per-move lock, insert and update use
SQL prepared here once per process. Values still go through each field's
``get_db_prep_save``, so JSON and dates are adapted exactly as the ORM would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connection

from .models import Event, Game, Seat

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
    return (
        f"SELECT {columns}, (SELECT s.{_q('index')} FROM {_q(SEAT)} s "
        f"WHERE s.game_id = g.id AND s.user_id = %s LIMIT 1) "
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


def lock_game(game_id: int, user_id: int | None) -> Game | None:
    """The game row, locked for this transaction, with the user's seat as ``my_seat``."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection.vendor), [user_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row[:-1])
    for i, converters, column in _converters(connection.vendor):
        for convert in converters:
            values[i] = convert(values[i], column, connection)
    game = Game.from_db(connection.alias, GAME_FIELDS, values)
    game.my_seat = row[-1]
    return game


@cache
def _update_sql(vendor: str, fields: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_q(Game._meta.get_field(f).column)} = %s" for f in fields)
    return f"UPDATE {_q(GAME)} SET {sets} WHERE id = %s"


def update_game(game: Game, fields: list[str]) -> None:
    params = [
        Game._meta.get_field(f).get_db_prep_save(getattr(game, f), connection) for f in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(connection.vendor, tuple(fields)), [*params, game.pk])


EVENT_FIELDS = ("game", "version", "seat", "kind", "action", "events", "created")


@cache
def _insert_sql(vendor: str) -> str:
    columns = ", ".join(_q(Event._meta.get_field(f).column) for f in EVENT_FIELDS)
    marks = ", ".join(["%s"] * len(EVENT_FIELDS))
    return f"INSERT INTO {_q(EVENT)} ({columns}) VALUES ({marks}) RETURNING id"


def insert_event(event: Event) -> Event:
    """Insert ``event`` (its ``created`` already set); the unique (game, version)
    constraint still guards against a double write."""
    params = [
        Event._meta.get_field(f).get_db_prep_save(
            event.game_id if f == "game" else getattr(event, f), connection
        )
        for f in EVENT_FIELDS
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(connection.vendor), params)
        event.pk = cursor.fetchone()[0]
    event._state.adding = False
    return event
