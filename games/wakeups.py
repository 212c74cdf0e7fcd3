"""Waking the background loops when work is queued.

The loops (games/realtime/sweeper.py, bot_worker.py) sleep until the next
due time they read from an index, or at most ``LOOP_IDLE_SECONDS``; work
that makes something due sooner wakes the loop that runs it, after the
commit (``wake_after_commit``; ``game_changed`` for a game's clocks and bot
turns). In this process that is an asyncio event; with ``REDIS_URL`` (so
maybe several processes) also a Redis key ``<prefix>:wake:<loop>``, which
the process holding the loop's lease takes with each renewal of the lease
(games/realtime/leases.py): the holder learns of the work within one
renewal round, and nobody asked the database. Best effort: a lost wake
costs at most the loop's longest sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import redis
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .redis_clients import RedisClients, shared

log = logging.getLogger(__name__)


class Signal:
    """One loop's wake-up in this process: its event, on the loop it waits on."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()
        self.holding = False  # this process holds the loop's lease: no Redis key needed

    def set(self) -> None:
        with contextlib.suppress(RuntimeError):  # its loop closed (a test's)
            self.loop.call_soon_threadsafe(self.event.set)


_signals: dict[str, Signal] = {}
_pending: set[str] = set()  # Redis keys to set, gathered on a loop
_flushing: set[asyncio.Task[None]] = set()
_lock = threading.Lock()


def idle_seconds() -> float:
    """The longest a loop sleeps with nothing due and no wake."""
    return float(getattr(settings, "LOOP_IDLE_SECONDS", 30.0))


def listen(name: str) -> Signal:
    """The wake-up of the loop ``name``, made on the running event loop."""
    signal = _signals[name] = Signal()
    return signal


def listening(name: str) -> Signal | None:
    """The wake-up of the loop ``name`` in this process, if it runs here."""
    return _signals.get(name)


def forget(name: str, signal: Signal) -> None:
    if _signals.get(name) is signal:
        del _signals[name]


def key(name: str) -> str:
    return f"{getattr(settings, 'REDIS_PREFIX', 'bsp')}:wake:{name}"


def wake(*names: str) -> None:
    """Wake the loops ``names`` wherever they run; from any thread."""
    remote = []
    for name in names:
        signal = _signals.get(name)
        if signal is not None:
            signal.set()
        if signal is None or not signal.holding:
            remote.append(name)
    clients = _redis()
    if remote and clients is not None:
        _send(clients, remote)


def wake_after_commit(*names: str, at: datetime | None = None) -> None:
    """``wake(names)`` once the transaction commits (at once outside one);
    nothing when the work is due at ``at``, later than any loop sleeps."""
    if at is not None and at > timezone.now() + timedelta(seconds=idle_seconds()):
        return
    transaction.on_commit(lambda: wake(*names))


def game_changed(game: Any) -> None:
    """After a game's change is committed: wake the deadline sweep when a
    clock, forced turn or leave offer falls due before it would look again,
    and the bot worker when a bot is to act. Deferred fields count as due (no
    query here: this runs on the event loop too)."""
    deferred = game.get_deferred_fields()

    def known(field: str) -> Any:
        return True if field in deferred else getattr(game, field)

    names = ["bots"] if known("bot_due") else []
    dues = [known(f) for f in ("deadline", "forced_at", "offer_due")]
    soon = timezone.now() + timedelta(seconds=idle_seconds())
    if any(d is True or (isinstance(d, datetime) and d <= soon) for d in dues):
        names.append("deadlines")
    if names:
        wake(*names)


def _redis() -> RedisClients | None:
    url = getattr(settings, "REDIS_URL", "")
    return shared(url) if url else None


def _send(clients: RedisClients, names: Iterable[str]) -> None:
    """Set the wake keys: gathered and sent from an event loop of this
    process when one runs (a burst of moves costs one command), else now."""
    loop = _running_loop()
    if loop is None:
        try:
            clients.sync.mset(dict.fromkeys(map(key, names), 1))
        except (redis.RedisError, OSError):
            log.warning("waking %s failed: Redis unreachable", list(names))
        return
    with _lock:
        _pending.update(names)
    with contextlib.suppress(RuntimeError):  # its loop closed (a test's): Redis is not told
        loop.call_soon_threadsafe(_start_flush, loop, clients)


def _start_flush(loop: asyncio.AbstractEventLoop, clients: RedisClients) -> None:
    task = loop.create_task(_flush(clients))
    _flushing.add(task)  # a task nobody references may be collected mid-way
    task.add_done_callback(_flushing.discard)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.get_running_loop()
    for signal in list(_signals.values()):
        if signal.loop.is_running():
            return signal.loop
    return None


async def _flush(clients: RedisClients) -> None:
    with _lock:
        names = list(_pending)
        _pending.clear()
    if not names:
        return  # an earlier flush sent them (wakes close together: one command)
    try:
        await clients.on_loop().mset(dict.fromkeys(map(key, names), 1))
    except (redis.RedisError, OSError):
        log.warning("waking %s failed: Redis unreachable", names)
