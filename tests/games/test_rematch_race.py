"""Two players accepting a rematch at the same instant open exactly one game.

Runs on whichever database the suite runs on; the test command runs this
module on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

from functools import partial

import pytest

from games.models import Game, Rematch
from games.services.endings import game_resign
from games.services.handover import game_handover_decline
from games.services.rematch import rematch_offer
from tests.factories import every_seat_moves, make_user, started_game
from tests.together import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("offered", [False, True])
def test_simultaneous_yes_opens_one_game(offered):
    players = [make_user() for _ in range(3)]
    game = every_seat_moves(started_game("malefiz", players=players))  # else an abort
    game_resign(game_id=game.pk, user=players[0])
    # Two would remain: the others are asked to hand the seat to a bot first.
    game_handover_decline(game_id=game.pk, user=players[1], seat=0)
    game_resign(game_id=game.pk, user=players[1])
    if offered:
        rematch_offer(game_id=game.pk, user=players[0])
    racers = players[1:] if offered else players
    results = at_once([partial(rematch_offer, game_id=game.pk, user=u) for u in racers], timeout=30)
    assert all(isinstance(r, dict) for r in results), results
    assert Game.objects.count() == 2
    rematch = Rematch.objects.get(game=game)
    assert rematch.new_game_id is not None
    assert sorted(rematch.accepted) == [0, 1, 2]
    assert [r["new_game"] for r in results if r["status"] == "accepted"] == [rematch.new_game_id]
