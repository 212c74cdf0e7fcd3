"""The channel layer sharded over two Redis servers (CHANNEL_LAYER_URLS,
channels_redis ``hosts``), as docs/deploy.md ("Which Redis holds what")
says: frames cross processes through both shards, everything the site
stores in Redis (leases, presence, limits) is on REDIS_URL alone, and a lost
shard costs pushed frames, never a move: the pages resync on their pings."""

from __future__ import annotations

import signal

import pytest
import redis

from .cluster import RedisServer, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


async def test_two_layer_shards_one_source_of_truth(cluster):
    main = await cluster.private_redis()
    shard = RedisServer("redis-shard", cluster.log_dir)
    cluster.processes.append(shard)
    shard.start()
    await shard.ready()
    a, b = await cluster.daphnes(
        "daphne-a", "daphne-b", CHANNEL_LAYER_URLS=f"{main.url},{shard.url}"
    )
    games = cluster.games(
        *({"players": cluster.player_names(), "clock": {"kind": "none"}} for _ in range(6))
    )
    players, watchers = [], []
    for g in games:
        for s in (0, 1):
            players.append(
                await cluster.client(
                    f"g{g['id']}s{s}@A", a, g["id"], cookie=g["cookies"][s], play=True
                )
            )
        watchers.append(await cluster.client(f"g{g['id']}w@B", b, g["id"]))
    clients = [*players, *watchers]
    await wait_until(lambda: all(w.last >= 8 for w in watchers), 60, "8 versions", *clients)
    # The moves made on A reached B's spectators pushed, through both shards.
    assert all(w.pushed() >= 4 for w in watchers), [w.summary() for w in watchers]
    main_client = redis.Redis.from_url(main.url, decode_responses=True)
    shard_client = redis.Redis.from_url(shard.url, decode_responses=True)
    try:
        assert shard_client.pubsub_channels() and main_client.pubsub_channels()
        assert shard_client.dbsize() == 0  # nothing stored on a layer shard
        stored = main_client.keys(f"{cluster.prefix}:*")
        assert any(":lease:" in k for k in stored), stored
    finally:
        main_client.close()
        shard_client.close()

    # A lost shard: its groups' frames stop, the pages' pings resync them.
    shard.kill(signal.SIGKILL)
    at = {w.name: w.last for w in watchers}
    await wait_until(
        lambda: all(w.last >= at[w.name] + 6 for w in watchers), 60, "play on", *clients
    )
    for w in watchers:
        assert not w.violations, w.summary()
