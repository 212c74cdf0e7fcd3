"""The completion rate and My games read the same with 10 or 10,000 stored
games (issue 54 item 3): a seat says from the index whether its game ended,
so the completion rate reads by key only the player's live games, the first
time too; My games reads each shown game once and no seats for it."""

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
    """Games as their start and end leave them: the players on the row, an
    ended game's seats marked."""
    listed = [[user.pk, user.username, False]]
    games = Game.objects.bulk_create(
        Game(ruleset="halma", status=status, result={"winners": [0]}, listed_players=listed)
        for _ in range(count)
    )
    ended = status in selectors.ENDED
    Seat.objects.bulk_create(Seat(game=g, index=0, user=user, game_ended=ended) for g in games)
    return games


def game_reads(read) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as seen:
        answer = read()
    return answer, [q["sql"] for q in seen.captured_queries if 'FROM "games_game"' in q["sql"]]


@pytest.mark.parametrize("stored", [10, 10_000])
def test_a_first_completion_read_looks_up_only_the_live_games(stored):
    """Nothing cached: a player's first view after a week away read all 500
    games of the window by key (1,430 pages of the player page)."""
    player = make_user()
    games_of(player, stored)
    live = games_of(player, 2, Game.Status.ACTIVE)
    first, reads = game_reads(lambda: selectors.completion(player.pk))
    window = min(stored, selectors.COMPLETION_WINDOW - 2)
    assert first == {"started": window, "completed": window, "rate": 100}
    assert len(reads) == 1
    looked_up = {int(n) for n in re.findall(r"\d+", reads[0].split(" IN (")[1].split(")")[0])}
    assert looked_up == {g.pk for g in live}, "a game its seat says ended is not read"
    # Exact: a game ended by a process that does not mark seats (the release
    # before) counts at once, an offence too.
    Game.objects.filter(pk=live[0].pk).update(status=Game.Status.ABORTED)
    Offence.objects.create(user=player, game=live[0], kind="abort")
    done = selectors.completion(player.pk)
    assert done["started"] == window + 1 and done["completed"] == window


@pytest.mark.parametrize("stored", [10, 10_000])
def test_my_games_reads_each_shown_game_once_and_no_seats(stored):
    ann = make_user()
    games_of(ann, stored)
    with CaptureQueriesContext(connection) as seen:
        page = players.games_of(ann)
    sql = [q["sql"] for q in seen.captured_queries]
    assert len(page) == min(stored, players.MY_GAMES_PAGE)
    reads = [q for q in sql if 'FROM "games_game"' in q]
    assert len(reads) == 1, "the games are read whole in the walk, not checked then read"
    seats = [q for q in sql if 'FROM "games_seat"' in q]
    assert len(seats) == 1, "the walk only: the players come with the games"
    assert [s.username for g in page for s in g.listed] == [ann.username] * len(page)
    client = Client()
    client.force_login(ann)
    assert client.get("/my/games/").status_code == 200
