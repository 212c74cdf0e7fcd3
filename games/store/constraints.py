"""Which constraint an IntegrityError broke: only the event log's (game,
version) one means "someone else moved first"; any other is a bug or a race
of its own, and must not be passed off as a stale version."""

from __future__ import annotations

from typing import Any, cast

from django.db import IntegrityError, models


def broke(exc: IntegrityError, model: type[models.Model], name: str) -> bool:
    """Whether ``exc`` is the unique constraint ``name`` of ``model``.

    PostgreSQL names it (psycopg's ``diag.constraint_name`` on the error
    Django wrapped); SQLite names the columns instead.
    """
    cause: Any = exc.__cause__ or exc
    diag = getattr(cause, "diag", None)
    if diag is not None and diag.constraint_name:
        return bool(diag.constraint_name == name)
    meta = model._meta
    [constraint] = [c for c in meta.constraints if c.name == name]
    fields = cast(models.UniqueConstraint, constraint).fields  # named by the caller: a unique one
    columns = ", ".join(f"{meta.db_table}.{column(model, f)}" for f in fields)
    return str(exc) == f"UNIQUE constraint failed: {columns}"


def column(model: type[models.Model], name: str) -> str:
    """The database column of ``model``'s concrete field ``name``."""
    found = cast(models.Field, model._meta.get_field(name)).column
    if found is None:  # a relation without a column of its own
        raise LookupError(f"{model.__name__}.{name} has no column")
    return found
