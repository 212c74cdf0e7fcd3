"""A socket only ever receives what its user may see now.

- A socket opened before its user changed seats (left one, took another, or
  left the table) gets a fresh hello for the seat held now, and never a frame
  of the seat it held before (Hexenhalma's secret orders are the test).
- Through Redis, a group message carries only what every member of that
  group may see: a team's orders travel only to that team's user group.
"""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from channels.layers import channel_layers
from django.test import override_settings

from games.models import Game
from games.services.play import game_act
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import make_user

from .frame_views import Views
from .test_consumers import close_all, connect, receive
from .test_hexenhalma_platform import OPEN, PLAIN, SECRET

pytestmark = pytest.mark.django_db(transaction=True)
# Words only team-with-SECRET's orders contain (PLAIN walks only).
SECRET_WORDS = ('"fly"', '"ban_to"', '"spell": "K"')


class Recorder:
    """Every frame one socket receives, in order."""

    def __init__(self, comm) -> None:
        self.comm = comm
        self.frames: list[dict] = []
        self.views = Views()  # each event frame's view, as the page rebuilds it

    async def until(self, predicate, what: str) -> dict:
        for frame in self.frames:
            if predicate(frame):
                return frame
        while True:
            try:
                frame = json.loads(await self.comm.receive_from(timeout=5))
            except TimeoutError:
                raise AssertionError(f"never received {what}; got {self.frames}") from None
            self.frames.append(self.views.feed(frame))
            if predicate(frame):
                return frame

    async def at_version(self, version: int) -> dict:
        return await self.until(
            lambda f: f["type"] in ("event", "hello", "sync") and _version(f) >= version,
            f"version {version}",
        )

    def text(self) -> str:
        return json.dumps(self.frames, ensure_ascii=False)


def _version(frame: dict) -> int:
    return frame["state"]["version"] if "state" in frame else frame["version"]


def assert_secret_free(text: str, who: str) -> None:
    for word in SECRET_WORDS:
        assert word not in text, f"{who} received {word}"


async def test_sockets_follow_seat_changes_and_never_see_a_former_seat():
    def table():
        gm, mover, leaver, newcomer = (make_user() for _ in range(4))
        game = lobby.table_create(host=gm, ruleset="hexenhalma", seat_count=3)
        lobby.table_join(game_id=game.pk, user=leaver, seat=1)
        lobby.table_join(game_id=game.pk, user=mover, seat=2)
        return game.pk, gm, mover, leaver, newcomer

    game_id, gm, mover, leaver, newcomer = await sync_to_async(table)()
    path = f"/ws/game/{game_id}/"
    mover_sock, leaver_sock = (
        Recorder(await connect(path, mover)),
        Recorder(await connect(path, leaver)),
    )
    assert (await receive(mover_sock.comm, "hello"))["seat"] == 2
    assert (await receive(leaver_sock.comm, "hello"))["seat"] == 1

    def reseat():
        lobby.table_leave(game_id=game_id, user=leaver)
        lobby.table_leave(game_id=game_id, user=mover)
        lobby.table_join(game_id=game_id, user=mover, seat=1)
        lobby.table_join(game_id=game_id, user=newcomer, seat=2)

    await sync_to_async(reseat)()
    # Each socket is told its seat now, by a fresh hello.
    await mover_sock.until(lambda f: f["type"] == "hello" and f["seat"] == 1, "the mover's hello")
    await leaver_sock.until(lambda f: f["type"] == "hello" and f["seat"] is None, "the leaver's")

    def play():
        lobby.table_start(game_id=game_id, user=gm)
        game_act(game_id=game_id, user=gm, version=1, action=OPEN)
        # The newcomer now holds seat 2, the mover's former seat: its orders are secret.
        game_act(
            game_id=game_id, user=newcomer, version=2, action={"type": "orders", "orders": SECRET}
        )
        game_act(game_id=game_id, user=mover, version=3, action={"type": "orders", "orders": PLAIN})
        return Game.objects.get(pk=game_id).version

    final = await sync_to_async(play)()
    mine = await mover_sock.at_version(final)
    assert mine["state"]["view"]["my_orders"] == PLAIN  # seat 1's own frame
    await leaver_sock.at_version(final)
    assert_secret_free(mover_sock.text(), "the mover (seat 2 before)")
    assert_secret_free(leaver_sock.text(), "the leaver")
    # The newcomer's own socket does see its orders: the secret is there to leak.
    newcomer_sock = Recorder(await connect(path, newcomer))
    assert '"fly"' in json.dumps(await receive(newcomer_sock.comm, "hello"))
    await close_all([mover_sock.comm, leaver_sock.comm, newcomer_sock.comm])


async def test_through_redis_orders_travel_only_to_their_team(redis_url):
    import redis.asyncio as aioredis

    prefix = f"privacy-{uuid.uuid4().hex[:8]}"
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": prefix},
        }
    }
    spy = aioredis.from_url(redis_url)
    pubsub = spy.pubsub()
    await pubsub.psubscribe(f"{prefix}__group__*")
    captured: list[tuple[str, bytes]] = []

    async def listen():
        async for message in pubsub.listen():
            if message["type"] == "pmessage":
                captured.append((message["channel"].decode(), message["data"]))

    listener = asyncio.ensure_future(listen())
    with override_settings(CHANNEL_LAYERS=layers):
        try:
            game_id, team_user = await _orders_seen_by_three_sockets()
        finally:
            await channel_layers["default"].flush()
            channel_layers.backends.clear()
    listener.cancel()
    await pubsub.aclose()
    await spy.aclose()
    team_group = f"{prefix}__group__game-{game_id}-user-{team_user}"
    carrying = {channel for channel, data in captured if b'"ban_to"' in data}
    assert carrying == {team_group}, carrying
    assert any(channel.endswith(f"game-{game_id}") for channel, _ in captured)


async def _orders_seen_by_three_sockets() -> tuple[int, int]:
    def campaign():
        gm, one, two = make_user(), make_user(), make_user()
        game = lobby.table_create(host=gm, ruleset="hexenhalma", seat_count=3)
        for user in (one, two):
            lobby.table_join(game_id=game.pk, user=user)
        lobby.table_start(game_id=game.pk, user=gm)
        game_act(game_id=game.pk, user=gm, version=1, action=OPEN)
        return game.pk, gm, one, two

    game_id, gm, one, two = await sync_to_async(campaign)()
    path = f"/ws/game/{game_id}/"
    socks = [Recorder(await connect(path, user)) for user in (gm, one, two, None)]
    for sock in socks:
        await receive(sock.comm, "hello")
    await socks[1].comm.send_json_to(
        {
            "type": "act",
            "game": game_id,
            "version": 2,
            "action": {"type": "orders", "orders": SECRET},
        }
    )
    for sock in socks:
        await sock.at_version(3)
    assert '"ban_to"' in socks[1].text()
    for who, sock in zip(("gm", "two", "spectator"), (socks[0], socks[2], socks[3]), strict=True):
        assert_secret_free(sock.text(), who)
    await close_all([s.comm for s in socks])
    return game_id, one.pk


async def test_where_nothing_is_secret_one_message_carries_every_seat(monkeypatch):
    """Halma hides nothing: one group message per move (the hot path's cost),
    and each socket still gets its own seat's frame from it."""
    from games import publish
    from tests.factories import FIRST_MOVE, started_game

    sent = []
    real = publish._send
    monkeypatch.setattr(publish, "_send", lambda g, m: (sent.append((g, m)), real(g, m)))
    white, black = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[white, black])
    path = f"/ws/game/{game.pk}/"
    socks = [Recorder(await connect(path, user)) for user in (white, black, None)]
    for sock in socks:
        await sock.until(lambda f: f["type"] == "hello", "the hello")
    await socks[0].comm.send_json_to(
        {"type": "act", "game": game.pk, "version": 1, "action": FIRST_MOVE}
    )
    frames = [await sock.at_version(2) for sock in socks]
    assert [f["state"]["view"]["seat"] for f in frames] == [0, 1, None]
    assert frames[1]["state"]["legal"] and not frames[0]["state"]["legal"]
    moved = [m for _, m in sent if m.get("version") == 2]
    assert [m["type"] for m in moved] == ["game.frames"]
    assert sorted(moved[0]["frames"]) == ["0", "1", "s"]
    await close_all([s.comm for s in socks])
