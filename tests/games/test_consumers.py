"""The game and lobby sockets through real websocket connections (channels' communicator)."""

from __future__ import annotations

import json

import pytest
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings

from config.asgi import application
from games.models import ChatMessage, Event, Game
from games.realtime import consumers
from tests.db_threads import sync_to_async
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(path: str, user=None, origin=ORIGIN) -> WebsocketCommunicator:
    headers = [origin]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def next_error(comm: WebsocketCommunicator) -> dict:
    while True:
        frame = json.loads(await comm.receive_from(timeout=3))
        if frame["type"] == "error":
            return frame


async def receive(comm: WebsocketCommunicator, kind: str | None = None, timeout: float = 3) -> dict:
    """The next frame of ``kind``, skipping others (but never an unexpected error)."""
    while True:
        frame = json.loads(await comm.receive_from(timeout=timeout))
        if kind is None or frame["type"] == kind:
            return frame
        if frame["type"] == "error":
            raise AssertionError(f"expected {kind}, got {frame}")


@pytest.fixture
async def table():
    def build():
        white, black = make_user(), make_user()
        return started_game(players=[white, black]), white, black

    game, white, black = await sync_to_async(build)()
    return game, white, black


async def open_three(game):
    white = await sync_to_async(lambda: game.seats.get(index=0).user)()
    black = await sync_to_async(lambda: game.seats.get(index=1).user)()
    path = f"/ws/game/{game.pk}/"
    socks = [await connect(path, white), await connect(path, black), await connect(path)]
    hellos = [await receive(s, "hello") for s in socks]
    return socks, hellos


async def close_all(socks):
    for s in socks:
        await s.disconnect()


async def play_and_watch(game):
    socks, hellos = await open_three(game)
    assert [h["seat"] for h in hellos] == [0, 1, None]
    assert hellos[0]["state"]["legal"], "the seat to move gets its legal actions"
    assert hellos[1]["state"]["legal"] == [] and hellos[2]["state"]["legal"] == []
    assert "seed" not in json.dumps(hellos[2])
    await socks[0].send_json_to(
        {"type": "act", "game": game.pk, "version": 1, "action": FIRST_MOVE, "ref": "a"}
    )
    ack = await receive(socks[0], "ack")
    assert ack == {"type": "ack", "version": 2, "ref": "a"}
    for s in socks:
        frame = await receive(s, "event")
        assert frame["version"] == 2
        assert frame["event"]["events"][0]["path"] == FIRST_MOVE["path"]
        assert frame["state"]["to_act"] == [1]
    await close_all(socks)


async def test_move_reaches_players_and_spectators(table):
    await play_and_watch(table[0])


async def test_move_reaches_everyone_through_redis(table, redis_url):
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": "test-consumers"},
        }
    }
    with override_settings(CHANNEL_LAYERS=layers):
        try:
            await play_and_watch(table[0])
        finally:
            await channel_layers["default"].flush()
            channel_layers.backends.clear()


@pytest.mark.parametrize(
    ("who", "frame", "code"),
    [
        ("white", "not json", "bad_request"),
        ("white", "[1, 2]", "bad_request"),
        ("white", '{"type": "dance"}', "unknown_type"),
        (
            "white",
            '{"type": "act", "version": 1, "action": {"type": "move", "path": [[0, 0]]}}',
            "illegal",
        ),
        (
            "white",
            '{"type": "act", "version": 0, "action": {"type": "move", "path": [[5, 9], [4, 9]]}}',
            "stale_version",
        ),
        ("white", '{"type": "act", "version": 1, "action": "move"}', "bad_request"),
        ("white", '{"type": "act", "game": 424242, "version": 1, "action": {}}', "wrong_game"),
        (
            "black",
            '{"type": "act", "version": 1, "action": {"type": "move", "path": [[4, 0], [5, 0]]}}',
            "not_your_turn",
        ),
        (
            "spectator",
            '{"type": "act", "version": 1, "action": {"type": "move", "path": [[5, 9], [4, 9]]}}',
            "login_required",
        ),
        ("spectator", '{"type": "resign"}', "login_required"),
    ],
)
async def test_bad_frames_get_errors_and_change_nothing(table, who, frame, code):
    game = table[0]
    socks, _ = await open_three(game)
    sock = {"white": socks[0], "black": socks[1], "spectator": socks[2]}[who]
    await sock.send_to(text_data=frame)
    error = await receive(sock, "error")
    assert error["code"] == code and error["message"]
    await sync_to_async(game.refresh_from_db)()
    assert game.version == 1
    assert await sync_to_async(Event.objects.filter(game=game).count)() == 1
    await close_all(socks)


async def test_seated_stranger_cannot_act(table):
    game = table[0]
    stranger = await sync_to_async(make_user)()
    sock = await connect(f"/ws/game/{game.pk}/", stranger)
    hello = await receive(sock, "hello")
    assert hello["seat"] is None
    await sock.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE})
    assert (await receive(sock, "error"))["code"] == "not_seated"
    await sock.disconnect()


async def test_sync_and_ping_catch_up(table, monkeypatch):
    game, white, black = table
    path = f"/ws/game/{game.pk}/"
    # The channel layer is at-most-once: white's socket loses the push of version 3.
    pushed = consumers.GameConsumer.game_frames

    async def losing_v3(self, message):
        if not (self.user == white and message["version"] == 3):
            await pushed(self, message)

    monkeypatch.setattr(consumers.GameConsumer, "game_frames", losing_v3)
    w = await connect(path, white)
    await receive(w, "hello")
    await w.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE})
    await receive(w, "ack")
    b = await connect(path + "?since=1", black)
    hello = await receive(b, "hello")
    assert hello["since"] == 1 and [e["version"] for e in hello["events"]] == [2]
    await b.send_json_to({"type": "act", "version": 2, "action": BLACK_MOVE})
    await receive(b, "ack")
    # A page that missed version 3 asks with its old version and gets it back.
    await w.send_json_to({"type": "ping", "version": 2})
    pong = await receive(w, "pong")
    assert pong["version"] == 3
    sync = await receive(w, "sync")
    assert [e["version"] for e in sync["events"]] == [3]
    assert sync["state"]["version"] == 3
    await w.send_json_to({"type": "sync", "version": "junk"})
    assert (await receive(w, "error"))["code"] == "bad_request"
    await w.send_json_to({"type": "sync"})
    assert len((await receive(w, "sync"))["events"]) == 3
    await w.disconnect()
    await b.disconnect()


async def test_watchers_are_counted(table):
    game = table[0]
    path = f"/ws/game/{game.pk}/"
    one = await connect(path)
    hello = await receive(one, "hello")
    assert hello["watchers"] == 1
    two = await connect(path)
    await receive(two, "hello")
    counts = []
    while not counts or counts[-1] != 2:
        frame = json.loads(await one.receive_from(timeout=3))
        if frame["type"] == "watchers":
            counts.append(frame["count"])
    await two.disconnect()
    await one.disconnect()


async def test_foreign_origin_is_refused(table):
    game = table[0]
    comm = WebsocketCommunicator(
        application, f"/ws/game/{game.pk}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


async def test_unknown_game_closes():
    comm = WebsocketCommunicator(application, "/ws/game/99999/", headers=[ORIGIN])
    connected, code = await comm.connect()
    assert not connected and code == 4404


async def test_lobby_pushes_new_tables():
    host = await sync_to_async(make_user)()
    lobby = await connect("/ws/lobby/", host)
    snapshot = await receive(lobby, "tables")
    assert snapshot["tables"] == []
    from lobby.services import table_create

    game = await sync_to_async(table_create)(host=host, ruleset="halma")
    update = await receive(lobby, "table")
    assert update["table"]["id"] == game.pk and update["table"]["status"] == Game.Status.OPEN
    await lobby.send_to(text_data='{"type": "act"}')
    assert (await receive(lobby, "error"))["code"] == "unknown_type"
    await lobby.disconnect()


async def test_draws_chat_and_abort_through_the_socket(table):
    game = table[0]
    socks, _ = await open_three(game)
    await socks[0].send_json_to({"type": "offer_draw"})
    assert (await receive(socks[0], "ack"))["version"] == 2
    frame = await receive(socks[2], "event")
    assert frame["state"]["draw_offers"] == [0]
    await socks[0].send_json_to({"type": "accept_draw"})
    assert (await receive(socks[0], "error"))["code"] == "no_offer"
    await socks[1].send_json_to({"type": "decline_draw"})
    await receive(socks[1], "ack")
    fan = await sync_to_async(make_user)("fan")
    stands = await connect(f"/ws/game/{game.pk}/", fan)
    await receive(stands, "hello")
    await stands.send_json_to({"type": "chat", "text": "hi from the stands"})
    message = (await receive(socks[0], "chat"))["message"]
    assert message == {**message, "user": "fan", "spectator": True, "text": "hi from the stands"}
    await stands.disconnect()
    await socks[2].send_json_to({"type": "abort"})
    assert (await receive(socks[2], "error"))["code"] == "login_required"
    await socks[1].send_json_to({"type": "abort"})
    await receive(socks[1], "ack")
    await sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.ABORTED
    await close_all(socks)


async def test_chat_needs_login_and_respects_limits(table):
    game, white, _ = table
    spectator = await connect(f"/ws/game/{game.pk}/")
    await receive(spectator, "hello")
    await spectator.send_json_to({"type": "chat", "text": "anon"})
    assert (await receive(spectator, "error"))["code"] == "login_required"
    w = await connect(f"/ws/game/{game.pk}/", white)
    await receive(w, "hello")
    await w.send_json_to({"type": "chat", "text": "x" * 600})
    assert (await receive(w, "error"))["code"] == "too_long"
    await w.disconnect()
    await spectator.disconnect()


async def test_chat_over_the_rate_is_refused_with_when_to_try_again(table, settings):
    game, white, _ = table
    count, seconds = settings.CHAT_RATE
    w = await connect(f"/ws/game/{game.pk}/", white)
    await receive(w, "hello")
    for i in range(count):
        await w.send_json_to({"type": "chat", "text": f"line {i}"})
        assert (await receive(w, "chat"))["message"]["text"] == f"line {i}"
    await w.send_json_to({"type": "chat", "text": "one too many", "ref": "c"})
    refused = await receive(w, "error")
    assert refused["code"] == "rate_limited" and refused["ref"] == "c"
    assert 0 < refused["retry_after"] <= seconds
    assert f"try again in {refused['retry_after']} seconds" in refused["message"]
    await w.disconnect()


async def test_a_user_over_the_budget_of_all_their_sockets_is_told_when_to_try_again(
    table, monkeypatch
):
    """The per-user budget answers with an error frame; only a socket's own
    flood closes it (4008)."""
    from games import ratelimit

    monkeypatch.setitem(ratelimit.USER_LIMITS, "act", (2, 5))
    game, white, _ = table
    tabs = [await connect(f"/ws/game/{game.pk}/", white) for _ in range(2)]
    for tab in tabs:
        await receive(tab, "hello")
    stale = {"type": "act", "game": game.pk, "version": 0, "action": FIRST_MOVE}
    for i, tab in enumerate(tabs):
        await tab.send_json_to({**stale, "ref": i})
        assert (await receive(tab, "error"))["code"] == "stale_version"
    await tabs[0].send_json_to({**stale, "ref": "x"})
    refused = await receive(tabs[0], "error")
    assert refused["code"] == "rate_limited" and refused["ref"] == "x"
    assert 0 < refused["retry_after"] <= 5
    await tabs[0].send_json_to({"type": "ping", "version": 1})
    assert (await receive(tabs[0], "pong"))["version"] == 1  # still open
    await close_all(tabs)


async def test_notify_socket_lists_and_marks_read(table):
    game, _, black = table
    from games.models import Notification
    from games.services.internal.notifications import notify

    await sync_to_async(notify)(
        user_ids=[black.pk],
        kind=Notification.Kind.YOUR_TURN,
        game=game,
        params={"game": game.pk, "title": "Halma"},
    )
    sock = await connect("/ws/notify/", black)
    first = await receive(sock, "notifications")
    assert first["items"][0]["text"].startswith("Your turn")
    await sock.send_json_to({"type": "read", "ids": "all"})
    assert (await receive(sock, "error"))["code"] == "bad_request"
    await sock.send_json_to({"type": "read"})
    assert (await receive(sock, "notifications"))["items"][0]["read"] is True
    await sock.disconnect()
    anon = WebsocketCommunicator(application, "/ws/notify/", headers=[ORIGIN])
    connected, code = await anon.connect()
    assert not connected and code == 4401


async def test_messages_follow_the_language_cookie(table):
    game, white, _ = table
    cookie = await sync_to_async(session_cookie)(white)
    comm = WebsocketCommunicator(
        application,
        f"/ws/game/{game.pk}/",
        headers=[ORIGIN, (b"cookie", cookie + b"; django_language=de")],
    )
    assert (await comm.connect())[0]
    hello = await receive(comm, "hello")
    assert hello["seats"][0]["name"] == "Weiß"
    await comm.send_json_to({"type": "act", "version": 0, "action": FIRST_MOVE})
    error = await receive(comm, "error")
    assert error["code"] == "stale_version"
    assert error["message"] != "Your view was out of date; the game has moved on."
    await comm.disconnect()


async def test_a_flooding_socket_is_closed_with_4008(table):
    game, white, _ = table
    sock = await connect(f"/ws/game/{game.pk}/", white)
    await receive(sock, "hello")
    for _ in range(80):
        await sock.send_to(text_data="junk")
    closed = None
    for _ in range(200):
        message = await sock.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            closed = message
            break
    assert closed is not None and closed["code"] == 4008
    await sync_to_async(game.refresh_from_db)()
    assert game.version == 1


async def test_a_stuck_publish_does_not_hold_back_the_ack(table, monkeypatch):
    # A Redis that is gone can leave a publish hanging: the move is stored, so
    # the mover still gets its ack and the others catch up through sync.
    import asyncio

    from games.realtime import sending

    game, white, _ = table
    path = f"/ws/game/{game.pk}/"
    sock = await connect(path, white)
    await receive(sock, "hello")
    layer = channel_layers["default"]
    real_send = layer.group_send

    async def stuck(group, message):
        if message["type"] == "game.frames":
            await asyncio.sleep(3600)
        await real_send(group, message)

    monkeypatch.setattr(sending, "PUBLISH_TIMEOUT", 0.2)
    monkeypatch.setattr(layer, "group_send", stuck)
    await sock.send_json_to({"type": "act", "game": game.pk, "version": 1, "action": FIRST_MOVE})
    ack = await receive(sock, "ack", timeout=3)
    assert ack["version"] == 2
    await sock.send_json_to({"type": "sync", "version": 1})
    synced = await receive(sock, "sync")
    assert [e["version"] for e in synced["events"]] == [2]
    await sock.disconnect()


async def test_a_failure_of_the_server_is_an_error_frame_not_a_close(table, monkeypatch):
    """A database gone (or a bug) answers the frame with a clear error; the
    socket stays open (channels would close it with 1011)."""
    from django.db import OperationalError

    from games.realtime import consumers

    game, white, _ = table

    def broken(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setitem(consumers.SEAT_COMMANDS, "resign", broken)
    comm = await connect(f"/ws/game/{game.pk}/", white)
    await receive(comm, "hello")
    await comm.send_to(text_data=json.dumps({"type": "resign", "ref": "r1"}))
    error = await next_error(comm)
    assert error["type"] == "error" and error["code"] == "unavailable" and error["ref"] == "r1"
    assert "database" in error["message"]
    monkeypatch.setitem(consumers.SEAT_COMMANDS, "resign", lambda **kw: 1 / 0)
    await comm.send_to(text_data=json.dumps({"type": "resign", "ref": "r2"}))
    error = await next_error(comm)
    assert error["code"] == "server_error" and "Traceback" not in error["message"]
    # Still open and answering.
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive(comm, "pong"))["type"] == "pong"
    await comm.disconnect()


async def test_a_page_that_missed_its_table_filling_up_catches_up_at_its_ping(monkeypatch):
    """Joins move no version: the pong says how many seats are taken, so a
    page whose push was lost (another process's layer, say) asks for sync."""
    from games import publish
    from lobby import services as lobby

    host, guest = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(lobby.table_create)(host=host, ruleset="halma")
    comm = await connect(f"/ws/game/{game.pk}/", host)
    hello = await receive(comm, "hello")
    assert hello["table"]["taken"] == 1
    monkeypatch.setattr(publish, "publish_table", lambda game: None)  # the push is lost
    await sync_to_async(lobby.table_join)(game_id=game.pk, user=guest)
    await comm.send_json_to({"type": "ping", "game": game.pk, "version": 0})
    pong = await receive(comm, "pong")
    assert pong == {"type": "pong", "version": 0, "status": "open", "taken": 2}
    await comm.send_json_to({"type": "sync", "version": 0})
    assert (await receive(comm, "sync"))["table"]["taken"] == 2
    await comm.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "chat", "text": "hi\\u0000"}',
        '{"type": "chat", "text": "\\ud800 hi"}',
        '{"type": "act", "version": 1, "action": {"type": "move", "path": [[5, 9], [4, 9]], "x": "\\u0000"}}',
        '{"type": "act", "version": 1, "action": {"type": "move", "path": [[5, 9], [4, 9]], "\\udc00": 1}}',
        '{"type": "remis", "kind": "deadlock", "reason": "stuck\\u0000"}',
        '{"type": "act", "version": 1, "action": ' + '{"a": ' * 70 + "1" + "}" * 70 + "}",
    ],
)
async def test_nul_lone_surrogates_and_deep_nesting_are_bad_requests_the_socket_survives(
    table, frame
):
    """Neither database stores them (PostgreSQL refuses NUL, nothing encodes a
    lone surrogate): refused at the frame, no 1011 close, nothing changed."""
    game, white, _ = table
    sock = await connect(f"/ws/game/{game.pk}/", white)
    await receive(sock, "hello")
    await sock.send_to(text_data=frame)
    error = await receive(sock, "error")
    assert error["code"] == "bad_request" and error["message"]
    await sock.send_json_to({"type": "ping", "version": 1})
    assert (await receive(sock, "pong"))["version"] == 1, "the socket is still open"
    assert await sync_to_async(Event.objects.filter(game=game).count)() == 1
    assert not await sync_to_async(ChatMessage.objects.filter(game=game).exists)()
    await sock.disconnect()


async def test_a_stored_result_whose_text_does_not_format_still_says_hello(table):
    game = table[0]
    result = {"winners": [0], "draw": False, "reason": "%(nope)s", "reason_params": {"x": 1}}
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(status="finished", result=result)
    sock = await connect(f"/ws/game/{game.pk}/")
    hello = await receive(sock, "hello")
    assert hello["state"]["result_text"] == "%(nope)s"
    await sock.disconnect()


async def test_every_socket_answers_the_heartbeat_at_once_with_nothing_else(table, monkeypatch):
    """The pages' ``hb`` (socket.js): a tiny answer on every socket, before any
    shared budget or lookup, so a silent link shows within seconds (before: an
    ``unknown_type`` error, or a queue read on the staff sockets)."""
    from games.ratelimit import ConnectionBudget

    game, white, _black = table
    mod = await sync_to_async(make_user)(moderator=True)
    socks = [
        (await connect(f"/ws/game/{game.pk}/", white), "hello"),
        (await connect("/ws/lobby/"), "tables"),
        (await connect("/ws/notify/", white), "notifications"),
        (await connect("/ws/moderation/", mod), "queue"),
    ]
    for sock, first in socks:
        await receive(sock, first)

    async def no_lookups(self, kind):
        raise AssertionError(f"the heartbeat spent a shared budget ({kind})")

    monkeypatch.setattr(ConnectionBudget, "user_wait", no_lookups)
    for sock, _first in socks:
        await sock.send_to(text_data='{"type":"hb"}')
        assert await receive(sock, "hb") == {"type": "hb"}
        await sock.disconnect()
