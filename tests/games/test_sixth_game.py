"""A new game is data plus functions: a sixth ruleset defined in the tests only
(tests/games/nim.py) is played through the API, a socket, the bots of every
level, replay and export, its position picture, with no platform module
changed for it."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from games.bots import LEVELS, base, get_bot
from games.models import Event, Game, Seat
from games.rules import RULESETS
from games.services import bots
from games.services.play import game_act
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import client_for, import_export, make_user, started_game
from tests.games.nim import NimRuleset, registered
from tests.games.test_consumers import close_all, connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def nim():
    with registered() as rs:
        yield rs
    assert "nim" not in RULESETS


def test_registering_is_undone():
    with registered():
        assert "nim" in RULESETS
    assert "nim" not in RULESETS
    with pytest.raises(LookupError):
        get_bot("nim", "easy")


def test_played_through_the_api_then_replayed_and_exported(nim):
    host, guest = make_user(), make_user()
    api = {host: client_for(host), guest: client_for(guest)}
    made = api[host].post(
        "/api/tables/",
        {"ruleset": "nim", "options": {"heap": 5}, "seat_count": 2, "auto_start": True},
        format="json",
    )
    assert made.status_code == 201, made.content[:300]
    game_id = made.json()["id"]
    assert api[guest].post(f"/api/tables/{game_id}/join/", {}, format="json").status_code == 200
    seat_of = {s.index: s.user for s in Seat.objects.filter(game_id=game_id)}
    for _ in range(10):
        detail = api[host].get(f"/api/games/{game_id}/").json()["state"]
        if detail["status"] != "active":
            break
        mover = seat_of[detail["to_act"][0]]
        legal = api[mover].get(f"/api/games/{game_id}/").json()["state"]["legal"]
        assert legal and legal[0] == {"type": "take", "count": 1}
        wrong = api[mover].post(
            f"/api/games/{game_id}/act/",
            {"version": detail["version"], "action": {"type": "take", "count": 9}},
            format="json",
        )
        assert wrong.status_code == 400 and "Take 1 to 3 stones" in wrong.json()["message"]
        done = api[mover].post(
            f"/api/games/{game_id}/act/",
            {"version": detail["version"], "action": legal[-1]},
            format="json",
        )
        assert done.json() == {"version": detail["version"] + 1}
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] and game.result["reason"] == "took the last stone"
    # 5 stones, three at a time: seat 0 takes 3, seat 1 takes the last 2 and wins.
    assert game.result["winners"] == [1]

    replay = client_for(make_user()).get(f"/api/games/{game_id}/replay/").json()
    assert replay["ruleset"] == "nim" and replay["result"]["winners"] == [1]
    heaps = [frame["view"]["heap"] for frame in replay["frames"]]
    assert heaps == [5, 2, 0]

    exported = client_for(host).get(f"/api/games/{game_id}/export/").json()
    assert exported["ruleset"] == "nim" and len(exported["log"]) == game.version
    copy = import_export(client_for(make_user()), exported)
    assert copy["status"] == "done", copy
    assert Game.objects.get(pk=copy["game"]).state == game.state


async def test_played_through_a_socket(nim):
    game = await sync_to_async(lambda: started_game("nim", heap=4))()
    users = await sync_to_async(lambda: [s.user for s in game.seats.order_by("index")])()
    socks = [await connect(f"/ws/game/{game.pk}/", user) for user in users]
    hellos = [await receive(s, "hello") for s in socks]
    assert hellos[0]["state"]["view"]["heap"] == 4
    assert hellos[0]["state"]["legal"] and hellos[1]["state"]["legal"] == []
    await socks[0].send_json_to(
        {"type": "act", "game": game.pk, "version": 1, "action": {"type": "take", "count": 1}}
    )
    assert (await receive(socks[0], "ack"))["version"] == 2
    for sock in socks:
        frame = await receive(sock, "event")
        assert frame["version"] == 2 and frame["state"]["to_act"] == [1]
    await socks[1].send_json_to(
        {"type": "act", "game": game.pk, "version": 2, "action": {"type": "take", "count": 3}}
    )
    assert (await receive(socks[1], "ack"))["version"] == 3
    ended = await receive(socks[0], "event")
    assert ended["version"] == 3 and ended["state"]["status"] == "finished"
    await close_all(socks)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_of_each_level_plays_it_on_the_site(nim, level, caplog):
    human = make_user()
    game = lobby.table_create(
        host=human, ruleset="nim", options={"heap": 6}, host_seat=1, bot={"level": level}
    )
    with caplog.at_level(logging.WARNING, logger=base.__name__):
        for _ in range(10):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            if game.to_act == [0]:
                assert bots.play_due_bots() == 1
            else:
                take = {"type": "take", "count": 1}
                game_act(game_id=game.pk, user=human, version=game.version, action=take)
    assert not [r for r in caplog.records if r.name == base.__name__], "the safety net played"
    assert game.status == Game.Status.FINISHED
    assert Event.objects.filter(game=game, seat=0, kind=Event.Kind.ACT).exists()


@pytest.mark.parametrize("level", LEVELS)
def test_the_generic_bot_is_legal_and_deterministic(nim, level):
    rs, bot = NimRuleset(), get_bot("nim", level)
    for heap in range(1, 9):
        state = rs.setup({"heap": heap}, 2, 0)
        action = bot.choose(state, 0, seed=heap)
        assert action in rs.legal_actions(state, 0)
        assert bot.choose(state, 0, seed=heap) == action
        if level != "easy" and heap <= 3:
            assert action == {"type": "take", "count": heap}, "a win in one is taken"
        if level == "strong" and heap > 4:
            assert heap - action["count"] > 3, "never leaves the rival a win in one"


def test_its_position_picture_is_drawn_from_the_spectator_view(nim):
    """No drawing of its own in frontend/pictures/: the generic picture (it
    was a 500), and the game page's og:image, the PNG, answers."""
    game = started_game("nim", heap=4)
    page = Client().get(f"/g/{game.pk}/").content.decode()
    image = f"/g/{game.pk}/position.png?v={game.version}"
    assert f'property="og:image" content="http://testserver{image}"' in page
    png = Client().get(image)
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG\r\n\x1a\n")
    svg = Client().get(f"/g/{game.pk}/position.svg")
    assert svg.status_code == 200
    root = ET.fromstring(svg.content)
    lines = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert lines[0] == f"Nim #{game.pk}" and "heap: 4" in lines and "to_move: 0" in lines
