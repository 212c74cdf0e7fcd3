"""Automatic signals on a scripted series of rated games: boosting (5 rated
games in 7 days, 80% won by one side), shared device cookies, many reports."""

from __future__ import annotations

import pytest

from moderation.models import Report, Sighting
from tests.factories import client_for, make_user
from tests.moderation.test_refunds import play

pytestmark = pytest.mark.django_db


def signals(reason: str = "boosting") -> list[tuple[str, str | None]]:
    return [
        (r.target.username, r.reporter_id)
        for r in Report.objects.filter(reason=reason).select_related("target")
    ]


def test_a_one_sided_pair_files_one_boosting_report_for_the_winner():
    farmer, feeder = make_user("farmer"), make_user("feeder")
    for _ in range(3):
        play(farmer, feeder)
    play(feeder, farmer)
    assert signals() == []  # 4 games: not yet
    play(farmer, feeder)  # 5 games, 4 won by one side: 80%
    assert signals() == [("farmer", None)]
    play(farmer, feeder)
    assert signals() == [("farmer", None)]  # one open signal, not one per game
    report = Report.objects.get(reason="boosting")
    [pair] = report.evidence["pairs"]
    assert pair == {"winner": "farmer", "loser": "feeder", "won": 4, "games": 5, "days": 7}
    mod = client_for(make_user("mod", moderator=True))
    items = mod.get("/api/moderation/reports/").json()["items"]
    assert [(i["username"], i["reason"], i["reporter"]) for i in items] == [
        ("farmer", "boosting", None)
    ]


def test_an_even_pair_files_nothing():
    a, b = make_user(), make_user()
    for winner, loser in [(a, b), (b, a), (a, b), (b, a), (a, b), (a, b)]:
        play(winner, loser)  # 4 of 6: 67%
    assert signals() == []


def test_accounts_sharing_a_device_that_play_rated_are_flagged():
    a, b = make_user("one"), make_user("two")
    Sighting.objects.create(user=a, address="10.0.0.1", device="nonce-1")
    Sighting.objects.create(user=b, address="10.0.0.2", device="nonce-1")
    play(a, b)
    assert sorted(signals("shared_device")) == [("one", None), ("two", None)]
    mod = client_for(make_user("mod", moderator=True))
    report = Report.objects.filter(target=a).first()
    case = mod.get(f"/api/moderation/reports/{report.pk}/").json()
    assert case["history"]["same_origin"] == [{"username": "two", "address": False, "device": True}]


def test_reports_from_three_people_file_a_signal():
    make_user("target")
    for _ in range(3):
        answer = client_for(make_user()).post(
            "/api/reports/", {"username": "target", "reason": "abuse"}, format="json"
        )
        assert answer.status_code == 201
    assert signals("many_reports") == [("target", None)]


def test_a_login_records_the_address_and_the_device_cookie():
    from django.conf import settings
    from django.test import Client

    user = make_user("seen")
    browser = Client(REMOTE_ADDR="10.1.2.3")
    form = {"username": "seen", "password": "pw-123456789"}
    assert browser.post("/accounts/login/", form).status_code == 302
    assert list(Sighting.objects.values_list("address", "device")) == [("10.1.2.3", "")]
    assert settings.DEVICE_COOKIE_NAME in browser.cookies  # this browser is known from now on
    browser.post("/accounts/logout/")
    browser.post("/accounts/login/", form)
    seen = sorted(Sighting.objects.filter(user=user).values_list("device", flat=True))
    assert seen[0] == "" and len(seen) == 2 and seen[1]


def test_a_days_rating_jump_files_a_signal():
    from django.test import override_settings

    climber = make_user("climber")
    with override_settings(RATING_JUMP=120):
        play(climber, make_user())
        assert signals("rating_jump") == []  # about 80 points: expected
        play(climber, make_user())
        assert signals("rating_jump") == [("climber", None)]
    [jump] = Report.objects.get(reason="rating_jump").evidence["jumps"]
    assert jump["ruleset"] == "halma" and jump["gain"] >= 120
