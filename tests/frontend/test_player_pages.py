"""Profiles and leaderboards: ratings with their SVG history chart, recent
games, the head-to-head record, the speed tabs; unknown names are 404s."""

from __future__ import annotations

import pytest
from django.test import Client

from frontend.charts import rating_chart
from games.services.endings import game_resign
from tests.factories import every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db


def test_a_profile_shows_ratings_chart_recent_games_and_head_to_head():
    ann, bob = make_user("ann"), make_user("bob")
    for _ in range(2):
        game = every_seat_moves(started_game(players=[ann, bob]))  # else an abort
        game_resign(game_id=game.pk, user=bob)
    client = Client()
    client.force_login(bob)
    page = client.get("/players/ann/").content.decode()
    assert 'data-testid="rating-halma-correspondence"' in page
    assert '<svg class="rating-chart"' in page and "<desc" in page
    assert "2 rated games: from 1500 to" in page
    assert f'href="/g/{game.pk}/replay/"' in page and 'href="/players/bob/"' in page
    assert "You against this player: 0 won, 2 lost, 0 drawn." in page
    own = client.get("/players/bob/").content.decode()
    assert 'data-testid="head-to-head"' not in own  # no record against oneself


def test_the_leaderboard_has_speed_tabs_and_links_players():
    ann, bob = make_user("ann"), make_user("bob")
    game_resign(game_id=every_seat_moves(started_game(players=[ann, bob])).pk, user=bob)
    page = Client().get("/leaderboard/halma/").content.decode()
    assert page.index('href="/players/ann/"') < page.index('href="/players/bob/"')
    assert 'aria-current="page"' in page and "?speed=realtime" in page
    empty = Client().get("/leaderboard/halma/?speed=realtime").content.decode()
    assert "No rated games at this speed yet." in empty


def test_my_games_links_the_players():
    ann, bob = make_user("ann"), make_user("bob")
    started_game(players=[ann, bob])
    client = Client()
    client.force_login(ann)
    assert 'href="/players/bob/"' in client.get("/my/games/").content.decode()


@pytest.mark.parametrize("url", ["/players/nobody/", "/leaderboard/chess/"])
def test_unknown_players_and_games_are_not_found(url):
    assert Client().get(url).status_code == 404


def test_the_chart_escapes_its_title_and_draws_one_point_per_game():
    svg = rating_chart([1500, 1560, 1530], "<b>x</b>", "c1")
    assert "&lt;b&gt;x&lt;/b&gt;" in svg and "<b>" not in svg
    assert svg.count("<circle") == 3
