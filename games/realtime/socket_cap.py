"""At most SOCKETS_PER_ADDRESS open sockets per client address, counted
across every process: a stranger cannot hold thousands of sockets open.

The address is games/addresses.py's (the socket's peer, or the proxy's entry
of X-Forwarded-For). With ``REDIS_URL`` each address has a sorted set of its
sockets (channel names, unique per process), scored by when each expires;
a process renews the expiry of all its sockets in one pipeline every third
of SOCKET_COUNT_SECONDS, so a killed process's sockets drop out within it.
Without Redis (one process) a count in memory does. A socket over the cap is
accepted, told why in an error frame (``too_many_sockets``, in the page's
language: a refused handshake would tell the page nothing, and Daphne drops a
close's reason) and closed at once with 4429; the page's reconnect backs off.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, defaultdict
from typing import Any

import redis
from channels.exceptions import StopConsumer
from django.conf import settings
from django.utils.translation import gettext as _

from ..addresses import address_key, scope_address
from ..redis_clients import RedisClients
from .consumer_base import SocketConsumer
from .socket_frames import error_frame

log = logging.getLogger(__name__)

TOO_MANY_SOCKETS = 4429  # "429 Too Many Requests" in the application's close range

# Atomically: drop expired sockets, refuse past the cap, else add this one.
CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class MemoryCounts:
    """One process (the embedded default): a count per address."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    async def claim(self, address: str, socket: str, cap: int) -> bool:
        if self.counts[address] >= cap:
            return False
        self.counts[address] += 1
        return True

    async def release(self, address: str, socket: str) -> None:
        self.counts[address] -= 1
        if self.counts[address] <= 0:
            del self.counts[address]


class RedisCounts:
    """Every process: a sorted set per address, renewed by each process."""

    def __init__(self, url: str, prefix: str) -> None:
        self.redis = RedisClients(url)
        self.prefix = prefix
        self.open: defaultdict[str, set[str]] = defaultdict(set)  # this process's
        self.renewing: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}

    def key(self, address: str) -> str:
        return f"{self.prefix}:sockets:{address}"

    async def claim(self, address: str, socket: str, cap: int) -> bool:
        self.keep_renewing()
        now, ttl = time.time(), settings.SOCKET_COUNT_SECONDS
        script = self.redis.script_on_loop(CLAIM)  # made once per loop, not per socket
        try:
            args: list[float | str] = [now, cap, now + ttl, socket, ttl]
            claimed = await script(keys=[self.key(address)], args=args)
        except (redis.RedisError, OSError):
            # A cap is not worth refusing everybody; each socket's own limits hold.
            log.warning("socket cap not counted: Redis unreachable", exc_info=True)
            claimed = 1
        if claimed:
            self.open[address].add(socket)
        return bool(claimed)

    async def release(self, address: str, socket: str) -> None:
        sockets = self.open.get(address)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.open[address]
        try:
            await self.redis.on_loop().zrem(self.key(address), socket)
        except (redis.RedisError, OSError):
            log.warning("socket cap: Redis unreachable; the entry expires", exc_info=True)

    def keep_renewing(self) -> None:
        loop = asyncio.get_running_loop()
        task = self.renewing.get(loop)
        if task is None or task.done():
            self.renewing[loop] = loop.create_task(self.renew_forever())

    async def renew(self) -> None:
        """Push every open socket's expiry ahead, in one pipeline."""
        if not self.open:
            return
        ttl = settings.SOCKET_COUNT_SECONDS
        until = time.time() + ttl
        async with self.redis.on_loop().pipeline(transaction=False) as pipe:
            for address, sockets in list(self.open.items()):
                pipe.zadd(self.key(address), dict.fromkeys(sockets, until))
                pipe.expire(self.key(address), ttl)
            await pipe.execute()

    async def renew_forever(self) -> None:
        while True:
            await asyncio.sleep(settings.SOCKET_COUNT_SECONDS / 3)
            try:
                await self.renew()
            except Exception:  # Redis gone for now: the next round writes again
                log.warning("renewing socket counts failed", exc_info=True)


_stores: dict[str, MemoryCounts | RedisCounts] = {}


def counts() -> MemoryCounts | RedisCounts:
    """This process's counts for the configured backend."""
    key = f"{settings.REDIS_URL}|{settings.REDIS_PREFIX}"
    found = _stores.get(key)
    if found is None:
        url = settings.REDIS_URL
        found = RedisCounts(url, settings.REDIS_PREFIX) if url else MemoryCounts()
        found = _stores.setdefault(key, found)
    return found


def forget() -> None:
    """Drop this process's counts (tests: each starts with no sockets open)."""
    for store in _stores.values():
        if isinstance(store, RedisCounts):
            for task in store.renewing.values():
                task.cancel()
    _stores.clear()


class AddressCapMixin(SocketConsumer):
    """Every socket of the site counts against its address's cap from its
    connect until it closes; one over the cap never reaches ``connect``."""

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        address = address_key(scope_address(self.scope))
        store = counts()
        if not await store.claim(address, self.channel_name, settings.SOCKETS_PER_ADDRESS):
            self.over_cap = True
            await self.accept()
            reason = _("Too many open connections from your address; close some pages.")
            await self.send(text_data=error_frame("too_many_sockets", reason))
            await super().close(code=TOO_MANY_SOCKETS, reason=reason)
            return
        self.counted = (store, address)
        try:
            await super().websocket_connect(message)
        except BaseException:
            await self.uncount()
            raise

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        """Closed by the server (a refused game, a flood): its place is free at once."""
        await super().close(code=code, reason=reason)
        await self.uncount()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if getattr(self, "over_cap", False):
            raise StopConsumer()  # connect never ran: nothing to undo
        try:
            await super().websocket_disconnect(message)
        finally:
            await self.uncount()

    async def uncount(self) -> None:
        counted = self.__dict__.pop("counted", None)
        if counted is not None:
            store, address = counted
            await store.release(address, self.channel_name)
