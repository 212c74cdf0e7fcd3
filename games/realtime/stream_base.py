"""NDJSON streams for API clients (accounts' personal tokens): the plumbing.

A stream is a Channels consumer on the event loop, a member of channel-layer
groups like a socket, with no thread and no task of its own: group messages
arrive through the consumer's own receive loop, and one task per event loop
writes the keep-alive lines of every open stream (``KeepAlive``). It joins
its groups before it reads anything, so what commits after the read is
pushed, and writes its first line (an empty one) at once.

Limits: ``STREAMS_PER_ACCOUNT`` and ``STREAMS_PER_ADDRESS`` open streams,
counted across processes as the sockets' cap is (socket_cap.py's counters,
under keys of their own). A revoked token's streams end: each stream is in
its token's group (accounts/tokens.py ``token_group``).

A restarted Redis may forget group memberships (the core layer keeps them
there; the pub/sub layer's client subscribes again by itself): streams send
no pings, so the keep-alive task joins each stream's groups again once
``watch.REJOIN_SECONDS`` passed, as the sockets do on their pings.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.consumer import AsyncConsumer
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.token_auth import bearer_secret
from accounts.tokens import token_alive, token_group, token_holder

from ..addresses import address_key, scope_address
from ..errors import GameError, unexpected
from ..selectors.frames import dumps
from .consumer_base import LoopOnlyDispatchMixin
from .draining import DrainsStreamMixin
from .socket_cap import MemoryCounts, RedisCounts
from .watch import rejoin_due

log = logging.getLogger(__name__)

NDJSON = [(b"content-type", b"application/x-ndjson"), (b"cache-control", b"no-store")]


class KeepAlive:
    """Every open stream of this event loop; one task, ticking ``TICKS`` times
    a period, writes an empty line to each stream that has been silent for
    all but the last tick of the keep-alive period: no stream is silent for a
    whole period, and an idle one gets one line a period, not two. It joins
    each stream's groups again when that is due."""

    TICKS = 10

    def __init__(self) -> None:
        self.streams: set[NdjsonStream] = set()
        self.task: asyncio.Task | None = None

    def add(self, stream: NdjsonStream) -> None:
        self.streams.add(stream)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def discard(self, stream: NdjsonStream) -> None:
        self.streams.discard(stream)

    async def run(self) -> None:
        period = settings.STREAM_KEEPALIVE_SECONDS
        tick = period / self.TICKS
        while self.streams:
            await asyncio.sleep(tick)
            quiet_since = time.monotonic() - (period - 1.5 * tick)
            for stream in list(self.streams):
                if rejoin_due(stream.joined):
                    await stream.rejoin()
                if stream.wrote <= quiet_since:
                    await stream.write_raw(b"\n")


_keepalives: dict[asyncio.AbstractEventLoop, KeepAlive] = {}
_counts: dict[str, MemoryCounts | RedisCounts] = {}


def keepalive() -> KeepAlive:
    loop = asyncio.get_running_loop()
    found = _keepalives.get(loop)
    if found is None:
        found = _keepalives[loop] = KeepAlive()
    return found


def counts() -> MemoryCounts | RedisCounts:
    """Open streams per account and per address, in Redis when configured."""
    key = f"{settings.REDIS_URL}|{settings.REDIS_PREFIX}"
    found = _counts.get(key)
    if found is None:
        url = settings.REDIS_URL
        prefix = f"{settings.REDIS_PREFIX}:streams"
        found = _counts.setdefault(key, RedisCounts(url, prefix) if url else MemoryCounts())
    return found


def open_streams() -> int:
    """This process's open streams (tests count them before and after)."""
    return sum(len(k.streams) for k in _keepalives.values())


def forget() -> None:
    """Tests: start with no streams counted."""
    for store in _counts.values():
        if isinstance(store, RedisCounts):
            for task in store.renewing.values():
                task.cancel()
    _counts.clear()


def header(scope: dict[str, Any], name: bytes) -> bytes:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value
    return b""


def error_body(code: str, message: str, **extra: Any) -> bytes:
    return dumps({"code": code, "message": message, **extra}).encode()


class Refused(Exception):
    """Answer the request with this status and error instead of a stream."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.body = status, error_body(code, message, **extra)


class NdjsonStream(DrainsStreamMixin, LoopOnlyDispatchMixin, AsyncConsumer):
    """GET only; ``Authorization: Bearer <token>`` with the ``read`` scope.
    Subclasses name their groups (``stream_groups``) and write what comes
    first (``begin``); group messages go to handlers named by their type."""

    wrote = 0.0
    joined = 0.0
    streaming = False

    async def http_request(self, message: dict[str, Any]) -> None:
        if message.get("more_body"):
            return  # a GET's body, if any, is read and dropped
        try:
            await self.open()
        except Refused as exc:
            await self.refuse(exc.status, exc.body)
        except StopConsumer:
            raise
        except Exception as exc:
            log.warning("opening stream %s failed", self.scope.get("path"), exc_info=True)
            if self.streaming:
                await self.finish()
            error = unexpected(exc)
            await self.refuse(error.status, error_body(**error.as_dict()))

    async def open(self) -> None:
        if self.scope.get("method") not in ("GET", "HEAD"):
            raise Refused(405, "method_not_allowed", _("Streams are read with GET."))
        self.user, self.token = await self.authenticate()
        with translation.override(self.user.language_or_default()):
            await self.claim_places()
            self.groups = [token_group(self.token.pk), *self.stream_groups()]
            for group in self.groups:
                await self.channel_layer.group_add(group, self.channel_name)
            self.joined = time.monotonic()
            if not await database_sync_to_async(token_alive)(self.token.pk):
                raise Refused(401, "bad_token", _("Unknown or revoked token."))
            await self.prepare()
            await self.send({"type": "http.response.start", "status": 200, "headers": NDJSON})
            self.streaming = True
            keepalive().add(self)
            await self.write_raw(b"\n")
            await self.begin()

    async def authenticate(self) -> tuple[Any, Any]:
        try:
            secret = bearer_secret(header(self.scope, b"authorization"))
        except Exception:
            secret = ""
        if secret is None:
            raise Refused(
                401, "login_required", _("Send a personal token: Authorization: Bearer <token>.")
            )
        found = await database_sync_to_async(token_holder)(secret) if secret else None
        if found is None:
            raise Refused(401, "bad_token", _("Unknown or revoked token."))
        if "read" not in found[1].scopes:
            raise Refused(
                403, "scope", _("This token lacks the scope %(scope)s.") % {"scope": "read"}
            )
        return found

    async def claim_places(self) -> None:
        store = counts()
        address = f"address:{address_key(scope_address(self.scope))}"
        account = f"user:{self.user.pk}"
        if not await store.claim(account, self.channel_name, settings.STREAMS_PER_ACCOUNT):
            raise Refused(
                429,
                "too_many_streams",
                _("Too many open streams for this account."),
                retry_after=10,
            )
        if not await store.claim(address, self.channel_name, settings.STREAMS_PER_ADDRESS):
            await store.release(account, self.channel_name)
            raise Refused(
                429,
                "too_many_streams",
                _("Too many open streams from your address."),
                retry_after=10,
            )
        self.places = [account, address]

    def stream_groups(self) -> list[str]:
        raise NotImplementedError

    async def prepare(self) -> None:
        """Reads after joining, before answering: may refuse (``Refused``)."""

    async def begin(self) -> None:
        """The first lines, after the empty one."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A group message this kind of stream has no use for is dropped (the
        groups carry more kinds than any one stream forwards)."""
        if hasattr(self, message["type"].replace(".", "_")):
            await super().dispatch(message)

    async def rejoin(self) -> None:
        """Join this stream's groups again (joining is idempotent). A stream
        that ends meanwhile leaves what was joined again; a layer still down
        is tried again on the next tick."""
        for group in list(self.__dict__.get("groups", [])):
            try:
                await self.channel_layer.group_add(group, self.channel_name)
            except Exception:
                log.info("rejoining %s failed", group, exc_info=True)
                return
            if not self.streaming:
                await self.channel_layer.group_discard(group, self.channel_name)
                return
        self.joined = time.monotonic()

    async def refuse(self, status: int, body: bytes) -> None:
        await self.cleanup()
        headers = [(b"content-type", b"application/json")]
        if status == 429:
            headers.append((b"retry-after", b"10"))
        await self.send({"type": "http.response.start", "status": status, "headers": headers})
        await self.send({"type": "http.response.body", "body": body})
        raise StopConsumer()

    async def write_line(self, text: str) -> None:
        await self.write_raw(text.encode() + b"\n")

    async def write(self, data: dict[str, Any]) -> None:
        await self.write_line(dumps(data))

    async def write_raw(self, body: bytes) -> None:
        if not self.streaming:
            return
        self.wrote = time.monotonic()
        try:
            await self.send({"type": "http.response.body", "body": body, "more_body": True})
        except Exception:  # the client is gone: its disconnect message follows
            log.debug("stream write failed", exc_info=True)

    async def finish(self) -> None:
        """End the response and this consumer (the game ended, the token was revoked)."""
        was_streaming = self.streaming
        await self.cleanup()
        if was_streaming:
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})
        raise StopConsumer()

    async def cleanup(self) -> None:
        """Leave every group and give back the places; safe to call twice."""
        self.streaming = False
        keepalive().discard(self)
        for group in self.__dict__.pop("groups", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        store = counts()
        for place in self.__dict__.pop("places", []):
            await store.release(place, self.channel_name)

    async def http_disconnect(self, message: dict[str, Any]) -> None:
        await self.cleanup()
        raise StopConsumer()

    async def token_revoked(self, message: dict[str, Any]) -> None:
        await self.finish()

    @staticmethod
    def refused(exc: GameError) -> Refused:
        return Refused(exc.status, exc.code, exc.message)
