"""Joining and withdrawing at the same instant, over HTTP (real threads, real
database; the test command runs tests/lobby on SQLite and on PostgreSQL):
every request answers 200 or a clear 4xx, and the standings count a player once."""

from __future__ import annotations

from functools import partial

import pytest

from games.models import Game
from lobby import tournaments as svc
from lobby.models import Tournament, TournamentPlayer
from tests.factories import client_for, every_seat_moves, make_user
from tests.together import at_once

from .tournament_play import running_games

pytestmark = pytest.mark.django_db(transaction=True)

PARALLEL = 20


def post(user, path: str) -> tuple[int, str | None]:
    """The answer's status and error code (None on success)."""
    answer = client_for(user).post(path)
    body = answer.json()
    return answer.status_code, body.get("code") if answer.status_code >= 400 else None


def open_swiss(players: int) -> tuple[Tournament, list]:
    creator = make_user()
    t = svc.tournament_create(
        creator=creator, name="Race", ruleset="halma", system="swiss", rounds=3, play=False
    )
    users = [make_user() for _ in range(players)]
    for user in users:
        svc.tournament_join(tournament_id=t.pk, user=user)
    return t, users


def standings_names(t: Tournament) -> list[str]:
    answer = client_for(make_user()).get(f"/api/tournaments/{t.pk}/").json()
    return [row["username"] for row in answer["standings"]]


def assert_clear(results: list, ok: int, codes: set[str]) -> None:
    assert all(isinstance(r, tuple) for r in results), results  # no exception escaped
    assert sum(1 for status, _ in results if status == 200) == ok, results
    refused = [(status, code) for status, code in results if status != 200]
    assert all(400 <= status < 500 and code in codes for status, code in refused), results


@pytest.mark.parametrize("attempt", range(2))
def test_parallel_withdraws_from_an_open_tournament(attempt):
    t, users = open_swiss(3)
    leaver = users[0]
    url = f"/api/tournaments/{t.pk}/withdraw/"
    results = at_once([partial(post, leaver, url) for _ in range(PARALLEL)])
    assert_clear(results, 1, {"not_joined"})
    assert not TournamentPlayer.objects.filter(tournament=t, user=leaver).exists()
    assert sorted(standings_names(t)) == sorted(u.username for u in users[1:])


@pytest.mark.parametrize("attempt", range(2))
def test_parallel_withdraws_while_playing_resign_once_and_count_once(attempt):
    t, users = open_swiss(4)
    svc.tournament_start(tournament_id=t.pk, user=t.creator)
    t.refresh_from_db()
    for game in running_games(t):
        every_seat_moves(game, seed=attempt)
    leaver = users[0]
    game = next(g for g in running_games(t) if g.seats.filter(user=leaver).exists())
    url = f"/api/tournaments/{t.pk}/withdraw/"
    results = at_once([partial(post, leaver, url) for _ in range(PARALLEL)])
    assert_clear(results, 1, {"not_joined"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    row = TournamentPlayer.objects.get(tournament=t, user=leaver)
    assert row.withdrawn
    names = standings_names(t)
    assert names.count(leaver.username) == 1 and len(names) == 4


@pytest.mark.parametrize("attempt", range(2))
def test_parallel_joins_of_one_player_enter_them_once(attempt):
    t, _ = open_swiss(2)
    joiner = make_user()
    url = f"/api/tournaments/{t.pk}/join/"
    results = at_once([partial(post, joiner, url) for _ in range(PARALLEL)])
    assert_clear(results, 1, {"already_joined"})
    assert standings_names(t).count(joiner.username) == 1


def test_parallel_joins_of_many_players_enter_each_once():
    t, _ = open_swiss(0)
    joiners = [make_user() for _ in range(PARALLEL)]
    url = f"/api/tournaments/{t.pk}/join/"
    results = at_once([partial(post, user, url) for user in joiners])
    assert_clear(results, PARALLEL, set())
    assert sorted(standings_names(t)) == sorted(u.username for u in joiners)
