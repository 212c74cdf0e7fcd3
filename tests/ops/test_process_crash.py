"""SIGKILL the Daphne process the players are on, in the middle of a game, and
restart it on the same port: nothing committed is lost, the clients reconnect
and resync by themselves, and the game goes on to its end."""

from __future__ import annotations

import asyncio
import signal

import pytest

from .cluster import assert_acked_in_db, assert_matches_db, settle, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


async def test_sigkill_mid_game_and_restart(cluster):
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    gid, db = g["id"], cluster.db
    spectators = [await cluster.client(f"spectator{i}@B", b, gid) for i in (0, 1)]
    players = [
        await cluster.client(f"seat{s}@A", a, gid, cookie=g["cookies"][s], play=True)
        for s in (0, 1)
    ]
    clients = [*players, *spectators]

    await wait_until(lambda: players[0].last >= 25, 30, "25 versions", *clients)
    # Kill while a move is on its way: it is either committed (its ack lost)
    # or not (the player sends it again after reconnecting).
    players[1].act_sent.clear()
    await asyncio.wait_for(players[1].act_sent.wait(), 10)
    await asyncio.sleep(0.01)
    a.kill(signal.SIGKILL)
    killed_at = db.game(gid)["version"]
    # Whatever a player was acked before the crash is committed.
    assert_acked_in_db(players, db.events(gid))
    # Each player notices the loss (its client may spend up to its close
    # timeout, 1 s, on the dead socket first: a fixed 0.5 s was a race) ...
    await wait_until(
        lambda: all(not p.connected.is_set() for p in players), 10, "the loss", *clients
    )
    # ... and its reconnects fail while the process is down.
    await asyncio.sleep(0.5)
    assert all(not p.connected.is_set() for p in players)
    assert db.game(gid)["version"] == killed_at

    a.start()
    await a.ready()
    # The players come back by themselves (?since=<their version>) and play on.
    await wait_until(lambda: players[0].last >= killed_at + 20, 30, "play after restart", *clients)
    for p in players:
        p.paused = True
    version = await settle(db, gid, clients, 15)
    answer = await players[1].request({"type": "resign", "game": gid})
    assert answer == {"type": "ack", "version": version + 1, "ref": answer["ref"]}
    await wait_until(
        lambda: all(c.last == version + 1 for c in clients), 15, "the resign event", *clients
    )

    game = db.game(gid)
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [0]
    assert "resigned" in game["result"]["reason"]
    rows = db.assert_event_log_sound(gid)
    # A move in flight at the kill may be committed without its ack; no more.
    unacked = assert_acked_in_db(players, rows)
    assert len(unacked) <= 1, unacked
    print(f"killed at version {killed_at}; committed without ack: {sorted(unacked)}")
    for c in clients:
        c.assert_saw_all(game["version"])
        assert_matches_db(c, rows, game)
    for p in players:
        assert p.drops >= 1 and p.connects >= 2, p.summary()
    for s in spectators:
        # Process B never went away: its spectators stayed connected, and the
        # restarted A's moves reached them through Redis.
        assert s.drops == 0, s.summary()
        assert sum(1 for v, src in s.sources.items() if v > killed_at and src == "event") >= 15
