"""A 200-player, 7-round Swiss played end to end on PostgreSQL: every game one
move per seat, then a resignation; every round checked by the pairing
properties (no repeat, one bye at most each, seats balanced)."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from lobby import tournaments as svc
from lobby.models import TournamentPairing
from lobby.pairing import Pairing
from lobby.selectors import tournaments as read
from tests.factories import make_user

from .swiss_sim import check_round
from .tournament_play import play_round

pytestmark = pytest.mark.django_db


def test_a_200_player_swiss_of_7_rounds_end_to_end():
    if connection.vendor != "postgresql":
        pytest.skip("the scale run is for PostgreSQL (bin/test runs tests/lobby there)")
    creator = make_user()
    t = svc.tournament_create(
        creator=creator, name="Big", ruleset="halma", system="swiss", rounds=7
    )
    players = [make_user() for _ in range(200)]
    for user in players:
        svc.tournament_join(tournament_id=t.pk, user=user)
    svc.tournament_start(tournament_id=t.pk, user=creator)
    rng = random.Random(200)
    ids = [u.pk for u in players]
    for number in range(1, 8):
        t.refresh_from_db()
        assert t.current_round == number
        before = TournamentPairing.objects.filter(tournament=t, round__lt=number)
        entrants = read.entrants(t, ids, before_round=number)
        games = [
            Pairing(tuple(p.players), bye=p.bye)
            for p in TournamentPairing.objects.filter(tournament=t, round=number)
        ]
        assert before.count() == 100 * (number - 1)
        check_round(entrants, games)
        play_round(t, rng)
    t.refresh_from_db()
    assert t.status == "finished"
    standings = read.detail(t)["standings"]
    assert len(standings) == 200 and sum(row["points"] for row in standings) == 700
