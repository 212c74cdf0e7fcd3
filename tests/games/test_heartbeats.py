"""A page's heartbeat is answered while its socket is busy with a move
(config/heartbeats.py); a flood of them still closes the socket."""

from __future__ import annotations

import asyncio
import json

import pytest

from config import heartbeats
from games.realtime import acts
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user, started_game
from tests.games.test_consumers import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)

HB = '{"type":"hb"}'


async def test_a_heartbeat_behind_a_move_in_flight_is_answered_before_its_ack(monkeypatch):
    white, black = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[white, black])
    sock = await connect(f"/ws/game/{game.pk}/", white)
    await receive(sock, "hello")
    moving, release = asyncio.Event(), asyncio.Event()
    real_act = acts.act

    async def held_act(**kwargs):
        moving.set()
        await release.wait()  # a move waiting for its row, its batch, a busy process
        return await real_act(**kwargs)

    monkeypatch.setattr(acts, "act", held_act)
    await sock.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE, "ref": "m"})
    await asyncio.wait_for(moving.wait(), 3)
    await sock.send_to(text_data=HB)
    assert await receive(sock, "hb") == {"type": "hb"}  # the move is still held: no ack yet
    release.set()
    assert (await receive(sock, "ack"))["version"] == 2
    await sock.disconnect()


async def test_heartbeats_past_the_direct_rate_go_to_the_socket_which_closes_a_flood():
    sock = await connect("/ws/lobby/")
    await receive(sock, "tables")
    for _ in range(100):
        await sock.send_to(text_data=HB)
    answers, closed = 0, None
    while closed is None:
        out = await sock.receive_output(timeout=3)
        if out["type"] == "websocket.close":
            closed = out
        else:
            answers += json.loads(out["text"])["type"] == "hb"
    assert closed["code"] == 4008
    assert heartbeats.PER_SECOND <= answers < 100


async def test_no_heartbeat_is_answered_before_the_socket_is_accepted():
    inbox = heartbeats.Inbox(receive=None, send=None)
    assert not inbox.open
    sent = []

    async def send(message):
        sent.append(message)

    inbox.send = send
    await inbox.sending({"type": "websocket.accept"})
    assert inbox.open
    await inbox.sending({"type": "websocket.close", "code": 1000})
    assert not inbox.open and [m["type"] for m in sent] == ["websocket.accept", "websocket.close"]
