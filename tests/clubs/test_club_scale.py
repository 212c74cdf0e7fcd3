"""A club's answer stays bounded however big the club: the same statements
for 10 members and 5,000, pages of members and games, a size cap
(bench/scale.py measures the time on PostgreSQL)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game, Rating, Seat
from lobby.clubs import club_create
from lobby.models import Club, ClubGame, ClubMember
from lobby.selectors.clubs import GAMES_PAGE, MEMBERS_PAGE
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db


def fill(club: Club, members: int, games: int, prefix: str) -> None:
    """``members`` more members (one admin in ten), with ratings, and
    ``games`` running games between pairs of them."""
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"{prefix}{n}", password="!") for n in range(members)
    )
    ClubMember.objects.bulk_create(
        ClubMember(club=club, user=u, role=1 if n % 10 == 0 else 2) for n, u in enumerate(users)
    )
    Rating.objects.bulk_create(
        Rating(user=u, ruleset=rs, speed="correspondence", mu=25, sigma=8, display=1500, games=3)
        for u in users
        for rs in ("halma", "malefiz")
    )
    made = Game.objects.bulk_create(
        Game(ruleset="halma", status=Game.Status.ACTIVE) for _ in range(games)
    )
    Seat.objects.bulk_create(
        Seat(game=g, index=i, user=users[(2 * n + i) % len(users)])
        for n, g in enumerate(made)
        for i in range(2)
    )
    # As the games' start would list them (tests/clubs/test_club_games.py).
    ClubGame.objects.bulk_create(ClubGame(club=club, game=g) for g in made)


def statements(client: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_same_statements_for_10_and_5000_members():
    small = club_create(creator=make_user("small_owner"), name="Kleiner Klub")
    big = club_create(creator=make_user("big_owner"), name="Großer Klub")
    fill(small, 10, 60, "s")  # more than a page of games, as the big one
    fill(big, 5000, 300, "b")
    viewer = client_for(make_user())
    counts = {statements(viewer, f"/api/clubs/{c.pk}/") for c in (small, big)}
    assert len(counts) == 1, counts
    # A later page as many (an empty one fewer: no ratings to read).
    assert statements(viewer, f"/api/clubs/{big.pk}/?page=3") == max(counts)
    # The statements of the owner's view (the code too) are as few.
    owner = client_for(ClubMember.objects.get(club=big, role=0).user)
    assert statements(owner, f"/api/clubs/{big.pk}/") <= max(counts) + 2


def test_a_big_clubs_answer_is_pages_within_50_kb():
    club = club_create(creator=make_user("owner"), name="Großer Klub")
    fill(club, 5000, 300, "m")
    client = APIClient()
    first = client.get(f"/api/clubs/{club.pk}/")
    assert len(first.content) <= 50_000, len(first.content)
    answer = first.json()
    assert len(answer["members"]) == MEMBERS_PAGE and answer["member_count"] == 5001
    assert [m["role"] for m in answer["members"][:2]] == ["owner", "admin"]
    assert answer["members"][1]["ratings"] == {"halma": 1500, "malefiz": 1500}
    assert len(answer["games"]) == GAMES_PAGE and answer["games_count"] == 300
    assert not answer["games_capped"]
    last = client.get(f"/api/clubs/{club.pk}/?members_page=101&games_page=6").json()
    assert len(last["members"]) == 1 and len(last["games"]) == 50
    assert client.get(f"/api/clubs/{club.pk}/?page=7").json()["games"] == []
    seen = {
        m["username"]
        for page in range(1, 102)
        for m in client.get(f"/api/clubs/{club.pk}/?members_page={page}").json()["members"]
    }
    assert len(seen) == 5001  # every member on exactly one page
