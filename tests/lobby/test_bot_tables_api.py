"""Bots through the API: play the computer, invite a bot, staff bot matches, bad input."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db


def post(user, path: str, body: dict):
    return client_for(user).post(path, body, format="json")


def test_play_the_computer_answers_a_started_table_naming_the_bot():
    human = make_user()
    answer = post(
        human,
        "/api/tables/",
        {"ruleset": "halma", "host_seat": 1, "bot": {"level": "medium"}, "clock": {"kind": "none"}},
    )
    assert answer.status_code == 201, answer.json()
    table = answer.json()
    assert table["status"] == "active" and table["bots"] == [0]
    assert table["seats"] == ["bot-halma-medium", human.username]
    detail = client_for(human).get(f"/api/games/{table['id']}/").json()
    assert [s["bot"] for s in detail["seats"]] == [True, False]


@pytest.mark.parametrize(
    "bot, code",
    [
        ({"level": "hard"}, "bad_bot"),
        ({}, "bad_bot"),
        ("easy", "bad_bot"),
        ({"levels": ["easy", "strong"]}, "forbidden"),
    ],
)
def test_bad_bot_requests_are_clear_errors_and_change_nothing(bot, code):
    answer = post(make_user(), "/api/tables/", {"ruleset": "halma", "bot": bot})
    assert answer.status_code in (400, 403) and answer.json()["code"] == code, answer.json()
    assert answer.json()["message"]
    assert not Game.objects.exists()


def test_unknown_game_is_a_400():
    answer = post(make_user(), "/api/tables/", {"ruleset": "chess", "bot": {"level": "easy"}})
    assert answer.status_code == 400 and not Game.objects.exists()


def test_a_bot_and_a_challenge_do_not_mix():
    make_user("rival")
    answer = post(
        make_user(),
        "/api/tables/",
        {"ruleset": "halma", "bot": {"level": "easy"}, "challenge": "rival"},
    )
    assert answer.status_code == 400 and answer.json()["code"] == "bad_bot"
    assert not Game.objects.exists()


def test_inviting_a_bot_needs_the_host_an_open_seat_and_an_open_table():
    host, guest = make_user(), make_user()
    table = post(host, "/api/tables/", {"ruleset": "malefiz", "seat_count": 3}).json()
    path = f"/api/tables/{table['id']}/bot/"
    refused = post(guest, path, {"level": "easy"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    bad = post(host, path, {"level": "genius"})
    assert bad.status_code == 400
    taken = post(host, path, {"level": "easy", "seat": 0})
    assert taken.status_code == 400 and taken.json()["code"] == "seat_taken"
    assert Game.objects.get(pk=table["id"]).bots == {}
    ok = post(host, path, {"level": "easy"})
    assert ok.status_code == 200 and ok.json()["bots"] == [1] and ok.json()["status"] == "open"
    started = post(host, path, {"level": "strong"}).json()
    assert started["status"] == "active" and started["bots"] == [1, 2]
    late = post(host, path, {"level": "medium"})
    assert late.status_code == 400 and late.json()["code"] == "not_open"
    missing = post(host, "/api/tables/999999/bot/", {"level": "easy"})
    assert missing.status_code == 404


def test_staff_open_bot_against_bot_tables():
    staff = make_user(staff=True)
    answer = post(
        staff, "/api/tables/", {"ruleset": "halma", "bot": {"levels": ["easy", "strong"]}}
    )
    assert answer.status_code == 201, answer.json()
    table = answer.json()
    assert table["status"] == "active" and table["bots"] == [0, 1]
    assert staff.username not in table["seats"]
    same = post(staff, "/api/tables/", {"ruleset": "halma", "bot": {"levels": ["easy", "easy"]}})
    assert same.status_code == 400 and same.json()["code"] == "bad_bot"
    many = post(
        staff, "/api/tables/", {"ruleset": "halma", "bot": {"levels": ["easy", "medium", "strong"]}}
    )
    assert many.status_code == 400


def test_bots_cannot_log_in_and_people_cannot_take_bot_names():
    from django.test import Client

    post(make_user(), "/api/tables/", {"ruleset": "halma", "bot": {"level": "easy"}})
    token = APIClient().post("/api/token/", {"username": "bot-halma-easy", "password": ""})
    assert token.status_code in (400, 401, 403)
    page = Client().post(
        "/accounts/signup/",
        {
            "username": "bot-halma-hard",
            "email": "",
            "password1": "x-Secret-991",
            "password2": "x-Secret-991",
        },
    )
    assert page.status_code == 200 and "bot-" in page.content.decode()


def test_my_games_and_the_lobby_show_bots():
    from django.test import Client

    human = make_user()
    post(human, "/api/tables/", {"ruleset": "halma", "bot": {"level": "easy"}})
    client = Client()
    client.force_login(human)
    mine = client.get("/my/games/").content.decode()
    assert "bot-halma-easy" in mine and 'class="badge bot-badge"' in mine
    lobby = client.get("/").content.decode()
    assert 'data-testid="bot-form"' in lobby and 'id="bot-match"' not in lobby  # staff only
