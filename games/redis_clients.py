"""A process's Redis clients for one URL: a synchronous one for threads, and
an asyncio one per event loop (an asyncio connection belongs to the loop it
was made on: Daphne runs one loop for good, tests one each)."""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any

import redis
import redis.asyncio
from redis.commands.core import AsyncScript

REDIS_TIMEOUT = 3.0  # a Redis that is gone must not hold up a socket for long

# Connections of one loop's client: as many as redis-py's default pool, whose
# commands Redis takes in one read each; fewer measured slower (16: 10 % fewer
# moves a second at saturation, the counts queueing round trip after round
# trip). A burst past them (every socket reconnecting after a restart) waits
# for a free one, up to REDIS_TIMEOUT, where the default pool would fail.
LOOP_CONNECTIONS = 100


class RedisClients:
    """The clients of one URL (and options); connections are pooled in each."""

    def __init__(self, url: str, **options: Any) -> None:
        self.url = url
        self.options = {
            "socket_timeout": REDIS_TIMEOUT,
            "socket_connect_timeout": REDIS_TIMEOUT,
            **options,
        }
        self.sync = redis.Redis.from_url(url, **self.options)
        self._by_loop: dict[asyncio.AbstractEventLoop, redis.asyncio.Redis] = {}
        self._scripts: dict[tuple[asyncio.AbstractEventLoop, str], AsyncScript] = {}
        _every.add(self)

    def on_loop(self) -> redis.asyncio.Redis:
        """The running loop's client (made on first use)."""
        loop = asyncio.get_running_loop()
        found = self._by_loop.get(loop)
        if found is None:
            for old in [lp for lp in self._by_loop if lp.is_closed()]:
                del self._by_loop[old]
            self._scripts = {k: v for k, v in self._scripts.items() if not k[0].is_closed()}
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url, max_connections=LOOP_CONNECTIONS, timeout=REDIS_TIMEOUT, **self.options
            )
            found = self._by_loop[loop] = redis.asyncio.Redis.from_pool(pool)
        return found

    def script_on_loop(self, text: str) -> AsyncScript:
        """The running loop's client's Lua script ``text``, made once:
        ``register_script`` hashes and encodes the text again on every call
        (a move's budget count calls one)."""
        key = (asyncio.get_running_loop(), text)
        found = self._scripts.get(key)
        if found is None:
            found = self._scripts[key] = self.on_loop().register_script(text)
        return found

    async def close_loop(self) -> None:
        """Close the running loop's client: a loop that ends (each test's)
        must not leave its connections open."""
        loop = asyncio.get_running_loop()
        found = self._by_loop.pop(loop, None)
        self._scripts = {k: v for k, v in self._scripts.items() if k[0] is not loop}
        if found is not None:
            await found.aclose()

    async def aclose(self) -> None:
        await self.close_loop()
        self.sync.close()


_every: weakref.WeakSet[RedisClients] = weakref.WeakSet()


async def close_loop_clients() -> None:
    """Close every process-wide client's connections of the running loop (a
    test's loop, before it ends)."""
    for clients in list(_every):
        await clients.close_loop()


_shared: dict[str, RedisClients] = {}
_shared_lock = threading.Lock()


def shared(url: str) -> RedisClients:
    """This process's clients of ``url`` with the default options, made once."""
    with _shared_lock:
        found = _shared.get(url)
        if found is None:
            found = _shared[url] = RedisClients(url)
    return found
