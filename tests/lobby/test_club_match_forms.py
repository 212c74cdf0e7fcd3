"""A club match from the pages alone (lobby/club_views.py, club_match_views.py):
the club page's challenge form, the match page's answer and lineup forms, the
start; a refusal is a message on the page and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby.models import ClubMatch, ClubMatchBoard
from tests.lobby.test_club_matches import clubs  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_match_made_and_started_from_the_pages(clubs):  # noqa: F811
    home, away, p = clubs
    owner = page_client(p["home_owner"])
    club_page = owner.get(f"/clubs/{home.pk}/")
    assert b'data-testid="club-challenge"' in club_page.content
    sent = owner.post(
        f"/clubs/{home.pk}/",
        {
            "action": "challenge",
            "opponent": "halma süd",
            "ruleset": "halma",
            "boards": "2",
            "clock": "rt10",
        },
    )
    match = ClubMatch.objects.get()
    assert sent.status_code == 302 and sent["Location"] == f"/club-matches/{match.pk}/"
    assert (match.home_id, match.away_id, match.boards) == (home.pk, away.pk, 2)
    assert match.clock["kind"] == "realtime" and match.clock["minutes"] == 10

    away_admin = page_client(p["away_admin"])
    away_admin.post(f"/club-matches/{match.pk}/", {"action": "accept"})
    match.refresh_from_db()
    assert match.status == ClubMatch.Status.ACCEPTED

    # Each side's staff see their own lineup form only, one field a board.
    shown = owner.get(f"/club-matches/{match.pk}/").content.decode()
    assert 'data-testid="lineup-form-home"' in shown and "lineup-form-away" not in shown
    assert shown.count('name="player"') == 2
    for client, side, names in (
        (owner, home, ["home0", "home1"]),
        (away_admin, away, ["away0", ""]),  # a blank field is left out
    ):
        client.post(
            f"/club-matches/{match.pk}/",
            {"action": "lineup", "club": str(side.pk), "player": names},
        )
    away_admin.post(
        f"/club-matches/{match.pk}/",
        {"action": "lineup", "club": str(away.pk), "player": ["away0", "away1"]},
    )
    assert "home1" in owner.get(f"/club-matches/{match.pk}/").content.decode()
    owner.post(f"/club-matches/{match.pk}/", {"action": "start"})
    match.refresh_from_db()
    assert match.status == ClubMatch.Status.RUNNING
    assert ClubMatchBoard.objects.filter(match=match, game__isnull=False).count() == 2


@pytest.mark.parametrize(
    "who, form",
    [
        ("home_owner", {"opponent": "no such club", "ruleset": "halma", "boards": "2"}),
        ("home_owner", {"opponent": "Halma Süd", "ruleset": "hexenhalma", "boards": "2"}),
        ("home_owner", {"opponent": "Halma Süd", "ruleset": "halma", "boards": "99"}),
        ("home_owner", {"opponent": "Halma Süd", "ruleset": "halma", "boards": "x" * 5000}),
        ("home_owner", {"opponent": "Spieleabend Nord", "ruleset": "halma", "boards": "2"}),
        ("home0", {"opponent": "Halma Süd", "ruleset": "halma", "boards": "2"}),
        ("outsider", {"opponent": "Halma Süd", "ruleset": "halma", "boards": "2"}),
    ],
)
def test_a_refused_challenge_says_why_and_makes_nothing(clubs, who, form):  # noqa: F811
    home, _away, p = clubs
    client = page_client(p[who])
    answer = client.post(f"/clubs/{home.pk}/", {"action": "challenge", **form}, follow=True)
    assert answer.status_code == 200
    assert [str(m) for m in answer.context["messages"]], "a message says why"
    assert not ClubMatch.objects.exists()


def test_a_lineup_form_of_a_member_is_refused(clubs):  # noqa: F811
    home, _away, p = clubs
    page_client(p["home_owner"]).post(
        f"/clubs/{home.pk}/",
        {"action": "challenge", "opponent": "Halma Süd", "ruleset": "halma", "boards": "2"},
    )
    match = ClubMatch.objects.get()
    member = page_client(p["home0"])
    assert "lineup-form" not in member.get(f"/club-matches/{match.pk}/").content.decode()
    answer = member.post(
        f"/club-matches/{match.pk}/",
        {"action": "lineup", "club": str(home.pk), "player": ["home0"]},
        follow=True,
    )
    assert [str(m) for m in answer.context["messages"]]
    assert not match.players.exists()
