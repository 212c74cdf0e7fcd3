"""Who has a game open: people, not tabs, and no database rows.

Each process knows its own open game sockets (``Local``: socket -> the person
and seat behind it). What every process must agree on lives in one of two
backends, chosen by ``settings.REDIS_URL``:

- ``MemoryPresence`` (the embedded default, one process): the local record is
  the whole truth.
- ``RedisPresence``: per game and process two sets of person keys, the
  seated ones (``…:<game>:<process>:p``) and the others (``…:w``), each with
  an expiry of ``TTL`` seconds; a sorted set per game (``…:<game>:procs``)
  lists the processes present with the time their entries run out. A join or
  leave that changes a person's standing in this process writes to its own
  sets, then counts across the live processes (``SUNIONSTORE`` of the
  watchers, ``SDIFFSTORE`` minus the seated); a join or leave that changes
  nothing (a second tab) only counts. Each is one script (``CHANGE``), so one
  round trip: a socket's opening and its close each cost two of them with
  the batched watcher count (``count_on_turn``), not the ten they did. Pings touch
  nothing: a background task (``refresh_forever``, started with the sweeper)
  renews the expiry of all this process's games in one pipeline every
  ``REFRESH_SECONDS`` and writes again a set whose size is not this
  process's (Redis restarted, a write was lost). A process that dies stops
  refreshing, and its entries expire.

The lobby lists the most watched games. Counting every live game for that
would cost a round trip per game stored, so the ranking is kept where the
counts change: each (batched) count of a game's spectators writes its score
into one sorted set (``…:watched``, 0 removes it) and the time the entry
runs out into another (``…:watched:until``), which the refresh of every
process with the game open renews. A reader takes the top few and drops the
entries run out (their processes died) in the same script. A dead process's
spectators stay in a score until the game's next join or leave, as they stay
in the count its pages last heard.

A person is a logged-in user, else the visitor's session, else the socket
itself. Spectators are the persons without a seat in the game; a person with
two tabs counts once, and a seated player is not a spectator.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio
from django.conf import settings

from ..ratelimit import aclaim, redis_key
from ..redis_clients import RedisClients

log = logging.getLogger(__name__)

TTL = 90  # seconds: how long a silent process's entries stay
REFRESH_SECONDS = 30.0

SEATED, WATCHING = "p", "w"


def person_key(user: Any, session_key: str | None, socket: str) -> str:
    """Who is behind a socket: the user, else the session (hashed: a session
    key is a credential and has no business in Redis), else the socket."""
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"
    if session_key:
        return "s" + hashlib.sha256(session_key.encode()).hexdigest()[:24]
    return "c" + socket


def user_person(user_id: int) -> str:
    return f"u{user_id}"


async def to_the_end(work: Coroutine[Any, Any, int]) -> int:
    """Await ``work`` in a task that a cancelled caller (Daphne cancels the
    handler of a socket gone for good) does not cut short between this
    process's record and Redis."""
    return await asyncio.shield(asyncio.ensure_future(work))


# ``count_on_turn``'s answer: (0, the count) with the turn, else (seconds to wait, None).
Turn = tuple[float, int | None]


@dataclass(frozen=True)
class Tab:
    person: str
    seat: int | None


class Local:
    """This process's open game sockets; safe to use from any thread."""

    def __init__(self) -> None:
        self.games: dict[int, dict[str, Tab]] = {}
        self.lock = threading.Lock()

    def standing(self, game_id: int, person: str) -> str | None:
        """SEATED if any of the person's tabs holds a seat, WATCHING if the
        person has tabs but none seated, None without tabs."""
        tabs = [t for t in self.games.get(game_id, {}).values() if t.person == person]
        if not tabs:
            return None
        return SEATED if any(t.seat is not None for t in tabs) else WATCHING

    def put(self, game_id: int, socket: str, tab: Tab) -> tuple[str | None, str | None]:
        """Record a socket (again: its seat may have changed; its person never
        does); the person's standing before and after."""
        with self.lock:
            before = self.standing(game_id, tab.person)
            self.games.setdefault(game_id, {})[socket] = tab
            return before, self.standing(game_id, tab.person)

    def drop(self, game_id: int, socket: str) -> tuple[Tab | None, str | None, str | None]:
        """Forget a socket; its tab, and its person's standing before and after."""
        with self.lock:
            tabs = self.games.get(game_id, {})
            tab = tabs.get(socket)
            if tab is None:
                return None, None, None
            before = self.standing(game_id, tab.person)
            del tabs[socket]
            if not tabs:
                del self.games[game_id]
            return tab, before, self.standing(game_id, tab.person)

    def persons(self, game_id: int) -> tuple[set[str], set[str]]:
        """The game's (watching, seated) persons in this process."""
        with self.lock:
            tabs = list(self.games.get(game_id, {}).values())
        seated = {t.person for t in tabs if t.seat is not None}
        return {t.person for t in tabs} - seated, seated

    def watching(self, game_id: int, user_ids: list[int]) -> set[int]:
        """Which of these users have the game open here (with or without a seat)."""
        watching, seated = self.persons(game_id)
        present = watching | seated
        return {uid for uid in user_ids if user_person(uid) in present}

    def snapshot(self) -> dict[int, tuple[set[str], set[str]]]:
        with self.lock:
            games = list(self.games)
        return {g: self.persons(g) for g in games}

    def spectators(self, game_id: int) -> int:
        return len(self.persons(game_id)[0])

    def most_watched(self, limit: int) -> list[tuple[int, int]]:
        """The games open here with the most spectators: (game, count), most first."""
        with self.lock:
            games = list(self.games)
        counted = ((g, self.spectators(g)) for g in games)
        return sorted(((g, n) for g, n in counted if n), key=lambda gn: (-gn[1], -gn[0]))[:limit]


class MemoryPresence:
    """One process: what it knows is all there is."""

    def __init__(self) -> None:
        self.local = Local()

    async def join(self, game_id: int, socket: str, person: str, seat: int | None) -> int:
        self.local.put(game_id, socket, Tab(person, seat))
        return self.local.spectators(game_id)

    async def leave(self, game_id: int, socket: str) -> int:
        self.local.drop(game_id, socket)
        return self.local.spectators(game_id)

    def spectators(self, game_id: int) -> int:
        return self.local.spectators(game_id)

    async def count(self, game_id: int) -> int:
        return self.local.spectators(game_id)

    async def count_on_turn(self, game_id: int, turn: str, seconds: float) -> Turn:
        wait = await aclaim(turn, seconds)
        return (wait, None) if wait > 0 else (0.0, self.local.spectators(game_id))

    def spectators_of(self, game_ids: list[int]) -> dict[int, int]:
        return {game_id: self.local.spectators(game_id) for game_id in game_ids}

    def most_watched(self, limit: int) -> list[tuple[int, int]]:
        return self.local.most_watched(limit)

    def watching(self, game_id: int, user_ids: list[int]) -> set[int]:
        return self.local.watching(game_id, user_ids)

    async def refresh(self) -> None:
        """Nothing expires here."""

    async def refresh_forever(self) -> None:
        """Nothing to refresh: returns at once."""


class RedisPresence:
    """Several processes share one Redis; each writes only its own keys."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "bsp",
        ttl: int = TTL,
        refresh_seconds: float = REFRESH_SECONDS,
        process_id: str | None = None,
    ) -> None:
        self.url = url
        self.prefix = f"{prefix}:presence"
        self.ttl = ttl
        self.refresh_seconds = refresh_seconds
        self.process_id = process_id or f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.local = Local()
        self.redis = RedisClients(url, decode_responses=True)

    # -- keys --------------------------------------------------------------
    def procs_key(self, game_id: int) -> str:
        return f"{self.prefix}:{game_id}:procs"

    def set_key(self, game_id: int, process_id: str, standing: str) -> str:
        return f"{self.prefix}:{game_id}:{process_id}:{standing}"

    def own(self, game_id: int, standing: str) -> str:
        return self.set_key(game_id, self.process_id, standing)

    @property
    def watched_keys(self) -> list[str]:
        """The ranking (game -> spectators) and its entries' expiry times."""
        return [f"{self.prefix}:watched", f"{self.prefix}:watched:until"]

    def client(self) -> redis.asyncio.Redis:
        return self.redis.on_loop()

    async def aclose(self) -> None:
        """Close both clients (a store made for a while, as in tests)."""
        await self.redis.aclose()

    # -- commands, queued on a pipeline of either client -------------------
    def queue_alive(self, pipe: Any, game_id: int) -> None:
        procs = self.procs_key(game_id)
        pipe.zadd(procs, {self.process_id: time.time() + self.ttl})
        pipe.expire(procs, self.ttl)

    def queue_processes(self, pipe: Any, game_id: int) -> None:
        """The ids of the processes whose entries for the game are live."""
        procs = self.procs_key(game_id)
        now = time.time()
        pipe.zremrangebyscore(procs, "-inf", now)
        pipe.zrangebyscore(procs, now, "+inf")

    def queue_count(self, pipe: Any, game_id: int, processes: list[str]) -> None:
        """(In a transaction) the persons watching in any process, less those
        seated in any: the result of the second command."""
        scratch = f"{self.prefix}:{game_id}:count:{self.process_id}"
        pipe.sunionstore(scratch, [self.set_key(game_id, p, WATCHING) for p in processes])
        pipe.sdiffstore(scratch, [scratch, *(self.set_key(game_id, p, SEATED) for p in processes)])
        pipe.delete(scratch)

    # -- async: the sockets, one script each -------------------------------
    async def join(self, game_id: int, socket: str, person: str, seat: int | None) -> int:
        before, after = self.local.put(game_id, socket, Tab(person, seat))
        return await to_the_end(self.changed(game_id, person, before, after))

    async def leave(self, game_id: int, socket: str) -> int:
        tab, before, after = self.local.drop(game_id, socket)
        if tab is None:
            return await self.changed(game_id, "", None, None)
        return await to_the_end(self.changed(game_id, tab.person, before, after))

    async def changed(
        self, game_id: int, person: str, before: str | None, after: str | None
    ) -> int:
        """Write the person's new standing (if it changed), then count. With
        Redis unreachable: this process's own count (the refresh writes the
        sets again once Redis is back)."""
        standing = UNCHANGED if before == after else (after or "")
        try:
            _wait, count = await self.run_change(game_id, person, standing)
        except (redis.RedisError, OSError):
            log.warning("presence on game %s: Redis failed", game_id, exc_info=True)
            return self.local.spectators(game_id)
        return int(count)

    async def count(self, game_id: int) -> int:
        """The spectators across the live processes; the lobby's ranking
        takes the count too (a join or leave ends here, batched)."""
        try:
            _wait, count = await self.run_change(game_id, "", UNCHANGED, rank=True)
        except (redis.RedisError, OSError):
            log.warning("presence on game %s: Redis failed", game_id, exc_info=True)
            return self.local.spectators(game_id)
        return int(count)

    async def count_on_turn(self, game_id: int, turn: str, seconds: float) -> Turn:
        """``count`` if this caller has the turn ``turn`` (one per ``seconds``
        across processes, ``ratelimit.aclaim``'s): (0, the count); else (the
        seconds until the turn, None). One round trip: claim, count and rank
        in one script. Redis unreachable: the turn, and this process's count."""
        try:
            wait_ms, count = await self.run_change(
                game_id, "", UNCHANGED, rank=True, turn=(turn, seconds)
            )
        except (redis.RedisError, OSError):
            log.warning("presence on game %s: Redis failed", game_id, exc_info=True)
            return 0.0, self.local.spectators(game_id)
        if int(wait_ms) > 0:
            return max(int(wait_ms), 1) / 1000, None
        return 0.0, int(count)

    async def run_change(
        self,
        game_id: int,
        person: str,
        standing: str,
        *,
        rank: bool = False,
        turn: tuple[str, float] | None = None,
    ) -> list[int]:
        """``CHANGE`` for one game: [the turn's wait in ms (0: taken or none
        asked), the count (-1 while waiting for the turn)]."""
        now = time.time()
        ranking, until = self.watched_keys
        claim = redis_key(f"claim:{turn[0]}") if turn else f"{self.prefix}:no-turn"
        keys = [
            self.procs_key(game_id),
            self.own(game_id, SEATED),
            self.own(game_id, WATCHING),
            f"{self.prefix}:{game_id}:count:{self.process_id}",
            ranking,
            until,
            claim,
        ]
        args: list[str | int | float] = [
            now,
            now + self.ttl,
            self.ttl,
            self.process_id,
            person,
            standing,
            f"{self.prefix}:{game_id}:",
            game_id,
            1 if rank else 0,
            int(turn[1] * 1000) if turn else 0,
        ]
        script = self.redis.script_on_loop(CHANGE)
        return list(await script(keys=keys, args=args))

    async def refresh(self) -> None:
        """Renew the expiry of every game this process has open, in one
        pipeline. A set whose size differs from this process's record (Redis
        restarted, or a write was lost) is written again."""
        games = self.local.snapshot()
        if not games:
            return
        async with self.client().pipeline(transaction=False) as pipe:
            for game_id in games:
                for standing in (WATCHING, SEATED):
                    pipe.expire(self.own(game_id, standing), self.ttl)
                    pipe.scard(self.own(game_id, standing))
                self.queue_alive(pipe, game_id)
            # Games open here stay ranked (only those ranked: XX adds none).
            until = time.time() + self.ttl
            pipe.zadd(self.watched_keys[1], {str(g): until for g in games}, xx=True)
            renewed = await pipe.execute()
        stale = []
        for i, game_id in enumerate(games):
            sizes = {WATCHING: renewed[6 * i + 1], SEATED: renewed[6 * i + 3]}
            watching, seated = self.local.persons(game_id)  # as of now, not the snapshot
            for standing, members in ((WATCHING, watching), (SEATED, seated)):
                if sizes[standing] != len(members):
                    stale.append((self.own(game_id, standing), members))
        if stale:
            async with self.client().pipeline(transaction=True) as pipe:
                for key, members in stale:
                    pipe.delete(key)
                    if members:
                        pipe.sadd(key, *members)
                        pipe.expire(key, self.ttl)
                await pipe.execute()

    async def refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_seconds)
            try:
                await self.refresh()
            except Exception:  # Redis gone for now: the next round writes again
                log.warning("refreshing presence failed", exc_info=True)

    # -- sync: reads for selectors and services ----------------------------
    def live_processes(self, game_id: int) -> list[str]:
        with self.redis.sync.pipeline(transaction=False) as pipe:
            self.queue_processes(pipe, game_id)
            return pipe.execute()[-1]

    def spectators(self, game_id: int) -> int:
        try:
            processes = self.live_processes(game_id)
            if not processes:
                return 0
            with self.redis.sync.pipeline(transaction=True) as pipe:
                self.queue_count(pipe, game_id, processes)
                return int(pipe.execute()[1])
        except redis.RedisError:
            log.warning("presence on game %s: Redis failed", game_id, exc_info=True)
            return self.local.spectators(game_id)

    def spectators_of(self, game_ids: list[int]) -> dict[int, int]:
        """``spectators`` of many games in two round trips (the lobby's ranking)."""
        if not game_ids:
            return {}
        try:
            with self.redis.sync.pipeline(transaction=False) as pipe:
                for game_id in game_ids:
                    self.queue_processes(pipe, game_id)
                found = pipe.execute()[1::2]  # each game's ZRANGEBYSCORE
            live = [(g, procs) for g, procs in zip(game_ids, found, strict=True) if procs]
            with self.redis.sync.pipeline(transaction=True) as pipe:
                for game_id, processes in live:
                    self.queue_count(pipe, game_id, processes)
                counted = pipe.execute()[1::3]  # each game's SDIFFSTORE
        except redis.RedisError:
            log.warning("presence of %s games: Redis failed", len(game_ids), exc_info=True)
            return {game_id: self.local.spectators(game_id) for game_id in game_ids}
        counts = dict.fromkeys(game_ids, 0)
        counts.update({g: int(n) for (g, _procs), n in zip(live, counted, strict=True)})
        return counts

    def most_watched(self, limit: int) -> list[tuple[int, int]]:
        """The most watched games, (game, count) most first, in one script:
        entries run out are dropped first. Redis unreachable: this process's."""
        try:
            script = self.redis.sync.register_script(TOP)
            found = script(keys=self.watched_keys, args=[time.time(), limit])
        except redis.RedisError:
            log.warning("the most watched games: Redis failed", exc_info=True)
            return self.local.most_watched(limit)
        pairs = [(int(found[i]), int(float(found[i + 1]))) for i in range(0, len(found), 2)]
        return sorted(pairs, key=lambda gn: (-gn[1], -gn[0]))

    def watching(self, game_id: int, user_ids: list[int]) -> set[int]:
        """Which of these users have the game open (with or without a seat),
        in any process. Redis unreachable: none (better a notification too
        many than a turn missed)."""
        here = self.local.watching(game_id, user_ids)
        user_ids = [uid for uid in user_ids if uid not in here]
        if not user_ids:
            return here  # no round trip for pages open in this process
        try:
            processes = self.live_processes(game_id)
            asked = [
                (uid, self.set_key(game_id, p, standing))
                for uid in user_ids
                for p in processes
                for standing in (WATCHING, SEATED)
            ]
            with self.redis.sync.pipeline(transaction=False) as pipe:
                for uid, key in asked:
                    pipe.sismember(key, user_person(uid))
                found = pipe.execute()
        except redis.RedisError:
            log.warning("presence on game %s: Redis failed", game_id, exc_info=True)
            return here
        return here | {uid for (uid, _key), there in zip(asked, found, strict=True) if there}


UNCHANGED = "-"  # ``CHANGE``'s standing when only counting

# One game's presence in one round trip, atomically. KEYS: the game's
# processes, this process's seated and watching sets, a scratch set, the
# ranking and its expiry times, the turn's key. ARGV: now, now + ttl, ttl,
# this process, the person, its standing here (SEATED, WATCHING, "" for
# none, UNCHANGED), the game's key prefix, the game, whether to rank, the
# turn's milliseconds (0: none asked). A turn another caller holds: its
# milliseconds left and no count. Otherwise the standing is written (this
# process's sets and its entry renewed), the expired processes dropped, and
# the persons watching in any live process less those seated in any are
# counted (the other processes' set keys are named from the game's prefix:
# one Redis server holds presence, never a cluster); ranked when asked.
CHANGE = """
local now, expiry, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local person, standing = ARGV[5], ARGV[6]
local procs, seated, watching, scratch = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local turn_ms = tonumber(ARGV[10])
if turn_ms > 0 and not redis.call('SET', KEYS[7], '1', 'NX', 'PX', turn_ms) then
  return {math.max(redis.call('PTTL', KEYS[7]), 1), -1}
end
if standing ~= '-' then
  if standing == 'p' then
    redis.call('SADD', seated, person)
    redis.call('SREM', watching, person)
  elseif standing == 'w' then
    redis.call('SADD', watching, person)
    redis.call('SREM', seated, person)
  else
    redis.call('SREM', seated, person)
    redis.call('SREM', watching, person)
  end
  redis.call('EXPIRE', seated, ttl)
  redis.call('EXPIRE', watching, ttl)
  redis.call('ZADD', procs, expiry, ARGV[4])
  redis.call('EXPIRE', procs, ttl)
end
redis.call('ZREMRANGEBYSCORE', procs, '-inf', now)
local live = redis.call('ZRANGEBYSCORE', procs, now, '+inf')
local count = 0
if #live > 0 then
  local watchers, seats = {}, {}
  for i, process in ipairs(live) do
    watchers[i] = ARGV[7] .. process .. ':w'
    seats[i] = ARGV[7] .. process .. ':p'
  end
  redis.call('SUNIONSTORE', scratch, unpack(watchers))
  count = redis.call('SDIFFSTORE', scratch, scratch, unpack(seats))
  redis.call('DEL', scratch)
end
if ARGV[9] == '1' then
  if count > 0 then
    redis.call('ZADD', KEYS[5], count, ARGV[8])
    redis.call('ZADD', KEYS[6], expiry, ARGV[8])
  else
    redis.call('ZREM', KEYS[5], ARGV[8])
    redis.call('ZREM', KEYS[6], ARGV[8])
  end
end
return {0, count}
"""

# The ranking's top ARGV[2] after dropping entries run out by ARGV[1] (a
# bounded batch of them per call: each was written by a count, once).
TOP = """
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 500)
if #stale > 0 then
  redis.call('ZREM', KEYS[1], unpack(stale))
  redis.call('ZREM', KEYS[2], unpack(stale))
end
return redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
"""

Store = MemoryPresence | RedisPresence
_stores: dict[str, Store] = {}
_stores_lock = threading.Lock()


def store() -> Store:
    """This process's presence store for the configured backend."""
    url = getattr(settings, "REDIS_URL", "")
    found = _stores.get(url)
    if found is None:
        with _stores_lock:
            found = _stores.get(url)
            if found is None:
                found = _stores[url] = (
                    RedisPresence(url, prefix=getattr(settings, "REDIS_PREFIX", "bsp"))
                    if url
                    else MemoryPresence()
                )
    return found


async def join(game_id: int, socket: str, person: str, seat: int | None) -> int:
    """A game socket opened (or its seat changed); the game's spectators after."""
    return await store().join(game_id, socket, person, seat)


async def leave(game_id: int, socket: str) -> int:
    """A game socket closed; the game's spectators after."""
    return await store().leave(game_id, socket)


async def count(game_id: int) -> int:
    """The game's spectators now, across processes (as ``join`` answers)."""
    return await store().count(game_id)


async def count_on_turn(game_id: int, turn: str, seconds: float) -> Turn:
    """``count`` when the caller has the turn ``turn`` (one per ``seconds``
    across processes): (0, the count); else (the seconds to wait, None)."""
    return await store().count_on_turn(game_id, turn, seconds)


def spectators(game_id: int) -> int:
    return store().spectators(game_id)


def spectators_of(game_ids: list[int]) -> dict[int, int]:
    """``spectators`` of many games at once."""
    return store().spectators_of(game_ids)


def most_watched(limit: int) -> list[tuple[int, int]]:
    """Up to ``limit`` games with spectators, (game, count), most watched first
    (finished games included: the caller keeps the running ones)."""
    return store().most_watched(limit)


def watching(game_id: int, user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` have the game's page open."""
    return store().watching(game_id, user_ids)


def watching_here(game_id: int, user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` have the game's page open in this process: no
    I/O, so the event loop may ask (a player's page is usually here)."""
    return store().local.watching(game_id, user_ids)


async def refresh_forever() -> None:
    """Keep this process's entries alive (Redis); returns at once in memory."""
    await store().refresh_forever()
