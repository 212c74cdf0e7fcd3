"""/embed/<id>/: the one page other sites may frame."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby import services as lobby
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


def test_the_embed_page_may_be_framed_and_shows_the_spectators_picture():
    players = [make_user(), make_user()]
    game = started_game(players=players)
    client = Client()
    client.force_login(players[0])  # a player's cookies change nothing
    page = client.get(f"/embed/{game.pk}/")
    assert page.status_code == 200
    assert "X-Frame-Options" not in page
    policy = page["Content-Security-Policy"]
    assert "frame-ancestors *" in policy and "script-src 'self'" in policy
    html = page.content.decode()
    assert f'src="/g/{game.pk}/position.svg?v=1"' in html
    shown = html.lower().split("<body", 1)[1]  # the head's import map names every module
    assert "chat" not in shown and "resign" not in shown


def test_other_pages_still_refuse_framing():
    game = started_game()
    for path in ("/", f"/g/{game.pk}/", f"/g/{game.pk}/replay/"):
        page = Client().get(path)
        assert page["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in page["Content-Security-Policy"], path


def test_embed_of_unknown_games_and_open_tables_is_404():
    assert Client().get("/embed/987654/").status_code == 404
    table = lobby.table_create(host=make_user(), ruleset="halma", options={}, seat_count=2)
    assert Client().get(f"/embed/{table.pk}/").status_code == 404


def test_the_game_page_offers_the_iframe_code():
    game = started_game()
    html = Client().get(f"/g/{game.pk}/").content.decode()
    assert f'&lt;iframe src="http://testserver/embed/{game.pk}/"' in html
