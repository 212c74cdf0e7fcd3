"""Graceful restarts (config/drain.py, config/health.py) with real Daphne
processes: the health probes answer without a session, and SIGTERM drains a
process (readyz 503, requests refused with 503, its leases handed over at
once, its sockets closed with 1012 and a retry hint after the move they were
making), while the pages move to the other process and play on."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
import redis

from .cluster import Daphne, assert_acked_in_db, assert_matches_db, settle, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


def fetch(server: Daphne, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(server.http + path, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


async def test_health_probes_answer_and_tell_a_lost_redis(cluster):
    private = await cluster.private_redis()
    [a] = await cluster.daphnes("daphne-a")
    for path in ("/healthz", "/readyz"):
        status, body = await asyncio.to_thread(fetch, a, path)
        assert (status, body) == (
            200,
            {"serving": True, "database": "ok", "redis": "ok", "draining": False},
        )
    private.kill(signal.SIGKILL)
    status, body = await asyncio.to_thread(fetch, a, "/healthz")
    assert status == 503
    assert body["database"] == "ok" and body["redis"] != "ok", body
    assert (await asyncio.to_thread(fetch, a, "/readyz"))[0] == 503


def lease_holder(cluster: Any, name: str) -> str | None:
    client = redis.Redis.from_url(cluster.redis_url, decode_responses=True)
    try:
        return client.get(f"{cluster.prefix}:lease:{name}")
    finally:
        client.close()


async def test_sigterm_drains_sockets_and_hands_over_leases(cluster):
    [a] = await cluster.daphnes("daphne-a", DRAIN_LISTEN_SECONDS="1", DRAIN_SECONDS="8")
    # A holds the deadline sweep's lease before B starts.
    await wait_until(
        lambda: (lease_holder(cluster, "deadlines") or "").startswith(f"{a.pid}-"), 10, "A's lease"
    )
    [b] = await cluster.daphnes("daphne-b")
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    gid, db = g["id"], cluster.db
    players = [
        await cluster.client(f"seat{s}@A", a, gid, cookie=g["cookies"][s], play=True, others=[b.ws])
        for s in (0, 1)
    ]
    watcher = await cluster.client("spectator@A", a, gid, others=[b.ws])
    clients = [*players, watcher]
    await wait_until(lambda: players[0].last >= 10, 30, "10 versions", *clients)

    # SIGTERM while a move is on its way: it is finished and acked first.
    players[1].act_sent.clear()
    await asyncio.wait_for(players[1].act_sent.wait(), 10)
    a.proc.send_signal(signal.SIGTERM)
    began = time.monotonic()
    assert await asyncio.to_thread(a.get, "/readyz") == 503
    assert await asyncio.to_thread(a.get, "/api/rulesets/") == 503
    assert await asyncio.to_thread(b.get, "/readyz") == 200
    # The lease is A's no more at once: not after it lapses (5 s).
    await wait_until(
        lambda: not (lease_holder(cluster, "deadlines") or "").startswith(f"{a.pid}-"),
        3,
        "the lease handed back",
        *clients,
    )
    handed_over = time.monotonic() - began
    assert handed_over < 2.0, handed_over

    await asyncio.to_thread(a.proc.wait, 10)
    stopped = time.monotonic() - began
    for c in clients:
        assert c.closes, c.summary()
        code, retry_ms = c.closes[0]
        assert code == 4012 and retry_ms is not None and 50 <= retry_ms <= 300, c.closes
    # The pages came back on B and play on.
    killed_at = db.game(gid)["version"]
    await wait_until(lambda: players[0].last >= killed_at + 10, 30, "play on B", *clients)
    assert all(c.base == b.ws for c in clients)
    for p in players:
        p.paused = True
    await settle(db, gid, clients, 15)
    rows = db.assert_event_log_sound(gid)
    game = db.game(gid)
    # Nothing was committed without its ack: the move under way was finished.
    assert assert_acked_in_db(players, rows) == set()
    for c in clients:
        c.assert_saw_all(game["version"])
        assert_matches_db(c, rows, game)
        assert c.drops == 1 and c.back_after and max(s for _, s in c.back_after) < 3.0, c.summary()
    print(f"lease handed over after {handed_over:.2f} s; A stopped after {stopped:.2f} s")
