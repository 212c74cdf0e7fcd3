"""Two server processes share PostgreSQL, and each runs the deadline sweeper
(every 0.2 s here). Deadlines that fall due at once are applied exactly once:
one timeout Event per game, the game finished once, every client told once."""

from __future__ import annotations

import asyncio

import pytest

from .cluster import wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]

GAMES = 8


async def test_exactly_one_sweeper_applies_each_timeout(cluster):
    clock = {"kind": "realtime", "minutes": 5, "increment": 0}
    # Casual: a rated game flagged before both sides moved is aborted instead.
    specs = [
        {"players": cluster.player_names(), "clock": clock, "rated": False} for _ in range(GAMES)
    ]
    games = cluster.games(*specs)
    ids = [g["id"] for g in games]
    db = cluster.db
    # ready() makes an HTTP request to each process, which starts its sweeper.
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    watchers = [
        await cluster.client(f"spectator@{s.name}", s, gid) for gid in ids[:2] for s in (a, b)
    ]
    for gid in ids:
        assert db.game(gid)["deadline"] is not None  # 5 minutes away
    await asyncio.sleep(0.5)  # both sweepers have polled: nothing due yet
    assert db.rows("SELECT id FROM games_game WHERE id = ANY(%s) AND version > 1", ids) == []

    # Every deadline falls due at the same moment; both sweepers see them all.
    db.rows("UPDATE games_game SET deadline = now() - interval '1 second' WHERE id = ANY(%s)", ids)
    cluster.wake("deadlines")  # as the moves that set the deadlines would
    await wait_until(
        lambda: all(db.game(gid)["status"] == "finished" for gid in ids),
        15,
        "every game to time out",
        *watchers,
    )
    await asyncio.sleep(1.0)  # several more sweeps by each process: nothing more happens

    for gid in ids:
        game = db.game(gid)
        rows = db.assert_event_log_sound(gid)
        assert [(r["version"], r["kind"]) for r in rows] == [(1, "start"), (2, "end")]
        assert rows[1]["seat"] == 0
        assert [e["type"] for e in rows[1]["events"]] == ["flagged", "game_over"]
        assert game["version"] == 2 and game["status"] == "finished"
        assert game["result"]["winners"] == [1]
        assert "ran out of time" in game["result"]["reason"]
        assert game["deadline"] is None
    assert db.duplicate_versions() == []
    await wait_until(lambda: all(w.last == 2 for w in watchers), 10, "the timeouts", *watchers)
    for w in watchers:
        w.assert_saw_all(2)
        assert w.state["status"] == "finished" and w.state["result"]["winners"] == [1]
