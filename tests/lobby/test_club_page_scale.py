"""A club's page is bounded however big the club (issue 52): one page of the
members (with their ratings) and one page of their running games, the same
statements with 10 or 5,000 members, at most 50 KB with 5,000 members and
1,000 running games."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Rating, Seat
from lobby.models import Club, ClubGame, ClubMember
from lobby.selectors.clubs import GAMES_PAGE, MEMBERS_PAGE

pytestmark = pytest.mark.django_db

MAX_BYTES = 50_000


def club_of(size: int, games: int, tag: str) -> tuple[Club, list]:
    """A club of ``size`` members (every one rated in two games) who play
    ``games`` running games against each other, two by two."""
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{tag}{n:05}", password="!") for n in range(size)
    )
    club = Club.objects.create(name=f"Verein {tag}", creator=users[0])
    ClubMember.objects.bulk_create(
        ClubMember(club=club, user=u, role=ClubMember.Role.OWNER if n == 0 else 2)
        for n, u in enumerate(users)
    )
    Rating.objects.bulk_create(
        Rating(user=u, ruleset=rs, speed="correspondence", mu=25, sigma=8, display=1500 + n % 300)
        for n, u in enumerate(users)
        for rs in ("halma", "malefiz")
    )
    made = Game.objects.bulk_create(
        Game(ruleset="halma", status=Game.Status.ACTIVE, state={}) for _ in range(games)
    )
    Seat.objects.bulk_create(
        Seat(game=g, index=i, user=users[(2 * n + i) % size])
        for n, g in enumerate(made)
        for i in (0, 1)
    )
    # What lobby/clubs/live_games.py keeps when the games start through the factory.
    ClubGame.objects.bulk_create(ClubGame(club=club, game=g) for g in made)
    return club, users


def page(club: Club, user=None, query: str = "") -> tuple[int, str]:
    client = Client()
    if user is not None:
        client.force_login(user)
    with CaptureQueriesContext(connection) as seen:
        answer = client.get(f"/clubs/{club.pk}/{query}")
    assert answer.status_code == 200
    return len(seen), answer.content.decode()


def test_the_page_is_bounded_with_5000_members_and_1000_games():
    # Both clubs' games fill more than a page: the same reads (the count too).
    small_club, small_users = club_of(10, GAMES_PAGE + 10, "klein")
    big_club, big_users = club_of(5000, 1000, "gross")
    for who in (None, 0):
        small_n, _ = page(small_club, None if who is None else small_users[who])
        big_n, big = page(big_club, None if who is None else big_users[who])
        assert big_n == small_n, (small_n, big_n)
        assert len(big.encode()) <= MAX_BYTES, len(big.encode())
    assert big.count('data-testid="member"') == MEMBERS_PAGE
    assert big.count('data-testid="club-game"') == GAMES_PAGE
    assert "(1000)" in big  # the count of running games, read up to its cap
    last_n, last = page(big_club, big_users[0], "?members=100&games=20")
    assert last_n == big_n and big_users[-1].username in last
    print(f"club page, 5,000 members, 1,000 games: {len(big.encode())} bytes, {big_n} statements")
