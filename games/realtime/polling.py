"""The background loops' one shape: a call every few seconds until told to stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


async def poll_forever(
    call: Callable[[], Awaitable[object]], interval: float, failed: str, stop: asyncio.Event
) -> None:
    """Await ``call()`` every ``interval`` seconds until ``stop`` is set; a
    failure is logged as ``failed`` and the next round comes all the same.
    Set ``stop`` and await the task: it ends after its current round, so no
    query of it is left running (a test's teardown empties the tables)."""
    while not stop.is_set():
        try:
            await call()
        except Exception:
            log.exception(failed)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)
