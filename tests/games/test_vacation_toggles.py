"""Toggling a vacation on the settings form is bounded (issue 47 item 10):
a new vacation starts at the earliest 12 hours after the last one ended and
a day after it began, refused with a clear message; a burst of toggles adds
one start and one end per game, and at most one "away" notice a day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from games.errors import GameError
from games.models import Event
from games.services import vacation
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


def test_forty_toggles_on_the_form_make_one_start_and_one_end_per_game():
    player = make_user()
    games = [started_game(players=[player, make_user()]) for _ in range(2)]
    browser = Client()
    browser.force_login(player)
    answers = []
    for i in range(40):
        data = {"stop": "1"} if i % 2 else {"until": ""}
        answers.append(browser.post("/accounts/settings/vacation/", data).status_code)
    assert answers[:2] == [302, 302]
    # Refused: too soon (409), not on vacation (400), or over the write budget (429).
    assert set(answers[2:]) <= {400, 409, 429}
    refused = browser.post("/accounts/settings/vacation/", {"until": ""})
    if refused.status_code == 409:
        page = refused.content.decode()
        assert 'data-testid="vacation-error"' in page and "next one at" in page
    for game in games:
        kinds = [
            item["type"]
            for event in Event.objects.filter(game=game, kind=Event.Kind.VACATION)
            for item in event.events
        ]
        assert kinds == ["vacation", "vacation_end"]
    page = browser.get("/accounts/settings/").content.decode()
    assert 'data-testid="vacation-next"' in page and 'data-testid="vacation-start"' not in page


def test_the_next_vacation_waits_12_hours_after_the_end_and_a_day_after_the_start():
    player = make_user()
    game = started_game(players=[player, make_user()])
    t0 = datetime(2026, 5, 4, 8, tzinfo=UTC)
    hours = timedelta(hours=1)
    vacation.vacation_start(user=player, until=None, now=t0)
    vacation.vacation_stop(user=player, now=t0 + 20 * hours)
    for too_soon in (
        t0 + 21 * hours,
        t0 + 31 * hours,
    ):  # 12 hours after the end: 08:00 next day + 8
        with pytest.raises(GameError) as refused:
            vacation.vacation_start(user=player, until=None, now=too_soon)
        assert refused.value.code == "vacation_too_soon" and refused.value.status == 409
        assert "2026-05-05 16:00 UTC" in str(refused.value)
    status = vacation.vacation_status(player.pk, now=t0 + 31 * hours)
    assert status["next_start"] == (t0 + 32 * hours).isoformat()
    vacation.vacation_start(user=player, until=None, now=t0 + 32 * hours)
    # A short vacation: the next waits a day from its start, not 12 hours from its end.
    vacation.vacation_stop(user=player, now=t0 + 33 * hours)
    with pytest.raises(GameError) as refused:
        vacation.vacation_start(user=player, until=None, now=t0 + 46 * hours)
    assert refused.value.code == "vacation_too_soon"
    vacation.vacation_start(user=player, until=None, now=t0 + 56 * hours)
    starts = [
        event.created
        for event in Event.objects.filter(game=game, kind=Event.Kind.VACATION)
        if event.events[0]["type"] == "vacation"
    ]
    assert len(starts) == 3
