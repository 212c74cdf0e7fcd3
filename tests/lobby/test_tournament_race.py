"""Pairing happens once: the last games of a round ending at the same instant,
and two sweepers finding the same due round (real threads, real database;
the test command runs tests/lobby on SQLite and on PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from django.utils import timezone

from games.services.endings import game_resign
from lobby import tournaments as svc
from lobby.models import Tournament, TournamentPairing
from tests.factories import every_seat_moves, make_user
from tests.together import at_once

from .tournament_play import running_games

pytestmark = pytest.mark.django_db(transaction=True)


def started_swiss(players: int, **extra) -> Tournament:
    creator = make_user()
    t = svc.tournament_create(
        creator=creator, name="Race", ruleset="halma", system="swiss", rounds=3, **extra
    )
    for _ in range(players):
        svc.tournament_join(tournament_id=t.pk, user=make_user())
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    return t


@pytest.mark.parametrize("attempt", range(3))
def test_the_last_games_ending_at_once_pair_the_next_round_once(attempt):
    t = started_swiss(8)
    games = running_games(t)
    for game in games:
        every_seat_moves(game, seed=attempt)
    losers = [game.seats.get(index=0).user for game in games]
    results = at_once(
        [partial(game_resign, game_id=g.pk, user=u) for g, u in zip(games, losers, strict=True)]
    )
    assert all(isinstance(r, int) for r in results), results
    t.refresh_from_db()
    assert t.current_round == 2
    assert TournamentPairing.objects.filter(tournament=t, round=2).count() == 4
    assert TournamentPairing.objects.filter(tournament=t, round=1, points__isnull=True).count() == 0


def test_two_sweepers_on_a_due_round_pair_it_once():
    t = started_swiss(4, round_pause_seconds=30)
    for game in running_games(t):
        every_seat_moves(game)
        game_resign(game_id=game.pk, user=game.seats.get(index=1).user)
    t.refresh_from_db()
    later = t.due + timedelta(seconds=1)
    results = at_once([partial(svc.tournament_rounds_pair_due, now=later) for _ in range(3)])
    assert all(isinstance(r, int) for r in results), results
    assert sum(results) == 1
    assert TournamentPairing.objects.filter(tournament=t, round=2).count() == 2
    t.refresh_from_db()
    assert t.current_round == 2 and t.due is None
    assert svc.tournament_rounds_pair_due(now=timezone.now() + timedelta(days=1)) == 0
