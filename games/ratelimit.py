"""Rate limits: per-connection windows in this process, per-user budgets shared.

A socket that floods is closed with 4008 (policy violation, 1008, moved into
the application range the websocket library allows), as lichess closes floods;
the client's reconnect backs off. Those windows belong to one connection and
stay in this process.

Per-user budgets (a user's sockets together, the chat rule, the API
throttles, sign-ups per address) are counted with ``hit()``: in Redis when
``REDIS_URL`` is set, so every process counts into the same number (sockets
with ``ahit()``, on the event loop), and in the in-process cache of the
one-process embedded default otherwise. A user over such a budget is
answered with ``rate_limited`` and the seconds to wait, not disconnected.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
import weakref
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache

from .redis_clients import RedisClients

log = logging.getLogger(__name__)

# kind -> (frames, seconds)
CONNECTION_LIMITS = {
    "any": (60, 5.0),  # every frame, junk included
    "act": (40, 5.0),
    "chat": (12, 10.0),
}
USER_LIMITS = {"act": (80, 5), "chat": (20, 10)}

# Socket frames that spend the same per-user budget as their API twin: the
# API throttle's scope (settings.REST_FRAMEWORK's DEFAULT_THROTTLE_RATES),
# counted under the same key (``budget_key``), so a user's moves are 300 a
# minute however they arrive. "writes" is the API's default for every write.
API_SCOPES = {
    "act": "acts",
    "chat": "chat",
    **dict.fromkeys(("resign", "offer_draw", "accept_draw", "decline_draw", "abort"), "writes"),
    **dict.fromkeys(("rematch", "decline_rematch", "remis", "read", "decide"), "writes"),
    "forced_turns": "writes",
}

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def scope_rate(scope: str) -> tuple[int, int]:
    """A throttle scope's rate (``"300/min"``) as (uses, seconds), read as DRF does."""
    count, period = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope].split("/")
    return int(count), PERIODS[period[0]]


def budget_key(scope: str, ident: object) -> str:
    """The counter of one user's (or address's) budget for a throttle scope:
    the same for the API's throttle and the sockets."""
    return f"throttle_{scope}_{ident}"


def spend(scope: str, ident: object) -> int | None:
    """Count one use into ``ident``'s (a user's pk, or an address's key)
    budget for the throttle ``scope``: its rate and its key are the API's, so
    every way in spends one number. None, or the seconds to wait."""
    limit, seconds = scope_rate(scope)
    return hit(budget_key(scope, ident), limit, seconds)


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

    A fixed window, opened by its first use and gone ``seconds`` later. With
    Redis one atomic script counts and reads the time left (any number
    of processes racing each get a different count); without it the
    in-process cache counts under its lock. A Redis that cannot be reached
    counts nothing and lets the use through (logged): a budget is not worth
    an error page, and each socket's own windows still hold.
    """
    return hit_all([(key, limit, seconds)])


Budget = tuple[str, int, int]  # key, limit, seconds


def hit_all(budgets: list[Budget]) -> int | None:
    """``hit()`` for several budgets at once (one round trip): None if every
    one allows the use, else the longest wait among those over."""
    clients = _shared_clients()
    if clients is None:
        return _local_hit_all(budgets)
    try:
        counted = clients.sync.register_script(COUNT)(*_script_args(budgets))
    except redis.RedisError:
        log.warning("rate limits %s not counted: Redis unreachable", budgets, exc_info=True)
        return None
    return _longest_wait(budgets, counted)


async def ahit(key: str, limit: int, seconds: int) -> int | None:
    """``hit()`` on the event loop: one round trip with the loop's asyncio
    client, no thread (the in-process cache: no I/O, a short lock)."""
    return await ahit_all([(key, limit, seconds)])


async def ahit_all(budgets: list[Budget]) -> int | None:
    """``hit_all()`` on the event loop, in one round trip (shared with the
    other counts asked for in the same turn of the loop: ``CountBatch``)."""
    clients = _shared_clients()
    if clients is None:
        return _local_hit_all(budgets)
    try:
        counted = await _batch(clients).count(*_script_args(budgets))
    except (redis.RedisError, OSError):
        log.warning("rate limits %s not counted: Redis unreachable", budgets, exc_info=True)
        return None
    return _longest_wait(budgets, counted)


class CountBatch:
    """The counts asked for in one turn of an event loop, sent together.

    At saturation a turn of the loop reads the moves of many sockets; each
    move's count was a script call of its own (a connection from the pool, a
    write, a read, a wake-up). Here the first count of a turn schedules the
    sending for after that turn, and every count asked for by then leaves in
    one pipeline of ``EVALSHA`` (one write, one read). Each still runs the
    same script, atomically, in the order asked; a script Redis forgot (it
    restarted) is loaded again and that count made alone."""

    def __init__(self, clients: RedisClients) -> None:
        self.clients = clients
        self.queued: list[tuple[list[str], list[int], asyncio.Future[list[int]]]] = []
        self.sending: set[asyncio.Task[None]] = set()

    def count(self, keys: list[str], args: list[int]) -> asyncio.Future[list[int]]:
        loop = asyncio.get_running_loop()
        counted: asyncio.Future[list[int]] = loop.create_future()
        self.queued.append((keys, args, counted))
        if len(self.queued) == 1:
            loop.call_soon(self._start)  # after this turn: its other counts go too
        return counted

    def _start(self) -> None:
        task = asyncio.ensure_future(self._send())
        self.sending.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self.sending.discard)

    async def _send(self) -> None:
        batch, self.queued = self.queued, []
        script = self.clients.script_on_loop(COUNT)
        try:
            async with self.clients.on_loop().pipeline(transaction=False) as pipe:
                for keys, args, _counted in batch:
                    pipe.evalsha(script.sha, len(keys), *keys, *args)
                answers = await pipe.execute(raise_on_error=False)
        except BaseException as exc:
            error = exc if isinstance(exc, Exception) else redis.ConnectionError("cut short")
            for _keys, _args, counted in batch:
                if not counted.done():
                    counted.set_exception(error)
            if not isinstance(exc, Exception):
                raise
            return
        for (keys, args, counted), answer in zip(batch, answers, strict=True):
            if isinstance(answer, redis.exceptions.NoScriptError):
                answer = await _alone(script, keys, args)
            if counted.done():
                continue  # its caller is gone
            if isinstance(answer, Exception):
                counted.set_exception(answer)
            else:
                counted.set_result(answer)


async def _alone(script: Any, keys: list[str], args: list[int]) -> Any:
    """One count by itself (the script object loads the script if it must)."""
    try:
        return await script(keys=keys, args=args)
    except (redis.RedisError, OSError) as exc:
        return exc


_batches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, CountBatch] = (
    weakref.WeakKeyDictionary()
)


def _batch(clients: RedisClients) -> CountBatch:
    """The running loop's batch for ``clients`` (tests run a loop each)."""
    loop = asyncio.get_running_loop()
    found = _batches.get(loop)
    if found is None or found.clients is not clients:
        found = _batches[loop] = CountBatch(clients)
    return found


def _script_args(budgets: list[Budget]) -> tuple[list[str], list[int]]:
    return [redis_key(key) for key, _, _ in budgets], [seconds for _, _, seconds in budgets]


def _longest_wait(budgets: list[Budget], counted: list[int]) -> int | None:
    """The script's answer (count, ms left per key) as the longest wait, if any."""
    waits = [
        _wait(counted[2 * i], counted[2 * i + 1], limit, seconds)
        for i, (_, limit, seconds) in enumerate(budgets)
    ]
    return max((w for w in waits if w is not None), default=None)


def _local_hit_all(budgets: list[Budget]) -> int | None:
    waits = [_local_hit(f"rl:{key}", limit, seconds) for key, limit, seconds in budgets]
    return max((w for w in waits if w is not None), default=None)


_clients: dict[str, RedisClients] = {}


def _shared_clients() -> RedisClients | None:
    """This process's Redis clients for the counters; None on the embedded default."""
    url = settings.REDIS_URL
    if not url:
        return None
    found = _clients.get(url)
    if found is None:
        found = _clients.setdefault(url, RedisClients(url))
    return found


# One command (EVALSHA) and one answer: for each key, counts, opens the
# window with the first use (and gives a counter left without expiry one),
# reads the time left; ARGV[i] is KEYS[i]'s window. Measured on the loop
# (3,000 counts of one key): 107 us of CPU each, against 170 us for a
# MULTI/EXEC pipeline of the same commands.
COUNT = """
local answer = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local left = redis.call('PTTL', key)
  if left < 0 then
    redis.call('EXPIRE', key, ARGV[i])
    left = ARGV[i] * 1000
  end
  answer[2 * i - 1] = count
  answer[2 * i] = left
end
return answer
"""


def redis_key(key: str) -> str:
    return f"{settings.REDIS_PREFIX}:rl:{key}"


def _wait(count: int, ttl_ms: int, limit: int, seconds: int) -> int | None:
    if count <= limit:
        return None
    return max(1, math.ceil(ttl_ms / 1000)) if ttl_ms > 0 else seconds


def _local_hit(key: str, limit: int, seconds: int) -> int | None:
    """``hit()`` in the in-process cache: ``add`` opens the window, ``incr``
    counts under the cache's lock."""
    try:
        count = cache.incr(key)
    except ValueError:  # no window yet (or it just ended)
        cache.set(f"{key}:t", time.time(), timeout=seconds)  # when it opened
        count = 1 if cache.add(key, 1, timeout=seconds) else cache.incr(key)
    if count <= limit:
        return None
    opened = cache.get(f"{key}:t")
    if opened is None:
        return seconds
    return max(1, math.ceil(opened + seconds - time.time()))


# Claims a key for some milliseconds if nobody holds it; else how long it is held.
CLAIM = """
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
  return 0
end
return redis.call('PTTL', KEYS[1])
"""


async def aclaim(key: str, seconds: float) -> float:
    """One turn per ``seconds`` across processes (e.g. one frame per game):
    0 if this caller has the turn now, else the seconds until the next one.
    A Redis that cannot be reached gives the turn (a frame too many is no harm)."""
    clients = _shared_clients()
    if clients is None:
        return _local_claim(f"claim:{key}", seconds)
    try:
        claim_script = clients.script_on_loop(CLAIM)
        left_ms = await claim_script(keys=[redis_key(f"claim:{key}")], args=[int(seconds * 1000)])
    except (redis.RedisError, OSError):
        log.warning("claim %s not made: Redis unreachable", key, exc_info=True)
        return 0.0
    return 0.0 if left_ms == 0 else max(left_ms, 1) / 1000


def _local_claim(key: str, seconds: float) -> float:
    now = time.time()
    if cache.add(key, now + seconds, timeout=seconds):
        return 0.0
    free_at = cache.get(key)
    return max(free_at - now, 0.001) if free_at is not None else 0.001


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

    def user_count(self, kind: str) -> asyncio.Future[int | None]:
        """``user_wait`` started now and awaited later: a move counts while it
        locks its row, so the count adds no round trip to the move's time."""
        return asyncio.ensure_future(self.user_wait(kind))

    async def user_wait(self, kind: str) -> int | None:
        """None if the user's shared budgets for ``kind`` (the sockets' burst
        and the API twin's) allow one more frame, else the seconds to wait."""
        budgets = user_budgets(self.user_id, kind)
        return await ahit_all(budgets) if budgets else None


def user_budgets(user_id: int | None, kind: str) -> list[Budget]:
    """What one frame of ``kind`` spends of its user's budgets."""
    if user_id is None:
        return []
    budgets = []
    if kind in USER_LIMITS:
        budgets.append((f"user:{user_id}:{kind}", *USER_LIMITS[kind]))
    if kind in API_SCOPES:
        scope = API_SCOPES[kind]
        budgets.append((budget_key(scope, user_id), *scope_rate(scope)))
    return budgets


# Let go of a hold only if it is still the holder's (it may have run out and
# been taken by another since).
LET_GO = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def hold(key: str, holder: str, seconds: int) -> bool:
    """Take ``key`` for ``holder`` for at most ``seconds`` if nobody holds it
    (one request at a time, across processes); False if it is held."""
    clients = _shared_clients()
    if clients is None:
        return bool(cache.add(f"hold:{key}", holder, timeout=seconds))
    try:
        return bool(clients.sync.set(redis_key(f"hold:{key}"), holder, nx=True, ex=seconds))
    except redis.RedisError:
        log.warning("hold %s not taken: Redis unreachable", key, exc_info=True)
        return True


def let_go(key: str, holder: str) -> None:
    clients = _shared_clients()
    if clients is None:
        if cache.get(f"hold:{key}") == holder:
            cache.delete(f"hold:{key}")
        return
    try:
        clients.sync.register_script(LET_GO)(keys=[redis_key(f"hold:{key}")], args=[holder])
    except redis.RedisError:
        log.warning("hold %s not let go: Redis unreachable; it runs out", key, exc_info=True)
