"""Page shells: lobby, game, invite links, accounts, language switch."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from lobby import services as lobby
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


def test_lobby_for_anonymous_and_users():
    page = Client().get("/")
    assert page.status_code == 200 and b"Log in" in page.content
    client = Client()
    client.force_login(make_user("carla"))
    page = client.get("/")
    assert b"Quick play" in page.content and b"carla" in page.content


def test_signup_login_logout():
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "",
            "password1": "xk-29-long-pass",
            "password2": "xk-29-long-pass",
        },
    )
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "dora"
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated
    assert (
        client.post(
            "/accounts/login/", {"username": "dora", "password": "xk-29-long-pass"}
        ).status_code
        == 302
    )


def test_signup_errors_are_shown():
    response = Client().post(
        "/accounts/signup/", {"username": "", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200 and b'class="error"' in response.content


def test_game_page_for_spectator_and_missing_game():
    game = started_game()
    page = Client().get(f"/g/{game.pk}/")
    assert page.status_code == 200 and b'data-ruleset="halma"' in page.content
    assert Client().get("/g/424242/").status_code == 404


def test_invite_link_needs_login_then_seats():
    host, friend = make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma")
    anon = Client().get(f"/t/{game.invite_code}/")
    assert anon.status_code == 302 and "/accounts/login/" in anon["Location"]
    client = Client()
    client.force_login(friend)
    response = client.get(f"/t/{game.invite_code}/")
    assert response["Location"] == f"/g/{game.pk}/"
    assert game.seats.filter(user=friend).exists()
    assert client.get("/t/not-a-code/").status_code == 404


def test_invite_to_full_table_explains():
    host, a, b = make_user(), make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma")
    lobby.table_join(game_id=game.pk, user=a)
    client = Client()
    client.force_login(b)
    response = client.get(f"/t/{game.invite_code}/", follow=True)
    assert b"This table is full." in response.content


def test_switch_to_german():
    client = Client()
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    page = client.get("/")
    assert page.status_code == 200 and b'lang="de"' in page.content


def test_my_games_lists_own_games():
    game = started_game()
    client = Client()
    client.force_login(game.host)
    assert f"/g/{game.pk}/".encode() in client.get("/my/games/").content
    assert Game.objects.count() == 1


def test_settings_page_saves_email_preferences():
    user = make_user()
    client = Client()
    assert client.get("/accounts/settings/").status_code == 302
    client.force_login(user)
    assert client.get("/accounts/settings/").status_code == 200
    client.post("/accounts/settings/", {"email": "me@example.org", "email_notifications": "on"})
    user.refresh_from_db()
    assert user.email == "me@example.org" and user.email_notifications


def test_replay_page_and_missing_game():
    game = started_game()
    assert Client().get(f"/g/{game.pk}/replay/").status_code == 200
    assert Client().get("/g/424242/replay/").status_code == 404


def test_lobby_lists_only_games_with_a_board():
    page = Client().get("/")
    catalog = page.context["catalog"]
    assert "halma" in [c["slug"] for c in catalog]
