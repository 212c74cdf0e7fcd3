"""Rated games ending at the same instant for one player: every result counts
(no lost update), and two games between the same two players, seated the
other way round, end together without a deadlock.

Runs on whichever database the suite runs on; the test command runs this
module on SQLite and again on PostgreSQL (where the row locks are real).
"""

from __future__ import annotations

import os
from functools import partial

import pytest
from django.db import connection

from games.models import Game, Rating, RatingChange
from games.services.endings import game_resign
from tests.factories import every_seat_moves, make_user, started_game
from tests.together import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def resign_at_once(resigns: list[tuple[Game, object]]) -> list:
    calls = [partial(game_resign, game_id=g.pk, user=u) for g, u in resigns]
    return at_once(calls, timeout=60)


def assert_chained(user) -> None:
    """Each rated game started from the rating the one before left: no update
    was lost. (History rows are inserted while the rating row is locked, so
    their ids follow the order the updates were applied in.)"""
    changes = list(RatingChange.objects.filter(user=user).order_by("pk"))
    row = Rating.objects.get(user=user)
    assert row.games == len(changes)
    chain = [1500] + [c.after for c in changes]
    assert [c.before for c in changes] == chain[:-1], [(c.before, c.after) for c in changes]
    assert row.display == chain[-1]


@pytest.mark.parametrize("attempt", range(3))
def test_three_games_ending_at_once_for_one_player_all_count(attempt):
    star = make_user()
    rivals = [make_user() for _ in range(3)]
    games = [every_seat_moves(started_game(players=[star, rival])) for rival in rivals]
    results = resign_at_once(list(zip(games, rivals, strict=True)))
    assert all(isinstance(r, int) for r in results), results
    assert all(Game.objects.get(pk=g.pk).status == Game.Status.FINISHED for g in games)
    assert Rating.objects.get(user=star).games == 3
    assert_chained(star)  # three wins: each update read the one before it


@pytest.mark.parametrize("attempt", range(3))
def test_two_games_between_the_same_players_crossed_seats_end_together(attempt):
    a, b = make_user(), make_user()
    first = every_seat_moves(started_game(players=[a, b]))
    second = every_seat_moves(started_game(players=[b, a]))
    results = resign_at_once([(first, a), (second, a)])
    assert all(isinstance(r, int) for r in results), results
    assert Rating.objects.get(user=a).games == 2
    assert Rating.objects.get(user=b).games == 2
    assert_chained(a)
    assert_chained(b)


def test_the_race_ran_on_the_database_the_run_names():
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    assert connection.vendor == expected
