"""Forced turns (issue 36): a Hexenhalma team that has not locked when the
round's deadline passes gets the orders it saved, not nothing."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.models import Event, MatchRecord
from games.realtime.sweeper import sweep_once

from .test_hexenhalma_platform import round_with_saved_orders

pytestmark = pytest.mark.django_db


def test_a_team_out_of_time_plays_the_orders_it_saved():
    game, _ = round_with_saved_orders()
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(hours=2)):
        assert sweep_once() == 3
    timeouts = Event.objects.filter(game_id=game.pk, kind="timeout").order_by("seat")
    assert [(e.seat, e.action) for e in timeouts] == [(1, {"type": "lock"}), (2, {"type": "lock"})]
    record = MatchRecord.objects.get(game_id=game.pk)
    assert record.data["teams"] == [1, 2] and record.data["score"] == [2, 0]
    assert [f["fate"] for f in record.data["fates"][0]] == ["goal", "goal"]  # the saved orders
    assert [f["fate"] for f in record.data["fates"][1]] == ["starved", "starved"]  # nothing saved
