"""Forced turns (issue 36): a Hexenhalma team that has not locked when the
round's deadline passes gets the orders it saved, not nothing."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Event, MatchRecord
from games.realtime.sweeper import sweep_once
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import make_user

from .test_hexenhalma_platform import OPEN, SECRET, act

pytestmark = pytest.mark.django_db


def test_a_team_out_of_time_plays_the_orders_it_saved():
    gm, one, two = make_user(), make_user(), make_user()
    game = lobby.table_create(host=gm, ruleset="hexenhalma", seat_count=3, clock={"kind": "none"})
    for user in (one, two):
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=gm)
    deadline = (timezone.now() + timedelta(hours=1)).isoformat()
    game_act(game_id=game.pk, user=gm, version=1, action={**OPEN, "deadline": deadline})
    act(game.pk, one, {"type": "orders", "orders": SECRET})  # saved, never locked
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(hours=2)):
        assert sweep_once() == 3
    timeouts = Event.objects.filter(game_id=game.pk, kind="timeout").order_by("seat")
    assert [(e.seat, e.action) for e in timeouts] == [(1, {"type": "lock"}), (2, {"type": "lock"})]
    record = MatchRecord.objects.get(game_id=game.pk)
    assert record.data["teams"] == [1, 2] and record.data["score"] == [2, 0]
    assert [f["fate"] for f in record.data["fates"][0]] == ["goal", "goal"]  # the saved orders
    assert [f["fate"] for f in record.data["fates"][1]] == ["starved", "starved"]  # nothing saved
