"""The background loops' one shape: a call every few seconds until told to
stop, in one process at a time when given a lease (games/realtime/leases.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from . import leases

log = logging.getLogger(__name__)


async def poll_forever(
    call: Callable[[], Awaitable[object]],
    interval: float,
    failed: str,
    stop: asyncio.Event,
    lease: str | None = None,
) -> None:
    """Await ``call()`` every ``interval`` seconds until ``stop`` is set; a
    failure is logged as ``failed`` and the next round comes all the same.
    Set ``stop`` and await the task: it ends after its current round, so no
    query of it is left running (a test's teardown empties the tables).
    With ``lease``, a round runs only in the process holding it; the others
    ask Redis each round (no query) and take over when the holder is gone
    for ``lease_seconds(interval)``."""
    try:
        while not stop.is_set():
            try:
                if lease is None or await leases.hold(lease, lease_seconds(interval)):
                    await call()
            except Exception:
                log.exception(failed)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)
    finally:
        if lease is not None:
            await asyncio.shield(leases.release(lease))


def lease_seconds(interval: float) -> float:
    """How long a silent holder keeps a loop's lease: a few rounds, so a
    slow round does not hand it over, and a dead process's sweep resumes
    elsewhere within seconds."""
    return max(5.0, 4 * interval)
