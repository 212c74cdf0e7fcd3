"""Stored standings (issue 54 item 2): computed by ``lobby.pairing.standings``
once per change of the results, by the sweeper's tournament thread, and
equal to what the API computes from every result (``read.detail``) once
stored; a round's results cost one computation, and the thread touches only
the tournaments whose standings are due."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from games.services import handover
from games.services.endings import game_resign
from lobby import tournaments as svc
from lobby.models import Tournament, TournamentPairing, TournamentPlayer, TournamentStanding
from lobby.selectors import tournaments as read
from lobby.tournaments.due import tournament_due_next, tournament_due_run
from lobby.tournaments.standings import tournament_standings_store_due
from tests.factories import make_user

from .tournament_play import finish_game, play_round, running_games

pytestmark = pytest.mark.django_db


def store_due() -> int:
    """What the thread does once the standings' delay is over (no waiting)."""
    return tournament_standings_store_due(now=timezone.now() + timedelta(hours=1))


def stored(t: Tournament) -> list[dict]:
    """The stored standings in place order, in the API's row shape."""
    rows = (
        TournamentStanding.objects.filter(tournament=t)
        .order_by("place")
        .values_list("place", "rank", "user__username", "points", "tiebreaks", "withdrawn")
    )
    assert [row[0] for row in rows] == list(range(1, len(rows) + 1))  # no gap, no twin
    return [
        {"rank": r, "username": u, "points": p, "tiebreaks": b, "withdrawn": w}
        for _, r, u, p, b, w in rows
    ]


def assert_current(t: Tournament) -> None:
    """Once stored, the stored standings are the computed ones, and not due."""
    store_due()
    t.refresh_from_db()
    assert t.standings_due is None
    assert stored(t) == read.detail(t)["standings"]


def started(ruleset: str = "halma", players: int = 5, **extra) -> tuple[Tournament, list]:
    creator = make_user()
    fields = {"name": "Cup", "ruleset": ruleset, "system": "swiss", "rounds": 3, **extra}
    t = svc.tournament_create(creator=creator, play=False, **fields)
    users = [make_user() for _ in range(players)]
    for user in users:
        svc.tournament_join(tournament_id=t.pk, user=user)
    assert stored(t) == read.detail(t)["standings"]  # open: exact without computing
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    return t, users


def test_a_swiss_with_byes_stored_after_each_result_and_round():
    t, _ = started(players=5)  # a bye each round
    assert stored(t) == read.detail(t)["standings"]  # the start stores them
    rng = random.Random(7)
    for _ in range(3):
        first, *rest = running_games(t)
        finish_game(first, rng)
        t.refresh_from_db()
        assert t.standings_due is not None  # the result waits to be counted
        assert_current(t)
        for game in rest:
            finish_game(game, rng)
        t.refresh_from_db()
        if t.status == Tournament.Status.RUNNING:
            assert_current(t)  # the round's last result and the next round's bye
    assert t.status == Tournament.Status.FINISHED
    assert t.standings_due is None  # the finish stored the final standings itself
    assert stored(t) == read.detail(t)["standings"]


def test_withdrawals_open_and_running_and_a_late_joiner():
    creator = make_user()
    t = svc.tournament_create(
        creator=creator, name="Cup", ruleset="halma", system="swiss", rounds=5
    )
    users = [make_user() for _ in range(6)]
    for user in users:
        svc.tournament_join(tournament_id=t.pk, user=user)
    svc.tournament_withdraw(tournament_id=t.pk, user=users[2])  # open: the places close up
    t.refresh_from_db()
    assert t.standings_due is None and stored(t) == read.detail(t)["standings"]
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    late = make_user()
    svc.tournament_join(tournament_id=t.pk, user=late)
    assert stored(t)[-1]["username"] == late.username and stored(t)[-1]["rank"] is None
    assert_current(t)
    play_round(t, random.Random(3))
    svc.tournament_withdraw(tournament_id=t.pk, user=users[0])  # running: resigns, stays listed
    t.refresh_from_db()
    assert_current(t)
    assert any(row["withdrawn"] for row in stored(t))


def test_round_robin_forfeits_against_a_withdrawn_player():
    creator = make_user()
    t = svc.tournament_create(
        creator=creator, name="RR", ruleset="halma", system="round_robin", play=False
    )
    users = [make_user() for _ in range(5)]
    for user in users:
        svc.tournament_join(tournament_id=t.pk, user=user)
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    svc.tournament_withdraw(tournament_id=t.pk, user=users[1])
    rng = random.Random(5)
    while t.status == Tournament.Status.RUNNING:
        play_round(t, rng)
        if t.status == Tournament.Status.RUNNING:
            assert_current(t)
    assert stored(t) == read.detail(t)["standings"]


@pytest.mark.parametrize("seats, players", [(3, 7), (4, 7)])
def test_tables_of_three_and_four_seats(seats: int, players: int):
    t, _ = started("malefiz", players=players, seat_count=seats, rounds=2)
    for _ in range(2):
        for game in running_games(t):
            for seat in range(game.seat_count - 1):  # the last one standing wins
                game.refresh_from_db()
                if game.status == Game.Status.ACTIVE:
                    game_resign(game_id=game.pk, user=game.seats.get(index=seat).user)
                    handover.handover_offers_expire(now=timezone.now() + timedelta(days=30))
            t.refresh_from_db()
            if t.status == Tournament.Status.RUNNING:
                assert_current(t)
        t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = stored(t)
    assert rows == read.detail(t)["standings"]
    assert all(len(row["tiebreaks"]) == 1 for row in rows)  # the table opponents' points


def test_a_round_of_results_is_counted_once():
    t, _ = started(players=16, rounds=2)
    first = running_games(t)
    assert len(first) == 8
    finish_game(first[0], random.Random(1))
    t.refresh_from_db()
    due = t.standings_due
    assert due is not None
    for game in first[1:-1]:
        finish_game(game, random.Random(game.pk))
    t.refresh_from_db()
    assert t.standings_due == due  # later results wait for the same computation
    assert store_due() == 1
    assert store_due() == 0  # nothing due any more
    assert_current(t)


def idle_tournaments(count: int) -> None:
    """Finished tournaments with stored standings: nothing for the thread."""
    made = Tournament.objects.bulk_create(
        Tournament(name=f"Old {n}", ruleset="halma", system="swiss", status="finished")
        for n in range(count)
    )
    user = make_user()
    TournamentPlayer.objects.bulk_create(TournamentPlayer(tournament=m, user=user) for m in made)
    TournamentStanding.objects.bulk_create(
        TournamentStanding(tournament=m, user=user, place=1, rank=1, tiebreaks=[0.0, 0.0])
        for m in made
    )


def statements(call) -> int:
    with CaptureQueriesContext(connection) as seen:
        call()
    return len(seen)


def test_the_thread_touches_only_due_tournaments():
    t, _ = started(players=4, rounds=2)
    idle_tournaments(10)
    idle = statements(lambda: tournament_due_run(timezone.now() + timedelta(hours=1)))
    finish_game(running_games(t)[0], random.Random(2))
    few = statements(lambda: tournament_due_run(timezone.now() + timedelta(hours=1)))
    idle_tournaments(200)
    assert statements(lambda: tournament_due_run(timezone.now() + timedelta(hours=1))) == idle
    finish_game(running_games(t)[0], random.Random(3))  # the round's last: round 2 paired
    Tournament.objects.filter(pk=t.pk).update(due=None)
    t.refresh_from_db()
    many = statements(lambda: tournament_due_run(timezone.now() + timedelta(hours=1)))
    assert few == many and few > idle
    assert stored(t) == read.detail(t)["standings"]


def test_the_thread_wakes_for_due_standings():
    t, _ = started(players=4, rounds=2)
    assert tournament_due_next() is None
    finish_game(running_games(t)[0], random.Random(2))
    t.refresh_from_db()
    assert tournament_due_next() == t.standings_due
    assert tournament_due_run(t.standings_due) == 1
    assert tournament_due_next() is None


def test_results_recorded_elsewhere_count_once_stored():
    """A pairing's points written outside the services (an admin's fix) are
    counted the next time the standings are stored."""
    t, _ = started(players=4, rounds=2)
    pairing = TournamentPairing.objects.filter(tournament=t, round=1).first()
    a, b = pairing.players
    TournamentPairing.objects.filter(pk=pairing.pk).update(points={str(a): 0.5, str(b): 0.5})
    Tournament.objects.filter(pk=t.pk).update(standings_due=timezone.now())
    assert_current(t)
