"""Database connections stay bounded by configuration, whatever the traffic,
and a connection PostgreSQL drops costs a player nothing but a retry.

Under ASGI each HTTP request runs on a thread of its own: with persistent
per-thread connections every request left one open for good, and about 100
page loads exhausted PostgreSQL. Each process now holds at most
DB_POOL_MAX (Django's pool) + MOVES_POOL_SIZE (the event loop's move pool).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from .cluster import wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]

POOL = {"DB_POOL_MIN": "1", "DB_POOL_MAX": "3", "MOVES_POOL_SIZE": "2"}
PER_PROCESS = 3 + 2
FIRST_MOVE = {"type": "move", "path": [[5, 9], [4, 9]]}  # White steps up
BLACK_MOVE = {"type": "move", "path": [[4, 0], [5, 0]]}  # Black steps down


class ConnectionSampler:
    """Counts the database's sessions (ours excepted) until stopped; keeps the peak."""

    def __init__(self, db) -> None:
        self.db = db
        self.peak = 0
        self.samples = 0
        self.stop = threading.Event()

    def count(self) -> int:
        [row] = self.db.rows(
            "SELECT count(*) AS n FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return row["n"]

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, self.count())
            self.samples += 1
            self.stop.wait(0.01)


async def test_two_hundred_requests_stay_within_the_pools(cluster):
    servers = await cluster.daphnes("daphne-a", "daphne-b", **POOL)
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    paths = ["/", f"/g/{g['id']}/", "/api/rulesets/", f"/api/games/{g['id']}/", "/api/tables/"]
    sampler = ConnectionSampler(cluster.db)
    watcher = threading.Thread(target=sampler.run, daemon=True)
    watcher.start()
    # Two players moving on process A the whole time: the loop's pool is busy too.
    players = [
        await cluster.client(f"seat{s}", servers[0], g["id"], cookie=g["cookies"][s], play=True)
        for s in (0, 1)
    ]
    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            jobs = [
                pool.submit(servers[i % 2].get, paths[i % len(paths)], 15.0) for i in range(200)
            ]
            statuses = await asyncio.to_thread(lambda: [j.result() for j in jobs])
        await wait_until(lambda: players[0].last >= 10, 30, "ten moves", *players)
    finally:
        sampler.stop.set()
        watcher.join(5)
    print(
        f"\n200 requests + moves on 2 processes: peak {sampler.peak} sessions ({sampler.samples} samples)"
    )
    assert statuses == [200] * 200
    assert sampler.samples > 10
    assert 0 < sampler.peak <= 2 * PER_PROCESS, f"peak {sampler.peak} sessions"
    # Once the traffic is gone, the pools keep what they hold, and nothing more.
    assert sampler.count() <= 2 * PER_PROCESS


async def test_a_move_on_a_dropped_connection_is_made_anyway(cluster):
    [server] = await cluster.daphnes("daphne", **POOL)
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    white, black = [
        await cluster.client(f"seat{s}", server, g["id"], cookie=g["cookies"][s]) for s in (0, 1)
    ]
    assert (await white.act(FIRST_MOVE))["type"] == "ack"
    await wait_until(lambda: black.last == 2, 10, "black to see the move", black)
    cluster.db.rows(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    # The move's pooled connection is dead: tried again on a fresh one.
    reply = await black.act(BLACK_MOVE)
    assert reply["type"] == "ack", reply
    # Work in the thread pool (a chat line, a page) finds healthy connections too.
    assert (await white.request({"type": "resign", "game": g["id"]}))["type"] == "ack"
    assert server.get(f"/g/{g['id']}/") == 200
    assert white.drops == 0 and black.drops == 0
    assert cluster.db.game(g["id"])["status"] == "finished"
