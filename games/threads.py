"""Sync ORM work handed to a thread, with its connection handed back after.

asgiref (3.13) runs a ``sync_to_async`` function inside ``context.run`` on
the worker thread and copies its context variables back to the caller, and
Django keeps each connection in such a context-local. channels'
``database_sync_to_async`` closes connections *outside* that context, so it
never sees the one the function used: the caller's context kept it, one per
socket for the socket's life, until the pool ran dry. Closing inside the
function's own run hands it back (to the pool on PostgreSQL, where
``CONN_MAX_AGE`` is 0; a persistent SQLite connection is kept).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")


def closing_connections(func: Callable[P, R]) -> Callable[P, R]:
    @wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        close_old_connections()
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return run
