"""A race made certain: one transaction holds its locks while another request
runs into them (race tests that must fail on the unguarded code every time).

``while_held(hold, contender)`` runs ``hold`` in a transaction of this thread
and keeps it open until ``contender``, started in a thread of its own, either
finished or waits on a lock (PostgreSQL: ``pg_stat_activity``); then commits and
returns the contender's result (or the exception it raised). On SQLite the
contender's IMMEDIATE transaction waits for the commit, so it simply runs after.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, connections, transaction

WAITING = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'
"""


def _blocked_or_done(done: threading.Event, timeout: float) -> None:
    """Bounded: returns once the contender waits on a lock or has finished."""
    if connection.vendor != "postgresql":
        return  # SQLite: the contender cannot begin before the commit anyway
    seen: list[bool] = []

    def poll() -> None:  # another connection: the holder's own sees a frozen snapshot
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not done.is_set():
                with connections["default"].cursor() as cursor:
                    cursor.execute(WAITING)
                    if cursor.fetchone()[0]:
                        seen.append(True)
                        return
                done.wait(0.01)
        finally:
            connections.close_all()

    watcher = threading.Thread(target=poll)
    watcher.start()
    watcher.join(timeout + 5)
    assert seen or done.is_set(), "the contender neither finished nor waited on a lock"


def while_held(hold: Callable[[], Any], contender: Callable[[], Any], timeout: float = 30) -> Any:
    done = threading.Event()
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(contender())
        except Exception as exc:
            result.append(exc)
        finally:
            connections.close_all()
            done.set()

    with transaction.atomic():
        hold()
        worker = threading.Thread(target=run)
        worker.start()
        _blocked_or_done(done, timeout)
    worker.join(timeout)
    assert done.is_set(), "the contender did not finish"
    return result[0]
