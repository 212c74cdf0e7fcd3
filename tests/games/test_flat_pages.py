"""Pages that stay the same size as rows pile up (issue 31): the player
page's rating chart, the remis queue and the lobby's counts."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from frontend.charts import MAX_POINTS, rating_chart, thinned
from games.models import Game, Rating, RatingChange, Seat
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db


def test_a_long_history_is_thinned_keeping_its_peaks_and_troughs():
    rng = random.Random(31)
    ratings = [1500 + rng.randint(-300, 300) for _ in range(2001)]
    kept = thinned(ratings)
    assert len(kept) <= MAX_POINTS
    assert kept[0] == (0, ratings[0]) and kept[-1] == (2000, ratings[-1])
    values = [v for _, v in kept]
    assert max(values) == max(ratings) and min(values) == min(ratings)
    assert [i for i, _ in kept] == sorted({i for i, _ in kept})  # in order, no repeats
    assert thinned(ratings[:50]) == list(enumerate(ratings[:50]))  # short ones whole
    assert rating_chart(ratings, "t", "c").count("<circle") <= MAX_POINTS


def rated_player(changes: int):
    ann = make_user()
    games = Game.objects.bulk_create(
        Game(ruleset="halma", status=Game.Status.FINISHED, result={"winners": [0]})
        for _ in range(changes)
    )
    Seat.objects.bulk_create(Seat(game=g, index=0, user=ann) for g in games)
    start = timezone.now() - timedelta(days=1000)
    RatingChange.objects.bulk_create(
        RatingChange(
            user=ann,
            game=g,
            ruleset="halma",
            speed="correspondence",
            place=1,
            before=1500 + n % 97,
            after=1501 + n % 89,
            mu=25,
            sigma=8,
            created=start + timedelta(hours=n),
        )
        for n, g in enumerate(games)
    )
    Rating.objects.create(
        user=ann,
        ruleset="halma",
        speed="correspondence",
        mu=25,
        sigma=8,
        display=1500,
        games=changes,
    )
    return ann


def test_the_player_page_stays_small_however_long_the_history():
    def size(changes: int) -> int:
        ann = rated_player(changes)
        page = client_for(ann).get(f"/players/{ann.username}/")
        assert page.status_code == 200
        return len(page.content)

    few, many = size(10), size(2000)
    assert many < 50_000
    assert many - few < 15_000  # at most MAX_POINTS points, however many games
