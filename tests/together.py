"""Run calls at the same instant, each in a thread of its own (race tests)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def at_once(calls: list[Callable[[], Any]], timeout: float = 60) -> list[Any]:
    """Each call's result, or the exception it raised (anything but the
    expected refusal, e.g. "database is locked", is then a visible failure)."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return results
