"""Which constraint an IntegrityError broke: only the event log's (game,
version) one means "someone else moved first"; any other is a bug or a race
of its own, and must not be passed off as a stale version."""

from __future__ import annotations

from typing import Any

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
    columns = ", ".join(f"{meta.db_table}.{meta.get_field(f).column}" for f in constraint.fields)
    return str(exc) == f"UNIQUE constraint failed: {columns}"
