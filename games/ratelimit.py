"""Sliding-window rate limits for sockets: per connection and per user.

A socket that floods is closed with 4008 (policy violation, 1008, moved into
the application range the websocket library allows), as lichess closes floods;
the client's reconnect backs off. Per-user windows live in this process: with
several processes a user's budget is per process, which still bounds a flood.
"""

from __future__ import annotations

import time
from collections import deque

# kind -> (frames, seconds)
CONNECTION_LIMITS = {
    "any": (60, 5.0),  # every frame, junk included
    "act": (40, 5.0),
    "chat": (12, 10.0),
}
USER_LIMITS = {"act": (80, 5.0), "chat": (20, 10.0)}


class Window:
    """Timestamps of recent frames of one kind."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit, self.seconds = limit, seconds
        self.times: deque[float] = deque()

    def allow(self, now: float) -> bool:
        while self.times and now - self.times[0] > self.seconds:
            self.times.popleft()
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True


class ConnectionBudget:
    def __init__(self, user_id: int | None) -> None:
        self.user_id = user_id
        self.windows = {kind: Window(*spec) for kind, spec in CONNECTION_LIMITS.items()}

    def allow(self, kind: str) -> bool:
        now = time.monotonic()
        if not self.windows["any"].allow(now):
            return False
        window = self.windows.get(kind) if kind != "any" else None  # "any" counted once
        if window is not None and not window.allow(now):
            return False
        if self.user_id is not None and kind in USER_LIMITS:
            return _user_window(self.user_id, kind).allow(now)
        return True


_users: dict[tuple[int, str], Window] = {}
# Every this many lookups, windows of users who have gone quiet are dropped,
# so a long-running process does not keep one per user it ever saw.
PRUNE_EVERY = 1000
_lookups = 0


def _user_window(user_id: int, kind: str) -> Window:
    global _lookups
    _lookups += 1
    if _lookups % PRUNE_EVERY == 0:
        _prune(time.monotonic())
    key = (user_id, kind)
    window = _users.get(key)
    if window is None:
        window = _users[key] = Window(*USER_LIMITS[kind])
    return window


def _prune(now: float) -> None:
    quiet = [k for k, w in _users.items() if not w.times or now - w.times[-1] > w.seconds]
    for key in quiet:
        del _users[key]


def reset() -> None:
    """Forget every per-user window (tests)."""
    _users.clear()
