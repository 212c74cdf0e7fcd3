"""The completion rate and My games read the same with 10 or 10,000 stored
games (issue 54 item 3): an ended game never runs again, so the completion
rate reads by key only the games it has not seen end; My games reads each
shown game once."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from games.selectors import players
from moderation import selectors
from moderation.models import Offence
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def games_of(user, count: int, status=Game.Status.FINISHED) -> list[Game]:
    games = Game.objects.bulk_create(
        Game(ruleset="halma", status=status, result={"winners": [0]}) for _ in range(count)
    )
    Seat.objects.bulk_create(Seat(game=g, index=0, user=user) for g in games)
    return games


def game_reads(read) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as seen:
        answer = read()
    return answer, [q["sql"] for q in seen.captured_queries if 'FROM "games_game"' in q["sql"]]


@pytest.mark.parametrize("stored", [10, 10_000])
def test_a_second_completion_read_looks_up_only_the_live_games(stored):
    player = make_user()
    games_of(player, stored)
    live = games_of(player, 2, Game.Status.ACTIVE)
    first, _ = game_reads(lambda: selectors.completion(player.pk))
    window = min(stored, selectors.COMPLETION_WINDOW - 2)
    assert first == {"started": window, "completed": window, "rate": 100}
    again, reads = game_reads(lambda: selectors.completion(player.pk))
    assert again == first
    assert len(reads) == 1
    looked_up = {int(n) for n in re.findall(r"\d+", reads[0].split(" IN (")[1].split(")")[0])}
    assert looked_up == {g.pk for g in live}, "a game seen ended is not read again"
    # Exact, not stale: a live game that ends counts at once, an offence too.
    Game.objects.filter(pk=live[0].pk).update(status=Game.Status.ABORTED)
    Offence.objects.create(user=player, game=live[0], kind="abort")
    done = selectors.completion(player.pk)
    assert done["started"] == window + 1 and done["completed"] == window


@pytest.mark.parametrize("stored", [10, 10_000])
def test_my_games_reads_each_shown_game_once(stored):
    ann = make_user()
    games_of(ann, stored)
    page, reads = game_reads(lambda: players.games_of(ann))
    assert len(page) == min(stored, players.MY_GAMES_PAGE)
    assert len(reads) == 1, "the games are read whole in the walk, not checked then read"
    page = Client()
    page.force_login(ann)
    assert page.get("/my/games/").status_code == 200
