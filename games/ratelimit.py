"""Rate limits: per-connection windows in this process, per-user budgets shared.

A socket that floods is closed with 4008 (policy violation, 1008, moved into
the application range the websocket library allows), as lichess closes floods;
the client's reconnect backs off. Those windows belong to one connection and
stay in this process.

Per-user budgets (a user's sockets together, the chat rule, the API
throttles, sign-ups per address) are counted with ``hit()`` in Django's
default cache: Redis when ``REDIS_URL`` is set, so every process counts into
the same number, and the in-process cache of the one-process embedded default
otherwise. A user over such a budget is answered with ``rate_limited`` and
the seconds to wait, not disconnected.
"""

from __future__ import annotations

import math
import time

from asgiref.sync import sync_to_async
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

# kind -> (frames, seconds)
CONNECTION_LIMITS = {
    "any": (60, 5.0),  # every frame, junk included
    "act": (40, 5.0),
    "chat": (12, 10.0),
}
USER_LIMITS = {"act": (80, 5), "chat": (20, 10)}


class Window:
    """Timestamps of recent frames of one kind, oldest first.

    A plain list in a slotted object: an idle socket holds one of these with
    a timestamp or two, and a deque's first block alone costs 0.6 kB.
    """

    __slots__ = ("limit", "seconds", "times")

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.times: list[float] = []

    def allow(self, now: float) -> bool:
        times = self.times
        if times and now - times[0] > self.seconds:
            times = self.times = [t for t in times if now - t <= self.seconds]
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True


def hit(key: str, limit: int, seconds: int) -> int | None:
    """Count one use of ``key``: None while within ``limit`` uses per window,
    else the whole seconds until the window ends.

    A fixed window, opened by its first use and gone ``seconds`` later. Two
    documented cache calls keep it atomic: ``add`` opens it, ``incr`` counts
    (one atomic INCR on Redis; under a lock in the in-process cache), so
    racing requests, in any process, each get a different count.
    """
    key = f"rl:{key}"
    try:
        count = cache.incr(key)
    except ValueError:  # no window yet (or it just ended)
        count = _open_window(key, seconds)
    else:
        if count == 1:
            # The window ended between Redis's EXISTS and INCR inside incr():
            # INCR made a key without expiry; give it one.
            _open_window(key, seconds, counted=True)
    if count <= limit:
        return None
    opened = cache.get(f"{key}:t")
    if opened is None:
        return seconds
    return max(1, math.ceil(opened + seconds - time.time()))


def _open_window(key: str, seconds: int, *, counted: bool = False) -> int:
    """Start a window for ``key`` (or count into the one a racer started)."""
    cache.set(f"{key}:t", time.time(), timeout=seconds)  # when it opened: for retry-after
    if counted:
        cache.touch(key, timeout=seconds)
        return 1
    if cache.add(key, 1, timeout=seconds):
        return 1
    return cache.incr(key)


_hit_in_thread = sync_to_async(hit, thread_sensitive=False)


async def ahit(key: str, limit: int, seconds: int) -> int | None:
    """``hit()`` for the event loop.

    Django's async cache methods do not fit here: ``aincr`` is a get and a
    set (not atomic), and each call hops to the one thread-sensitive worker.
    The in-process cache is asked on the loop (no I/O, a short lock); Redis
    in one hop to the thread pool for all of hit()'s round trips.
    """
    if isinstance(caches["default"], LocMemCache):
        return hit(key, limit, seconds)
    return await _hit_in_thread(key, limit, seconds)


class ConnectionBudget:
    """One socket's frame budget, and its user's budget across every socket."""

    __slots__ = ("every", "user_id", "windows")

    def __init__(self, user_id: int | None) -> None:
        self.user_id = user_id
        self.every = Window(*CONNECTION_LIMITS["any"])  # every frame, junk included
        self.windows: dict[str, Window] = {}  # the other kinds', made on first use

    def allow(self, kind: str) -> bool:
        """This connection's windows (local); False: a flood, close the socket."""
        now = time.monotonic()
        if not self.every.allow(now):
            return False
        spec = CONNECTION_LIMITS.get(kind) if kind != "any" else None
        if spec is None:
            return True
        window = self.windows.get(kind)
        if window is None:
            window = self.windows[kind] = Window(*spec)
        return window.allow(now)

    async def user_wait(self, kind: str) -> int | None:
        """None if the user's shared budget for ``kind`` allows one more frame,
        else the seconds to wait."""
        if self.user_id is None or kind not in USER_LIMITS:
            return None
        limit, seconds = USER_LIMITS[kind]
        return await ahit(f"user:{self.user_id}:{kind}", limit, seconds)
