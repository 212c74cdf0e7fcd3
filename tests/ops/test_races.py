"""Exactly one outcome, through the real path (websockets, two Daphne
processes, PostgreSQL row locks, the unique (game, version) constraint)."""

from __future__ import annotations

import asyncio
import time

import pytest

from .cluster import greedy, settle, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


def assert_no_duplicate_events(db) -> None:
    assert db.duplicate_versions() == []
    constraint = db.rows(
        "SELECT pg_get_constraintdef(oid) AS d FROM pg_constraint WHERE conname = %s",
        "event_unique_version",
    )
    assert constraint and "UNIQUE (game_id, version)" in constraint[0]["d"]


# Seconds after the deadline at which each game's move is sent: some well
# before (the move must win), some around it, some after (the timeout wins).
OFFSETS = [-0.8, -0.1, -0.05, -0.02, 0.0, 0.02, 0.05, 0.1, 0.3]


async def test_move_racing_the_timeout(cluster):
    clock = {"kind": "realtime", "minutes": 5, "increment": 0}
    # Casual: a rated game flagged before both sides moved is aborted instead.
    spec = {"clock": clock, "rated": False}
    games = cluster.games(*({"players": cluster.player_names(), **spec} for _ in OFFSETS))
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    db = cluster.db
    servers = [a, b]
    movers = [
        await cluster.client(f"g{g['id']}-seat0", servers[i % 2], g["id"], cookie=g["cookies"][0])
        for i, g in enumerate(games)
    ]
    ids = [g["id"] for g in games]
    [row] = db.rows(
        "UPDATE games_game SET deadline = now() + interval '2 seconds' "
        "WHERE id = ANY(%s) RETURNING extract(epoch FROM deadline)::float AS at",
        ids,
    )[:1]
    due = row["at"]
    cluster.wake("deadlines")  # as the moves that set the deadlines would

    async def move_at(client, offset):
        action = greedy(0, client.state["legal"])
        await asyncio.sleep(max(due + offset - time.time(), 0))
        return action, await client.act(action, version=1)

    answers = await asyncio.gather(*(move_at(c, o) for c, o in zip(movers, OFFSETS, strict=True)))
    # A refused move's game ends by the timeout: wait for the sweeper to apply it.
    refused = [
        gid for gid, (_, answer) in zip(ids, answers, strict=True) if answer["type"] != "ack"
    ]
    await wait_until(
        lambda: all(db.game(gid)["status"] == "finished" for gid in refused),
        30,
        "the timeouts of the refused moves",
    )

    outcomes = []
    for gid, offset, (action, answer) in zip(ids, OFFSETS, answers, strict=True):
        game = db.game(gid)
        rows = db.assert_event_log_sound(gid)
        kinds = [r["kind"] for r in rows]
        if answer["type"] == "ack":
            # The move won: applied once, no timeout, the clock runs for Black.
            assert answer["version"] == 2
            assert kinds == ["start", "act"], (offset, kinds)
            assert rows[1]["action"] == action
            assert game["status"] == "active" and game["to_act"] == [1]
            outcomes.append("move")
        else:
            # The timeout won: the move was refused, nothing of it is stored.
            assert answer["code"] in ("deadline_passed", "game_over", "stale_version"), answer
            assert kinds == ["start", "end"], (offset, kinds)
            assert rows[1]["events"][0]["type"] == "flagged"
            assert game["status"] == "finished" and game["result"]["winners"] == [1]
            outcomes.append(answer["code"])
    assert outcomes[0] == "move"  # 0.8 s before the deadline
    assert outcomes[-1] != "move"  # 0.3 s after it
    print("offset -> outcome:", dict(zip(OFFSETS, outcomes, strict=True)))
    assert_no_duplicate_events(db)


async def test_two_tabs_of_one_player_move_on_the_same_version(cluster):
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    gid, db = g["id"], cluster.db
    # Each player has a tab on each process.
    tabs = {
        seat: [
            await cluster.client(f"seat{seat}-tab@A", a, gid, cookie=g["cookies"][seat]),
            await cluster.client(f"seat{seat}-tab@B", b, gid, cookie=g["cookies"][seat]),
        ]
        for seat in (0, 1)
    }
    clients = [*tabs[0], *tabs[1]]
    for _ in range(6):
        version = await settle(db, gid, clients, 10)
        seat = clients[0].state["to_act"][0]
        first, second = tabs[seat]
        legal = sorted(first.state["legal"], key=lambda m: m["path"])
        moves = [legal[0], legal[-1]]
        assert moves[0] != moves[1]
        answers = await asyncio.gather(
            first.act(moves[0], version=version), second.act(moves[1], version=version)
        )
        acks = [i for i, ans in enumerate(answers) if ans["type"] == "ack"]
        assert len(acks) == 1, answers
        winner, loser = acks[0], 1 - acks[0]
        assert answers[winner]["version"] == version + 1
        assert answers[loser]["type"] == "error", answers
        assert answers[loser]["code"] == "stale_version", answers
        assert answers[loser]["version"] == version + 1
        rows = db.assert_event_log_sound(gid)
        assert rows[-1]["version"] == version + 1
        assert (rows[-1]["seat"], rows[-1]["action"]) == (seat, moves[winner])
    final = await settle(db, gid, clients, 10)
    assert final == 7
    for c in clients:
        c.assert_saw_all(final)
    assert_no_duplicate_events(db)


async def test_replayed_act_frames_are_stale(cluster):
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    gid, db = g["id"], cluster.db
    white = await cluster.client("seat0@A", a, gid, cookie=g["cookies"][0])
    black = await cluster.client("seat1@B", b, gid, cookie=g["cookies"][1])
    white_tab = await cluster.client("seat0-tab@B", b, gid, cookie=g["cookies"][0])
    clients = [white, black, white_tab]

    sent = []
    for player in (white, black, white):
        await settle(db, gid, clients, 10)
        frame = {
            "type": "act",
            "game": gid,
            "version": player.last,
            "action": greedy(player.seat, player.state["legal"]),
        }
        answer = await player.request(frame)
        assert answer["type"] == "ack", answer
        sent.append((player, frame))
    version = await settle(db, gid, clients, 10)
    assert version == 4
    before = db.events(gid)

    # The same frames again (resent by a page, replayed from a log, or by a
    # second tab of the player on the other process): each is refused as stale.
    for player, frame in [*sent, (white_tab, sent[0][1]), (white_tab, sent[2][1])]:
        answer = await player.request(frame)
        assert answer["type"] == "error" and answer["code"] == "stale_version", answer
        assert answer["version"] == version
    await asyncio.sleep(0.3)
    assert db.events(gid) == before
    assert db.game(gid)["version"] == version
    for c in clients:
        assert c.last == version
        c.assert_saw_all(version)
    assert_no_duplicate_events(db)
