"""Redis (the channel layer) dies and comes back in the middle of a game.

Moves live in PostgreSQL; the layer only notifies. While Redis is down and
after it is back, every move reaches every client (pushed, or caught up by the
ping's sync), nothing is lost and nothing is applied twice."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from .cluster import assert_acked_in_db, assert_matches_db, settle, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


async def test_redis_restart_mid_game(cluster):
    redis = await cluster.private_redis()
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    gid, db = g["id"], cluster.db
    # Each move has to cross processes: seat 0 is on A, seat 1 on B.
    spectators = [
        await cluster.client("spectator@A", a, gid),
        await cluster.client("spectator@B", b, gid),
    ]
    players = [
        await cluster.client("seat0@A", a, gid, cookie=g["cookies"][0], play=True),
        await cluster.client("seat1@B", b, gid, cookie=g["cookies"][1], play=True),
    ]
    clients = [*players, *spectators]

    await wait_until(lambda: players[0].last >= 20, 30, "20 versions", *clients)
    redis.kill(signal.SIGKILL)
    down_at = db.game(gid)["version"]
    await asyncio.sleep(1.5)
    redis.start()
    await redis.ready()
    up_time, up_at = time.monotonic(), db.game(gid)["version"]

    # Play goes on, and the layer pushes again (not only the pings' syncs
    # catching up): every client gets pushed events again.
    await wait_until(
        lambda: all(len(c.pushed_since(up_time)) >= 10 for c in clients),
        30,
        "pushed events after the restart",
        *clients,
    )
    recovered = max(min(c.applied_at[v] for v in c.pushed_since(up_time)) for c in clients)
    recovered -= up_time
    for p in players:
        p.paused = True
    version = await settle(db, gid, clients, 15)
    answer = await players[0].request({"type": "resign", "game": gid})
    assert answer["type"] == "ack" and answer["version"] == version + 1, answer
    await wait_until(
        lambda: all(c.last == version + 1 for c in clients), 15, "the resign event", *clients
    )

    game = db.game(gid)
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [1]
    rows = db.assert_event_log_sound(gid)
    unacked = assert_acked_in_db(players, rows)
    for c in clients:
        c.assert_saw_all(game["version"])
        assert_matches_db(c, rows, game)
    print(
        f"redis down at version {down_at}, up at {up_at}, game ended at {game['version']}; "
        f"pushes again {recovered:.2f}s after the restart; "
        f"committed without ack: {sorted(unacked)}"
    )
    for c in clients:
        print(c.summary())
