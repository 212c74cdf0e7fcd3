"""A game keeps its players on its row from its start (``Game.listed_players``,
issue 54 item 3): My games names them from there, as it named them from the
seats, and an account deleted or renamed leaves no stale copy. A game that
ends marks its seats (``Seat.game_ended``) in the same transaction."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, Seat
from games.services.creating import game_create, game_create_imported
from games.services.endings import game_resign
from lobby import services as lobby
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


def listed(*users) -> list:
    return [[u.pk, u.username, bool(u.is_bot)] for u in users]


def my_games(user) -> bytes:
    client = Client()
    client.force_login(user)
    page = client.get("/my/games/")
    assert page.status_code == 200
    # The lists (the page's head holds a token of each request).
    return page.content.split(b'class="card my-games"')[1].split(b'id="import-form"')[0]


def test_a_game_lists_its_players_when_it_starts():
    ann, bob = make_user(), make_user()
    table = lobby.table_create(host=ann, ruleset="halma", options={}, seat_count=2, clock=None)
    assert Game.objects.get(pk=table.pk).listed_players is None  # open: its seats may change
    lobby.table_join(game_id=table.pk, user=bob)
    lobby.table_start(game_id=table.pk, user=ann)
    assert Game.objects.get(pk=table.pk).listed_players == listed(ann, bob)


def test_my_games_names_the_players_from_the_row_as_from_the_seats():
    ann, bob, cat = make_user(), make_user(), make_user()
    started_game(players=[ann, bob])
    handed = started_game(players=[cat, ann])
    Game.objects.filter(pk=handed.pk).update(bots={"0": "easy"})  # a bot plays cat's seat
    with_bot = game_create(
        ruleset="halma", holders=[ann.pk, None], bots={1: "easy"}, rated=False, auto_start=True
    )
    assert Game.objects.get(pk=with_bot.pk).status == Game.Status.ACTIVE
    lobby.table_create(host=ann, ruleset="halma", options={}, seat_count=2, clock=None)
    from_rows = my_games(ann)
    assert Game.objects.filter(listed_players__isnull=False).count() == 3
    Game.objects.update(listed_players=None)
    assert my_games(ann) == from_rows
    for shown in (b"bot-badge", b"bot (", "—".encode(), bob.username.encode()):
        assert shown in from_rows


def test_a_deleted_or_renamed_player_leaves_no_copy():
    ann, bob, cat = make_user(), make_user(), make_user()
    renamed = started_game(players=[ann, bob])
    deleted = started_game(players=[ann, cat])
    kept = started_game(players=[bob, cat])
    ann.username = "ann_renamed"
    ann.save()
    assert Game.objects.get(pk=renamed.pk).listed_players is None
    assert Game.objects.get(pk=kept.pk).listed_players == listed(bob, cat)
    cat.delete()
    assert Game.objects.get(pk=deleted.pk).listed_players is None
    assert Game.objects.get(pk=kept.pk).listed_players is None
    page = my_games(ann)
    assert b"ann_renamed" in page and cat.username.encode() not in page


def test_a_game_that_ends_marks_its_seats():
    game = started_game()
    seats = Seat.objects.filter(game=game)
    assert not seats.filter(game_ended=True).exists()
    game_resign(game_id=game.pk, user=game.seats.get(index=0).user)
    assert seats.count() == 2 and all(seats.values_list("game_ended", flat=True))


def test_a_table_closed_before_it_started_marks_its_seats():
    ann = make_user()
    table = lobby.table_create(host=ann, ruleset="halma", options={}, seat_count=2, clock=None)
    lobby.table_leave(game_id=table.pk, user=ann)  # the host leaves: it closes
    assert Game.objects.get(pk=table.pk).status == Game.Status.ABORTED
    assert list(Seat.objects.filter(game=table).values_list("game_ended", flat=True)) == [
        True,
        True,
    ]


def test_an_imported_game_is_stored_ended():
    game = game_create_imported(
        ruleset="halma",
        options={},
        seat_count=2,
        seed=1,
        host=make_user().pk,
        state={},
        version=0,
        result={"winners": [0], "draw": False, "reason": "imported"},
    )
    assert set(Seat.objects.filter(game=game).values_list("game_ended", flat=True)) == {True}
