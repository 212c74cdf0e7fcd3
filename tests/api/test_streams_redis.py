"""Streams on the real Redis channel layer outlive Redis forgetting them.

The core layer keeps group memberships in Redis: when they are gone (a
flushed or restarted Redis), a stream joins its groups again from the
keep-alive task, as sockets do on their pings. The pub/sub layer (the one the
site configures) loses its subscriptions when Redis restarts; its client
subscribes again, and the stream, still open, gets the next event.
"""

from __future__ import annotations

import asyncio
import signal
import time
import uuid

import pytest
import redis.asyncio as aioredis
from channels.layers import channel_layers
from django.test import override_settings

from games.realtime import stream_base, watch
from lobby.services import table_create
from tests.db_threads import sync_to_async
from tests.factories import make_user
from tests.ops.cluster import RedisServer, redis_server_path

from .test_streams_inprocess import body, line, opened, token_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

WAIT = 10  # seconds, at most, for anything awaited here


@pytest.fixture(autouse=True)
def fresh_counts(settings):
    settings.STREAM_KEEPALIVE_SECONDS = 0.2  # a tick every 0.1 s
    stream_base.forget()
    yield
    stream_base.forget()


def layer_of(backend: str, url: str, prefix: str) -> dict:
    return {"default": {"BACKEND": backend, "CONFIG": {"hosts": [url], "prefix": prefix}}}


async def drop_layer() -> None:
    await channel_layers["default"].flush()
    channel_layers.backends.clear()


async def challenge_reaches(comm, me) -> None:
    host = await sync_to_async(make_user)()
    table = await sync_to_async(table_create)(host=host, ruleset="halma", challenge=me.username)
    found = await asyncio.wait_for(line(comm), WAIT)
    assert found["type"] == "challenge" and found["table"]["id"] == table.pk


async def test_a_stream_joins_its_groups_again_after_redis_lost_them(monkeypatch, redis_url):
    prefix = f"bsp-test-{uuid.uuid4().hex[:10]}"
    layers = layer_of("channels_redis.core.RedisChannelLayer", redis_url, prefix)
    client = aioredis.from_url(redis_url)
    lost = asyncio.Event()
    rejoined = asyncio.Event()
    rejoin = stream_base.NdjsonStream.rejoin

    async def noted(self) -> None:
        after_loss = lost.is_set()
        await rejoin(self)
        if after_loss:
            rejoined.set()

    monkeypatch.setattr(stream_base.NdjsonStream, "rejoin", noted)
    monkeypatch.setattr(watch, "REJOIN_SECONDS", 3600.0)
    with override_settings(CHANNEL_LAYERS=layers):
        try:
            me = await sync_to_async(make_user)()
            comm, _ = await opened("/api/stream/events/", await sync_to_async(token_of)(me))
            assert (await body(comm))["body"] == b"\n"
            keys = [k async for k in client.scan_iter(match=f"{prefix}:group:*")]
            assert len(keys) == 3, keys  # the token's, the account's and the user's groups
            await client.delete(*keys)  # what a flushed or restarted Redis forgets
            lost.set()
            monkeypatch.setattr(watch, "REJOIN_SECONDS", 0.0)  # due on the next tick
            await asyncio.wait_for(rejoined.wait(), WAIT)
            assert len([k async for k in client.scan_iter(match=f"{prefix}:group:*")]) == 3
            await challenge_reaches(comm, me)
            await comm.send_input({"type": "http.disconnect"})
            await comm.wait(timeout=5)
        finally:
            await drop_layer()
            await client.aclose()


async def wait_subscribed(url: str, channel: str) -> None:
    """Until the restarted Redis has a subscriber on ``channel`` again."""
    client = aioredis.from_url(url)
    until = time.monotonic() + WAIT
    try:
        while time.monotonic() < until:
            with_counts = dict(await client.pubsub_numsub(channel))
            if with_counts.get(channel.encode(), 0) > 0:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"nobody subscribed to {channel} again")
    finally:
        await client.aclose()


async def test_a_stream_gets_the_next_event_after_a_redis_restart(tmp_path):
    if redis_server_path() is None:
        pytest.skip("no redis-server program")
    server = RedisServer("redis", tmp_path)
    server.start()
    try:
        await server.ready()
        prefix = f"bsp-test-{uuid.uuid4().hex[:10]}"
        layers = layer_of("channels_redis.pubsub.RedisPubSubChannelLayer", server.url, prefix)
        with override_settings(CHANNEL_LAYERS=layers):
            try:
                me = await sync_to_async(make_user)()
                comm, _ = await opened("/api/stream/events/", await sync_to_async(token_of)(me))
                assert (await body(comm))["body"] == b"\n"
                server.kill(signal.SIGKILL)
                server.start()
                await server.ready()
                await wait_subscribed(server.url, f"{prefix}__group__account-{me.pk}")
                await challenge_reaches(comm, me)
                await comm.send_input({"type": "http.disconnect"})
                await comm.wait(timeout=5)
            finally:
                await drop_layer()
    finally:
        server.terminate()
        server.reap(1.0)
