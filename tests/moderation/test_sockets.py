"""The moderators' queue socket and a sanction's effect on open sockets,
through real websocket connections."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from moderation.services import report_file, user_moderate
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user, started_game
from tests.games.test_consumers import ORIGIN, connect, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def refused(path: str, user) -> int | None:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect()
    assert not connected
    return code


async def test_a_report_arrives_live_and_outsiders_are_refused():
    def build():
        return make_user("alice"), make_user("bob"), make_user("mod", moderator=True)

    alice, _bob, mod = await sync_to_async(build)()
    arbiter = await sync_to_async(make_user)(staff=True)
    for outsider in (None, alice, arbiter):
        assert await refused("/ws/moderation/", outsider) == 4403
    comm = await connect("/ws/moderation/", mod)
    first = await receive(comm, "queue")
    assert first["items"] == [] and first["open"] == 0
    await sync_to_async(report_file)(reporter=alice, username="bob", reason="abuse", text="rude")
    frame = await receive(comm, "report")
    assert frame["report"]["username"] == "bob" and frame["report"]["status"] == "open"
    assert frame["open"] == 1
    await sync_to_async(user_moderate)(
        moderator=mod, username="bob", action="warn", note="calm down"
    )
    settled = await receive(comm, "report")
    assert settled["report"]["status"] == "acted" and settled["open"] == 0
    await comm.disconnect()


async def test_a_suspended_players_open_game_socket_refuses_their_moves():
    def build():
        white, black = make_user(), make_user()
        return started_game(players=[white, black]), white, make_user(moderator=True)

    game, white, mod = await sync_to_async(build)()
    comm = await connect(f"/ws/game/{game.pk}/", white)
    await receive(comm, "hello")
    version = game.version
    await sync_to_async(user_moderate)(
        moderator=mod, username=white.username, action="suspend", days=1, note="x"
    )
    told = json.loads(await comm.receive_from(timeout=3))
    while told["type"] != "error":
        told = json.loads(await comm.receive_from(timeout=3))
    assert told["code"] == "suspended"
    await comm.send_json_to({"type": "act", "version": version, "action": FIRST_MOVE})
    refused_move = json.loads(await comm.receive_from(timeout=3))
    while refused_move["type"] != "error":
        refused_move = json.loads(await comm.receive_from(timeout=3))
    assert refused_move["code"] == "suspended"
    await game.arefresh_from_db()
    assert game.version == version
    await comm.disconnect()
