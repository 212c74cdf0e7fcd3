"""Two acts on one version at the same instant: one move, one "stale version".

Runs on whichever database the suite runs on; the test command runs this
module on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import os
from functools import partial

import pytest
from django.db import connection, connections

from games import publish
from games.errors import GameError
from games.models import Event, Game
from games.services.play import game_act
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game
from tests.together import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def race(game_id: int, calls: list[dict]) -> list:
    return at_once([partial(game_act, game_id=game_id, **call) for call in calls], timeout=30)


@pytest.mark.parametrize("attempt", range(3))
def test_two_tabs_same_version_one_move(attempt):
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    other = {"type": "move", "path": [[6, 8], [5, 8]]}
    results = race(
        game.pk,
        [
            {"user": white, "version": 1, "action": FIRST_MOVE},
            {"user": white, "version": 1, "action": other},
        ],
    )
    wins = [r for r in results if r == 2]
    errors = [r for r in results if isinstance(r, GameError)]
    assert len(wins) == 1, results
    assert len(errors) == 1 and errors[0].code == "stale_version", results
    assert errors[0].version == 2
    assert list(Event.objects.filter(game=game).values_list("version", flat=True)) == [1, 2]


@pytest.fixture
def watched_game(monkeypatch):
    """A started game, its two players, and the events published from now on."""
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    published: list[Event] = []
    monkeypatch.setattr(
        publish,
        "publish_game_event",
        lambda game, rs, state, event, holders=None: published.append(event),
    )
    return game, white, black, published


def test_an_act_in_its_own_transaction_commits_then_broadcasts_once(watched_game):
    # The act's last statement carries the COMMIT on PostgreSQL (games/store/rows.py):
    # the move must be durable, announced once after the commit, and the
    # connection usable for the next transaction.
    game, white, black, published = watched_game
    assert game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert game_act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert [e.version for e in published] == [2, 3]
    assert all(e.pk for e in published)
    assert not connection.in_atomic_block
    with connections["default"].cursor() as cursor:  # what another reader sees
        cursor.execute("SELECT version FROM games_game WHERE id = %s", [game.pk])
        assert cursor.fetchone()[0] == 3
    assert list(Event.objects.filter(game=game).values_list("version", flat=True)) == [1, 2, 3]


def test_a_conflict_in_the_committing_statement_is_stale_and_changes_nothing(watched_game):
    # Someone else's event row for version 2 already exists: the write that
    # would commit fails on the (game, version) constraint; nothing is kept.
    game, white, _, published = watched_game
    Event.objects.create(game=game, version=2, seat=None, kind=Event.Kind.ACT, events=[])
    with pytest.raises(GameError) as refused:
        game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert refused.value.code == "stale_version"
    assert Game.objects.get(pk=game.pk).version == 1
    assert published == []
    assert Event.objects.filter(game=game).count() == 2
    # And the connection goes on working.
    Event.objects.filter(game=game, version=2).delete()
    assert game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2


def test_the_race_ran_on_the_database_the_run_names():
    # bin/test runs this module twice: the PostgreSQL run must really race on PostgreSQL.
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    assert connection.vendor == expected
