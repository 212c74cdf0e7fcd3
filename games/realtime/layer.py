"""The site's channel layer: channels_redis's pub/sub layer, its publishes batched.

channels_redis sends every group message of a process over one Redis
connection per shard, one ``PUBLISH`` and its reply at a time (a lock around
each). At saturation the moves' publishes queue on that lock, each then
costing its own write, read and wake-up. Here a publisher that gets the
lock sends every message queued by then in one pipeline (one write, one
read); those that queued behind it find theirs sent. Each caller still
waits until its own message has left (and hears the error if it did not),
and messages leave in the order they were queued.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts


class BatchingShard(RedisSingleShardConnection):
    """One Redis server of the layer, its publishes sent together."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._outbox: list[tuple[str, bytes, asyncio.Future[None]]] = []

    async def publish(self, channel: str, message: bytes) -> None:
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, sent))
        async with self._lock:
            if not sent.done():  # nobody ahead of us sent it: we send all queued
                await self._send_queued(sent)
        sent.result()  # this message's error, if it did not leave

    async def _send_queued(self, own: asyncio.Future[None]) -> None:
        """Send the queued messages; each caller's future says how it went."""
        batch, self._outbox = self._outbox, []
        error: Exception | None = None
        try:
            self._ensure_redis()
            async with self._redis.pipeline(transaction=False) as pipe:
                for channel, message, _sent in batch:
                    pipe.publish(channel, message)
                await pipe.execute()
        except Exception as exc:
            error = exc
        except BaseException:  # cancelled: nobody waits for the batch forever
            own.cancel()
            error = ConnectionError("publishing was cut short")
            raise
        finally:
            for _channel, _message, sent in batch:
                if sent.done():
                    continue  # its caller gave up waiting (or is us, cancelled)
                if error is None:
                    sent.set_result(None)
                else:
                    sent.set_exception(error)


class BatchingLoopLayer(RedisPubSubLoopLayer):
    """channels_redis's layer for one event loop, on batching shards."""

    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [BatchingShard(host, self) for host in decode_hosts(hosts)]


class BatchingPubSubChannelLayer(RedisPubSubChannelLayer):
    """``channels_redis.pubsub.RedisPubSubChannelLayer`` with batched publishes
    (settings ``CHANNEL_LAYERS``); everything else is its own."""

    def _get_layer(self) -> BatchingLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = BatchingLoopLayer(
                *self._args, **self._kwargs, channel_layer=self
            )
            _wrap_close(self, loop)
        return layer
