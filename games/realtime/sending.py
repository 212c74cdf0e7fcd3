"""How what the services publish reaches the sockets from the event loop.

The services build group messages and register them for after the commit
(``games.publish``). Sync work a socket (or a worker on the loop) starts runs
in the thread pool here, with a collector installed as the publishing sender;
once the thread returns, the collected messages are sent from the event loop
itself. Measured: handing each send back from the worker thread
(``async_to_sync``) cost more CPU per move than the send.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from asgiref.sync import sync_to_async

from .. import publish
from ..threads import closing_connections

log = logging.getLogger(__name__)

# A publish stuck on a Redis that is gone or restarting must not hold back the
# sender's ack (and every later publish of this process): the move is stored,
# clients catch up through their version ping.
PUBLISH_TIMEOUT = 3.0

Pending = list[tuple[str, dict[str, Any]]]


def in_thread_then_publish(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run sync ORM work in the thread pool, then send what it published from
    the event loop. Acts on different games run in parallel threads (each
    locks only its own row)."""

    async def run_and_publish(*args: Any, **kwargs: Any) -> Any:
        pending: Pending = []
        try:
            return await sync_to_async(
                partial(_collecting, pending, closing_connections(func)), thread_sensitive=False
            )(*args, **kwargs)
        finally:
            await _flush(pending)

    async def runner(*args: Any, **kwargs: Any) -> Any:
        return await to_the_end(run_and_publish(*args, **kwargs))

    return runner


async def to_the_end(work: Coroutine[Any, Any, Any]) -> Any:
    """Await ``work`` in a task of its own that a cancelled caller (Daphne
    cancels the handler of a socket gone for good) does not cut short: what
    the database committed is still published."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_outcome_nobody_awaits)
        raise


def _outcome_nobody_awaits(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("work for a closed socket failed: %r", task.exception())


_background: set[asyncio.Task] = set()


def in_background(work: Coroutine[Any, Any, Any]) -> asyncio.Task:
    """Run ``work`` in a task nobody awaits (best effort work after a commit)."""
    task = asyncio.ensure_future(work)
    _background.add(task)  # the loop keeps only a weak reference
    task.add_done_callback(_background.discard)
    return task


async def publish_from_loop(func: Callable[..., Any], *args: Any) -> None:
    """Call sync publishing code that needs no query on the event loop, and
    send what it built. Best effort, as ``publish.after_commit``."""
    pending: Pending = []
    _collecting(pending, publish.best_effort, func, *args)
    await _flush(pending)


def _collecting(pending: Pending, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with publish.sending_with(lambda group, message: pending.append((group, message))):
        return func(*args, **kwargs)


async def _flush(pending: Pending) -> None:
    for group, message in pending:
        await publish.send_from_loop(group, message, PUBLISH_TIMEOUT)
