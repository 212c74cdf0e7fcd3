"""Page shells: lobby, game, invite links, accounts, language switch."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
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


def invite_url(game: Game) -> str:
    return f"/t/{game.invite_code}/"


def test_invite_get_shows_the_table_and_changes_nothing():
    # An auto-starting table: a join on GET would also start the game.
    host, friend = make_user("hanna"), make_user()
    game = lobby.table_create(
        host=host, ruleset="halma", clock={"kind": "realtime", "minutes": 5}, auto_start=True
    )
    client = Client()
    client.force_login(friend)
    page = client.get(invite_url(game))
    assert page.status_code == 200
    html = page.content.decode()
    assert "hanna invites you to play Halma" in html
    assert "5 min per player + 5 s per move" in html and "Standard rules" in html
    assert (
        'method="post"' in html and "csrfmiddlewaretoken" in html and 'data-testid="join"' in html
    )
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert not game.seats.filter(user=friend).exists()
    assert client.head(invite_url(game)).status_code == 200  # HEAD is a GET without body
    assert not game.seats.filter(user=friend).exists()


def test_invite_for_anonymous_offers_login_keeping_the_link():
    game = lobby.table_create(host=make_user(), ruleset="halma")
    page = Client().get(invite_url(game))
    assert page.status_code == 200
    assert f'href="/accounts/login/?next=/t/{game.invite_code}/"' in page.content.decode()
    anon_post = Client().post(invite_url(game))
    assert anon_post.status_code == 302 and "/accounts/login/" in anon_post["Location"]
    assert game.seats.filter(user__isnull=False).count() == 1


def test_invite_post_needs_the_csrf_token_then_joins():
    host, friend = make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma", auto_start=True)
    client = Client(enforce_csrf_checks=True)
    client.force_login(friend)
    assert client.post(invite_url(game)).status_code == 403  # e.g. a form on another site
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and not game.seats.filter(user=friend).exists()
    token = client.get(invite_url(game)).context["csrf_token"]
    response = client.post(invite_url(game), {"csrfmiddlewaretoken": str(token)})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    game.refresh_from_db()
    assert game.seats.filter(user=friend).exists() and game.status == Game.Status.ACTIVE
    # Seated now: the page says so, and posting again just goes to the game.
    assert "You sit at this table." in client.get(invite_url(game)).content.decode()
    again = client.post(invite_url(game), {"csrfmiddlewaretoken": str(token)})
    assert again["Location"] == f"/g/{game.pk}/"


def test_invite_to_full_or_started_table_offers_to_watch():
    host, a, b = make_user(), make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma")
    lobby.table_join(game_id=game.pk, user=a)
    client = Client()
    client.force_login(b)
    page = client.get(invite_url(game)).content.decode()
    assert "This table is full" in page and 'data-testid="watch"' in page
    assert 'data-testid="join"' not in page
    refused = client.post(invite_url(game))
    assert refused.status_code == 400 and "This table is full." in refused.content.decode()
    lobby.table_start(game_id=game.pk, user=host)
    page = client.get(invite_url(game)).content.decode()
    assert "already started" in page and f'href="/g/{game.pk}/"' in page
    assert client.post(invite_url(game)).status_code == 400
    assert not game.seats.filter(user=b).exists()


def test_invite_names_options_and_unknown_codes_are_404():
    game = lobby.table_create(
        host=make_user(), ruleset="daschax", options={"move_on": True}, clock={"kind": "none"}
    )
    page = Client().get(invite_url(game)).content.decode()
    assert "Move on after a capture: yes" in page and "No time limit" in page
    client = Client()
    client.force_login(make_user())
    assert client.get("/t/not-a-code/").status_code == 404
    assert client.post("/t/not-a-code/").status_code == 404


def test_switch_to_german():
    client = Client()
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    page = client.get("/")
    assert page.status_code == 200 and b'lang="de"' in page.content


def test_the_language_a_user_chooses_is_stored():
    # Sign-up keeps the language the page was read in.
    client = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    client.post(
        "/accounts/signup/",
        {"username": "greta", "password1": "xk-29-long-pass", "password2": "xk-29-long-pass"},
    )
    greta = get_user_model().objects.get(username="greta")
    assert greta.language == "de"
    # The header's switch stores a logged-in user's choice (and still sets the cookie).
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    greta.refresh_from_db()
    assert greta.language == "en"
    client.post("/i18n/setlang/", {"language": "klingon", "next": "/"})
    greta.refresh_from_db()
    assert greta.language == "en"
    # The settings page changes it, and the site follows.
    response = client.post("/accounts/settings/", {"email": "", "language": "de"}, follow=True)
    greta.refresh_from_db()
    assert greta.language == "de" and b'lang="de"' in response.content
    assert "Einstellungen gespeichert." in response.content.decode()


def test_an_account_without_a_language_takes_its_logins():
    user = make_user("olaf")
    assert user.language == "" and user.language_or_default() == "en"
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.post("/accounts/login/", {"username": "olaf", "password": "pw-123456789"})
    user.refresh_from_db()
    assert user.language == "de"
    # A later login in another language does not overwrite a stored choice.
    Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/accounts/login/", {"username": "olaf", "password": "pw-123456789"}
    )
    user.refresh_from_db()
    assert user.language == "de"


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
