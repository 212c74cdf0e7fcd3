"""Two Daphne processes share PostgreSQL and Redis: the players sit on
process A, the spectators watch on process B, and a whole Halma game is played
to a real result. Every frame of B's spectators crossed Redis."""

from __future__ import annotations

import pytest

from .cluster import assert_matches_db, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


async def test_whole_game_across_two_processes(cluster):
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    gid = g["id"]
    spectators = [await cluster.client(f"spectator{i}@B", b, gid) for i in (0, 1)]
    players = [
        await cluster.client(f"seat{s}@A", a, gid, cookie=g["cookies"][s], play=True)
        for s in (0, 1)
    ]
    clients = [*players, *spectators]
    assert [p.seat for p in players] == [0, 1]
    assert [s.seat for s in spectators] == [None, None]

    await wait_until(
        lambda: all(c.state["status"] == "finished" for c in clients),
        60,
        "the game to end on every client",
        *clients,
    )
    game = cluster.db.game(gid)
    await wait_until(
        lambda: all(c.last == game["version"] for c in clients), 10, "the last version", *clients
    )

    # A real result: the greedy line ends with White's 15 pieces home at ply 109.
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [0]
    assert "15 pieces" in game["result"]["reason"]
    assert game["version"] == 110

    rows = cluster.db.assert_event_log_sound(gid)
    assert [r["kind"] for r in rows] == ["start"] + ["act"] * 109
    for c in clients:
        c.assert_saw_all(game["version"])
        assert_matches_db(c, rows, game)
        assert c.drops == 0 and c.connects == 1, c.summary()
        # Nothing was lost on the way: a gap would mean a frame went missing.
        # Versions may come by a ping's sync when the ping races an event,
        # but nearly all must be pushed (through Redis, for B's spectators).
        assert c.gaps == 0, c.summary()
        assert c.pushed() >= 0.9 * 109, c.summary()
    # What each player was acked is exactly what the database holds.
    acked = {**players[0].acked, **players[1].acked}
    assert sorted(acked) == list(range(2, 111))
    for row in rows[1:]:
        assert acked[row["version"]] == row["action"]
    # Every client ends on the same view of the board.
    boards = {repr(c.state["view"]["board"]) for c in clients}
    assert len(boards) == 1
