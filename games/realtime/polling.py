"""The background loops' one shape: a round when work is due, in one process
at a time when given a lease (games/realtime/leases.py).

A loop given ``next_due`` (how many seconds until its next work, read from
an index; None: nothing known) sleeps until then, or at most
``wakeups.idle_seconds()``, or until work queued anywhere wakes it
(games/wakeups.py): an idle process asks the database once per loop per
long sleep, not every ``interval``. Without ``next_due`` a loop runs its
round every ``interval`` (the old shape, for loops that ask no database).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .. import wakeups
from . import leases

log = logging.getLogger(__name__)

NextDue = Callable[[], Awaitable[float | None]]
LOOK_SPACING = 0.25  # seconds: the least time between two looks of a loop


async def poll_forever(
    call: Callable[[], Awaitable[object]],
    interval: float,
    failed: str,
    stop: asyncio.Event,
    lease: str | None = None,
    *,
    next_due: NextDue | None = None,
) -> None:
    """Await ``call()`` every ``interval`` seconds until ``stop`` is set; a
    failure is logged as ``failed`` and the next round comes all the same.
    Set ``stop`` and await the task: it ends after its current round, so no
    query of it is left running (a test's teardown empties the tables).
    With ``lease``, a round runs only in the process holding it; the others
    ask Redis each ``interval`` (no query) and take over when the holder is
    gone for ``lease_seconds(interval)``. With ``next_due`` (and a lease),
    the round runs only when due or woken (``DueLoop``)."""
    if next_due is not None and lease is not None:
        await DueLoop(call, next_due, interval, failed, stop, lease).run()
        return
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


class DueLoop:
    """A loop that sleeps until its next due time. Each ``tick`` (its old
    ``interval``, only when several processes share Redis) it renews its
    lease, which also tells it whether another process woke it; a wake from
    this process ends the sleep at once. Once woken (wakes closer together
    than ``LOOK_SPACING`` share one look), or when its time has come, it
    asks ``next_due``; the round runs when that says 0. After a
    round, the next comes ``interval`` later at the soonest, so a row that
    stays due (a broken game) is retried as often as before, never in a
    spin."""

    def __init__(
        self,
        call: Callable[[], Awaitable[object]],
        next_due: NextDue,
        interval: float,
        failed: str,
        stop: asyncio.Event,
        name: str,
    ) -> None:
        self.call, self.next_due, self.interval = call, next_due, interval
        self.failed, self.stop, self.name = failed, stop, name
        self.clock = asyncio.get_running_loop().time
        self.due_at = 0.0  # loop time of the next look; 0: at once
        self.last_look = -LOOK_SPACING
        # Wakes closer together than this share one look: a busy site's
        # moves (each a wake) cost a few looks a second, not one each.
        self.spacing = min(interval, LOOK_SPACING)

    async def run(self) -> None:
        signal = wakeups.listen(self.name)
        try:
            while not self.stop.is_set():
                held, woken = await leases.hold_woken(self.name, lease_seconds(self.interval))
                if held and not signal.holding:
                    self.due_at = 0.0  # just took the loop over: look at once
                signal.holding = held
                if woken or signal.event.is_set():
                    signal.event.clear()  # not held: the holder was woken through Redis
                    self.due_at = min(self.due_at, self.last_look + self.spacing)
                if held and self.clock() >= self.due_at:
                    await self.look()
                await self.sleep(signal.event, held)
        finally:
            wakeups.forget(self.name, signal)
            await asyncio.shield(leases.release(self.name))

    async def look(self) -> None:
        """Ask when work is due; run the round if it is due now."""
        self.last_look = self.clock()
        delay = await self.ask()
        if delay is not None and delay <= 0:
            try:
                await self.call()
            except Exception:
                log.exception(self.failed)
            delay = await self.ask()
            if delay is not None:
                delay = max(delay, self.interval)  # still due: after one interval
        idle = wakeups.idle_seconds()
        self.due_at = self.clock() + (idle if delay is None else min(delay, idle))

    async def ask(self) -> float | None:
        try:
            return await self.next_due()
        except Exception:
            log.exception(self.failed)
            return self.interval  # the database gone for a moment: look again soon

    async def sleep(self, woken: asyncio.Event, held: bool) -> None:
        """Until the next look, a wake, ``stop``, or the next lease renewal."""
        timeout = max(0.0, self.due_at - self.clock()) if held else self.interval
        if leases.shared_by_processes():
            timeout = min(timeout, self.interval)
        waits = [asyncio.ensure_future(self.stop.wait()), asyncio.ensure_future(woken.wait())]
        try:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()


def lease_seconds(interval: float) -> float:
    """How long a silent holder keeps a loop's lease: a few rounds, so a
    slow round does not hand it over, and a dead process's sweep resumes
    elsewhere within seconds."""
    return max(5.0, 4 * interval)
