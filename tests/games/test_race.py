"""Two acts on one version at the same instant: one move, one "stale version".

Runs on whichever database the suite runs on; the test command runs this
module on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games.errors import GameError
from games.models import Event
from games.services import game_act
from tests.factories import FIRST_MOVE, make_user, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def race(game_id: int, calls: list[dict]) -> list:
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = game_act(game_id=game_id, **calls[i])
        except GameError as exc:
            results[i] = exc
        except Exception as exc:  # anything else is a bug, e.g. "database is locked"
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


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


def test_database_vendor_is_reported():
    # Makes the run's database visible in the test output of the two runs.
    assert connection.vendor in {"sqlite", "postgresql"}
