"""TV: which live game is featured, and when it changes."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Rating
from games.selectors import tv
from games.selectors.tv import Candidate, pick, score
from games.services.endings import game_resign
from tests.factories import make_user, started_game


def test_close_games_of_strong_players_score_highest():
    assert score([1800, 1800]) > score([2100, 1500])  # same mean, one is close
    assert score([2000, 2000]) > score([1800, 1800])
    assert score([]) == 0


def test_the_featured_game_changes_only_for_one_scoring_a_fifth_more():
    held = Candidate(1, 1000.0, False)
    slightly = Candidate(2, 1199.0, False)
    clearly = Candidate(3, 1200.0, False)
    assert pick(1, [held, slightly]) == held
    assert pick(1, [held, slightly, clearly]) == clearly
    assert pick(None, [held, slightly]) == slightly  # nothing held: the best
    assert pick(1, [slightly]) == slightly  # the held game ended
    assert pick(1, []) is None


def test_bot_games_only_when_no_game_of_people_is_live():
    people = Candidate(1, 900.0, False)
    bots = Candidate(2, 5000.0, True)
    assert pick(None, [people, bots]) == people
    assert pick(2, [people, bots]) == people  # a bot game held gives way at once
    assert pick(None, [bots]) == bots


def rate(user, ruleset: str, display: int) -> None:
    Rating.objects.create(
        user=user, ruleset=ruleset, speed="correspondence", mu=25, sigma=8, display=display
    )


@pytest.mark.django_db
def test_featured_follows_the_rules_on_stored_games():
    ann, bob, cid, dan = (make_user() for _ in range(4))
    for user, figure in ((ann, 1900), (bob, 1900), (cid, 2000), (dan, 2000)):
        rate(user, "halma", figure)
    first = started_game(players=[ann, bob])
    assert tv.featured(None)["game"] == first.pk
    second = started_game(players=[cid, dan])  # scores 2000, not 1.2 x 1900
    assert tv.featured(None)["game"] == first.pk
    assert tv.featured("halma")["game"] == second.pk  # a channel of its own: nothing held yet
    assert tv.featured("malefiz") is None
    game_resign(game_id=first.pk, user=ann)
    assert tv.featured(None)["game"] == second.pk


@pytest.mark.django_db
def test_featured_answer_and_pages():
    game = started_game()
    answer = Client().get("/tv/featured/").json()["featured"]
    assert answer["game"] == game.pk and answer["version"] == game.version
    assert answer["title"] == "Halma" and len(answer["players"]) == 2
    assert Client().get("/tv/halma/featured/").json()["featured"]["game"] == game.pk
    assert Client().get("/tv/daschax/featured/").json() == {"featured": None}
    assert Client().get("/tv/").status_code == 200
    assert Client().get("/tv/halma/").status_code == 200
    assert Client().get("/tv/chess/").status_code == 404
    assert Client().get("/tv/chess/featured/").status_code == 404


@pytest.mark.django_db
def test_choosing_reads_the_same_with_many_games_stored(django_assert_max_num_queries):
    for _ in range(25):
        started_game()
    with django_assert_max_num_queries(6):
        tv.featured(None)
