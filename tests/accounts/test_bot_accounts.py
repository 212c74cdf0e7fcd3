"""A person's bot account: only an account that never played may become one
(irreversible); it is marked as a bot, plays through the API only, casual
games only, never quick play, with tighter limits."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from config.asgi import application
from games.models import Game
from lobby.services import table_create
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

pytestmark = pytest.mark.django_db


def bot_account(name: str | None = None):
    user = make_user(name)
    answer = client_for(user).post("/api/account/bot/")
    assert answer.status_code == 200, answer.json()
    user.refresh_from_db()
    return user


def test_an_account_that_never_played_becomes_a_bot_for_good():
    user = bot_account()
    assert user.is_bot and user.plays_by_api
    assert client_for(user).post("/api/account/bot/").status_code == 200  # still a bot
    profile = client_for(make_user()).get(f"/api/players/{user.username}/").json()
    assert profile["bot"] is True


def test_an_account_with_games_or_a_guest_cannot():
    game = started_game()
    player = game.seats.get(index=0).user
    answer = client_for(player).post("/api/account/bot/")
    assert answer.status_code == 409 and answer.json()["code"] == "has_games"
    player.refresh_from_db()
    assert not player.is_bot
    host = make_user()
    table_create(host=host, ruleset="halma")  # an open table counts too
    assert client_for(host).post("/api/account/bot/").json()["code"] == "has_games"


def test_bots_play_casual_games_only_and_never_quick_play():
    bot, person = bot_account(), make_user()
    body = {"ruleset": "halma", "challenge": bot.username, "rated": True}
    assert client_for(person).post("/api/tables/", body, format="json").status_code == 400
    rated = {"ruleset": "halma", "rated": True}
    assert client_for(bot).post("/api/tables/", rated, format="json").status_code == 400
    table = client_for(person).post("/api/tables/", rated, format="json").json()
    joined = client_for(bot).post(f"/api/tables/{table['id']}/join/", {}, format="json")
    assert (
        joined.status_code == 400
        and Game.objects.get(pk=table["id"]).seats.filter(user=bot).count() == 0
    )
    quick = client_for(bot).post("/api/quickplay/", {"ruleset": "halma"}, format="json")
    assert quick.status_code == 403 and quick.json()["code"] == "bot_account"
    casual = {"ruleset": "halma", "challenge": bot.username}
    assert client_for(person).post("/api/tables/", casual, format="json").status_code == 201


def test_a_bot_has_a_quarter_of_each_write_budget():
    bot = bot_account()
    cache.clear()  # the upgrade was a write too
    client = client_for(bot)
    answers = [client.post("/api/notifications/read/", {}, format="json") for _ in range(16)]
    assert [a.status_code for a in answers[:15]] == [200] * 15
    assert answers[15].status_code == 429


def test_the_settings_page_asks_to_confirm():
    user = make_user()
    page = Client()
    page.force_login(user)
    page.post("/accounts/settings/bot/")
    user.refresh_from_db()
    assert not user.is_bot
    page.post("/accounts/settings/bot/", {"confirm": "yes"})
    user.refresh_from_db()
    assert user.is_bot and user.plays_by_api
    assert b'data-testid="bot-status"' in page.get("/accounts/settings/").content


@pytest.mark.django_db(transaction=True)
async def test_a_bot_cannot_move_on_the_game_socket():
    bot = await sync_to_async(bot_account)()
    person = await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[bot, person])
    page = await sync_to_async(Client)()
    await sync_to_async(page.force_login)(bot)
    cookie = f"sessionid={page.cookies['sessionid'].value}".encode()
    comm = WebsocketCommunicator(
        application,
        f"/ws/game/{game.pk}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    assert (await comm.connect())[0]
    assert json.loads(await comm.receive_from(timeout=3))["type"] == "hello"
    await comm.send_to(text_data=json.dumps({"type": "act", "version": 1, "action": FIRST_MOVE}))
    told = json.loads(await comm.receive_from(timeout=3))
    assert told["type"] == "error" and told["code"] == "bot_account"
    await comm.disconnect()
    assert (await sync_to_async(Game.objects.get)(pk=game.pk)).version == 1
