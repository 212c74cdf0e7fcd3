"""Idle pings cost nothing (games/realtime/watch.py): a tiny pong from what
the process knows, data only when the page is behind; the lobby sends a
bounded snapshot, then changes; a lost push is caught up by the process's
batched check."""

from __future__ import annotations

import asyncio
import json

import pytest

from games.models import Game, Notification
from games.realtime import consumers, watch
from games.selectors import tables
from games.services.internal import notifications
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user, started_game
from tests.games.test_consumers import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def counted(monkeypatch):
    """Every database hop a socket makes, and every batched check of the ledgers."""
    calls: list[str] = []
    real_db = consumers.db

    def db(func):
        calls.append(getattr(func, "__name__", repr(func)))
        return real_db(func)

    monkeypatch.setattr(consumers, "db", db)
    for name in ("games", "newest_notifications"):
        ledger = getattr(watch, name)
        load = ledger.load
        monkeypatch.setattr(
            ledger, "load", lambda keys, load=load, name=name: (calls.append(name), load(keys))[1]
        )
    real_read = watch.lobby._read

    async def lobby_read():
        calls.append("lobby")
        await real_read()

    monkeypatch.setattr(watch.lobby.check, "read", lobby_read)
    return calls


async def pings(comm, frame: dict, answer: str, n: int = 5) -> list[str]:
    texts = []
    for _ in range(n):
        await comm.send_json_to(frame)
        while True:
            text = await comm.receive_from(timeout=3)
            if json.loads(text)["type"] == answer:
                texts.append(text)
                break
    return texts


async def test_an_up_to_date_game_ping_is_a_tiny_pong_without_a_query(counted, settings):
    settings.PING_REFRESH_SECONDS = 3600
    white, black = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[white, black])
    sock = await connect(f"/ws/game/{game.pk}/", white)
    hello = await receive(sock, "hello")
    await pings(sock, {"type": "ping", "version": hello["state"]["version"]}, "pong", 1)
    counted.clear()
    answers = await pings(sock, {"type": "ping", "version": hello["state"]["version"]}, "pong")
    assert counted == [], "idle pings went to the database"
    assert all(json.loads(a) == {"type": "pong", "version": 1} for a in answers)
    assert max(len(a) for a in answers) < 100
    await sock.disconnect()


async def test_a_ping_that_is_behind_gets_the_missed_events(settings):
    white, black = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[white, black])
    sock = await connect(f"/ws/game/{game.pk}/", black)
    await receive(sock, "hello")
    await sock.send_json_to({"type": "ping", "version": 0})
    assert (await receive(sock, "pong"))["version"] == 1
    assert (await receive(sock, "sync"))["version"] == 1
    await sock.disconnect()


async def a_game_on_two_pages():
    """A started game's two players, and a game socket of each past its hello."""
    players = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=list(players))
    pages = []
    for user in players:
        pages.append(await connect(f"/ws/game/{game.pk}/", user))
        await receive(pages[-1], "hello")
    return players, pages


async def test_a_ping_crossing_a_frame_on_its_way_is_not_answered_with_a_sync(settings):
    """The page pings at the version it has while the next event is on its
    way to it: the socket sent that frame, so only the pong goes back. A page
    still behind it at the ping after (it never applied the frame) gets the sync."""
    settings.PING_REFRESH_SECONDS = 3600
    _players, (w, b) = await a_game_on_two_pages()
    await w.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE})
    await receive(w, "ack")
    await receive(b, "event")  # version 2, sent to both pages
    await b.send_json_to({"type": "ping", "version": 1})  # sent before the event came
    assert json.loads(await b.receive_from(timeout=3)) == {"type": "pong", "version": 2}
    await b.send_json_to({"type": "ping", "version": 2})
    assert json.loads(await b.receive_from(timeout=3))["type"] == "pong"  # no sync between
    await b.send_json_to({"type": "ping", "version": 2})
    assert json.loads(await b.receive_from(timeout=3))["type"] == "pong"
    await b.send_json_to({"type": "ping", "version": 1})  # a ping later, still without it
    assert json.loads(await b.receive_from(timeout=3))["type"] == "pong"
    sync = json.loads(await b.receive_from(timeout=3))
    assert sync["type"] == "sync" and [e["version"] for e in sync["events"]] == [2]
    await w.disconnect()
    await b.disconnect()


async def test_a_ping_behind_a_push_the_socket_lost_gets_the_sync_at_once(monkeypatch, settings):
    settings.PING_REFRESH_SECONDS = 3600
    (_white, black), (w, b) = await a_game_on_two_pages()
    pushed = consumers.GameConsumer.game_frames

    async def lost_for_black(self, message):
        watch.games.saw(self.game_id, {"version": message["version"]})  # the process saw it
        if self.user != black:
            await pushed(self, message)

    monkeypatch.setattr(consumers.GameConsumer, "game_frames", lost_for_black)
    await w.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE})
    await receive(w, "event")
    await b.send_json_to({"type": "ping", "version": 1})
    assert (await receive(b, "pong"))["version"] == 2
    assert [e["version"] for e in (await receive(b, "sync"))["events"]] == [2]
    await w.disconnect()
    await b.disconnect()


async def test_a_lost_push_is_caught_up_once_the_process_checks_again(monkeypatch, settings):
    """Joins move no version and the push is lost: the process's batched
    check (every PING_REFRESH_SECONDS) finds it, and the next ping says so."""
    from games import publish

    settings.PING_REFRESH_SECONDS = 0.2
    host, guest = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    game = await sync_to_async(lobby.table_create)(host=host, ruleset="halma")
    sock = await connect(f"/ws/game/{game.pk}/", host)
    await receive(sock, "hello")
    monkeypatch.setattr(publish, "publish_table", lambda game: None)
    await sync_to_async(lobby.table_join)(game_id=game.pk, user=guest)
    deadline = asyncio.get_running_loop().time() + 5
    while True:
        await sock.send_json_to({"type": "ping", "version": 0})
        pong = await receive(sock, "pong")
        if pong.get("taken") == 2 or asyncio.get_running_loop().time() > deadline:
            break
    assert pong == {"type": "pong", "version": 0, "status": "open", "taken": 2}
    await sock.disconnect()


UNCAPPED = {"open_capped": False, "live_capped": False}


async def test_the_lobby_sends_a_snapshot_then_changes_and_pongs_without_queries(counted, settings):
    settings.PING_REFRESH_SECONDS = 3600
    host = await sync_to_async(make_user)()
    a, b = await connect("/ws/lobby/", host), await connect("/ws/lobby/")
    snapshot = await receive(a, "tables")
    assert snapshot["tables"] == [] and snapshot["counts"] == {"open": 0, "live": 0, **UNCAPPED}
    token = (await receive(b, "tables"))["lobby"]
    assert token == snapshot["lobby"]
    counted.clear()
    pongs = await pings(a, {"type": "ping", "lobby": token}, "pong")
    assert all(json.loads(p) == {"type": "pong", "lobby": token} for p in pongs)
    old_page = await pings(b, {"type": "ping"}, "pong", 1)  # no token: never a snapshot
    assert json.loads(old_page[0]) == {"type": "pong", "lobby": token}
    assert counted == [], "idle lobby pings went to the database"

    game = await sync_to_async(lobby.table_create)(host=host, ruleset="halma")
    change_a, change_b = await receive(a, "table"), await receive(b, "table")
    assert change_a["table"]["id"] == game.pk and change_a["lobby"] == change_b["lobby"] != token
    # A page that missed that change (another process's token) gets the snapshot.
    await a.send_json_to({"type": "ping", "lobby": token})
    again = await receive(a, "tables")
    assert [t["id"] for t in again["tables"]] == [game.pk] and again["lobby"] == change_a["lobby"]
    await a.disconnect()
    await b.disconnect()


async def test_the_lobby_snapshot_is_bounded_most_watched_first(monkeypatch):
    players = [await sync_to_async(make_user)() for _ in range(4)]

    def build():
        return [started_game(players=players[:2]).pk for _ in range(tables.SNAPSHOT_LIVE + 5)]

    live = await sync_to_async(build)()
    favourite = live[3]
    monkeypatch.setattr(tables.presence, "most_watched", lambda limit: [(favourite, 7)])
    sock = await connect("/ws/lobby/")
    snapshot = await receive(sock, "tables")
    listed = [t["id"] for t in snapshot["tables"]]
    assert len(listed) == tables.SNAPSHOT_LIVE and listed[0] == favourite
    assert snapshot["counts"] == {"open": 0, "live": tables.SNAPSHOT_LIVE + 5, **UNCAPPED}
    await sock.disconnect()


async def test_notification_pings_answer_with_the_list_only_when_behind(counted, settings):
    settings.PING_REFRESH_SECONDS = 3600
    user = await sync_to_async(make_user)()
    sock = await connect("/ws/notify/", user)
    first = await receive(sock, "notifications")
    assert first["items"] == [] and first["newest"] == 0
    await pings(sock, {"type": "ping", "newest": 0}, "pong", 1)
    counted.clear()
    pongs = await pings(sock, {"type": "ping", "newest": 0}, "pong")
    assert all(json.loads(p) == {"type": "pong", "newest": 0} for p in pongs)
    assert counted == []

    def notify():
        game = Game.objects.create(host=user, ruleset="halma", seat_count=2, seed=1)
        notifications.notify(
            user_ids=[user.pk], kind=Notification.Kind.CHALLENGE, game=game, params={}
        )
        return Notification.objects.get(user=user).pk

    note = await sync_to_async(notify)()
    assert (await receive(sock, "notify"))["notification"]["id"] == note
    await sock.send_json_to({"type": "ping", "newest": 0})  # a page that missed it
    assert (await receive(sock, "notifications"))["newest"] == note
    await sock.send_json_to({"type": "ping"})  # an older page: a pong, never the list
    assert await receive(sock, "pong") == {"type": "pong", "newest": note}
    await sock.disconnect()


async def test_a_new_ranking_alone_sends_no_page_a_new_snapshot(monkeypatch, settings):
    """Who is watched most changes all the time; pages keep their list until
    something they show changed (a lost push included)."""
    from games import publish

    settings.PING_REFRESH_SECONDS = 0  # every ping reads the lobby again
    players = [await sync_to_async(make_user)() for _ in range(2)]
    live = [(await sync_to_async(started_game)(players=players)).pk for _ in range(3)]
    ranking = {pk: n for n, pk in enumerate(live)}
    monkeypatch.setattr(
        tables.presence,
        "most_watched",
        lambda limit: sorted(ranking.items(), key=lambda gn: -gn[1])[:limit],
    )
    sock = await connect("/ws/lobby/")
    token = (await receive(sock, "tables"))["lobby"]
    ranking = {pk: -n for n, pk in enumerate(live)}  # upside down
    await sock.send_json_to({"type": "ping", "lobby": token})
    assert await receive(sock, "pong") == {"type": "pong", "lobby": token}
    monkeypatch.setattr(publish, "publish_table", lambda game: None)  # the push is lost
    await sync_to_async(lobby.table_create)(host=players[0], ruleset="halma")
    await sock.send_json_to({"type": "ping", "lobby": token})
    fresh = await receive(sock, "tables")
    assert fresh["lobby"] != token and fresh["counts"] == {"open": 1, "live": 3, **UNCAPPED}
    await sock.disconnect()


async def test_a_pushed_change_brings_its_counts_and_no_snapshot_follows(settings):
    """The change carries the counts after it: the process's next check finds
    nothing new, so the pages that heard the push get a pong, not the whole
    lobby again (2,000 pages each fetching it after every new table)."""
    settings.PING_REFRESH_SECONDS = 0  # every ping reads the lobby again
    host = await sync_to_async(make_user)()
    sock = await connect("/ws/lobby/")
    await receive(sock, "tables")
    await sync_to_async(lobby.table_create)(host=host, ruleset="halma")
    change = await receive(sock, "table")
    assert change["counts"] == {"open": 1, "live": 0, **UNCAPPED}
    await sock.send_json_to({"type": "ping", "lobby": change["lobby"]})
    assert await receive(sock, "pong") == {"type": "pong", "lobby": change["lobby"]}
    await sock.disconnect()
