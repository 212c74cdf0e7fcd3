"""The site's channel layer (games/realtime/layer.py): channels_redis's
pub/sub layer with the publishes that queue sent together (issue 54 item 6)."""

from __future__ import annotations

import asyncio
import socket
import uuid

import pytest
import redis.asyncio

from games.realtime.layer import BatchingPubSubChannelLayer

pytestmark = pytest.mark.redis


@pytest.fixture
async def layer(redis_url):
    found = BatchingPubSubChannelLayer(hosts=[redis_url], prefix=f"t{uuid.uuid4().hex[:10]}")
    yield found
    await found.flush()


def count_pipelines(monkeypatch) -> list[int]:
    """How many commands each pipeline the layer sends carries."""
    sizes: list[int] = []
    execute = redis.asyncio.client.Pipeline.execute

    async def counted(self, *args, **options):
        sizes.append(len(self.command_stack))
        return await execute(self, *args, **options)

    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", counted)
    return sizes


async def subscribed(layer, url: str, group: str) -> None:
    """Wait until Redis has the group's subscription (the layer sends it and
    goes on): PUBSUB NUMSUB, asked until it says so."""
    client = redis.asyncio.Redis.from_url(url)
    name = layer._get_layer()._get_group_channel_name(group)
    try:
        for _ in range(500):
            if dict(await client.pubsub_numsub(name)).get(name.encode()):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("never subscribed")
    finally:
        await client.aclose()


async def test_publishes_that_queue_leave_together_each_once_and_in_order(
    layer, redis_url, monkeypatch
):
    one, two = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", one)
    await layer.group_add("g", two)
    await subscribed(layer, redis_url, "g")
    sizes = count_pipelines(monkeypatch)
    await asyncio.gather(*(layer.group_send("g", {"type": "m", "n": n}) for n in range(50)))
    for channel in (one, two):
        got = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(50)]
        assert got == list(range(50))
    assert sum(sizes) == 50 and len(sizes) < 50  # stock: one round trip per message
    await layer.group_send("g", {"type": "m", "n": 50})  # alone: a pipeline of one
    assert (await asyncio.wait_for(layer.receive(one), 5))["n"] == 50


async def test_a_failed_batch_fails_each_of_its_callers_and_the_next_one_goes_on():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens here
    gone = BatchingPubSubChannelLayer(hosts=[f"redis://127.0.0.1:{port}/0"], prefix="gone")
    sends = [gone.group_send("g", {"type": "m", "n": n}) for n in range(5)]
    results = await asyncio.wait_for(asyncio.gather(*sends, return_exceptions=True), 10)
    assert all(isinstance(r, redis.exceptions.ConnectionError) for r in results)
    with pytest.raises(redis.exceptions.ConnectionError):
        await asyncio.wait_for(gone.group_send("g", {"type": "m"}), 10)
    await gone.flush()
