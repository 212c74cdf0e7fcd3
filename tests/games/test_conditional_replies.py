"""A conditional reply is a decision like any other (services/internal/replies.py,
events.decide_event): its owner's sanctions refuse it, it is decided on the
game itself after the move's row (each event's frames show its own
position), and matching reads only the owner's row of this game."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import publish
from games.models import ConditionalPlan, Event, Game
from games.services.play import game_act
from moderation.models import Standing
from tests.factories import client_for
from tests.games.test_conditional import line_from, url, waiting  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def planned(game: Game, white, length: int = 2) -> list[dict]:
    line = line_from(game, length)
    answer = client_for(white).put(url(game), {"lines": [line]}, format="json")
    assert answer.status_code == 200, answer.json()
    return line


@pytest.mark.parametrize(
    "standing",
    [{"suspended_until": timezone.now() + timedelta(days=3)}, {"closed": True}],
    ids=["suspended", "closed"],
)
def test_a_sanctioned_owners_lines_play_no_reply(waiting, standing):  # noqa: F811
    game, white, black = waiting
    line = planned(game, white)
    Standing.objects.create(user=white, **standing)
    assert game_act(game_id=game.pk, user=black, version=2, action=line[0]) == 3
    game.refresh_from_db()
    assert game.version == 3 and game.to_act == [0]  # White's own turn: no reply played
    assert not ConditionalPlan.objects.filter(game=game).exists() and game.plan_seats == []


def test_a_lapsed_suspension_replies(waiting):  # noqa: F811
    game, white, black = waiting
    line = planned(game, white)
    Standing.objects.create(user=white, suspended_until=timezone.now() - timedelta(days=1))
    game_act(game_id=game.pk, user=black, version=2, action=line[0])
    game.refresh_from_db()
    assert game.version == 4 and Event.objects.get(game=game, version=4).action == line[1]


def test_each_events_frames_show_its_own_position(waiting, django_capture_on_commit_callbacks):  # noqa: F811
    """The reply moves the same game on (no copy of it): the move's frames,
    built before, still show Black's move with White to act."""
    game, white, black = waiting
    line = planned(game, white)
    sent: list[dict] = []
    with (
        publish.sending_with(lambda group, message: sent.append(message)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game_act(game_id=game.pk, user=black, version=2, action=line[0])
    frames = {m["version"]: json.loads(m["frames"]["0"]) for m in sent if m.get("frames")}
    assert sorted(frames) == [3, 4]
    assert frames[3]["event"]["seat"] == 1 and frames[3]["state"]["to_act"] == [0]
    assert frames[4]["event"]["seat"] == 0 and frames[4]["state"]["to_act"] == [1]


def other_games_lines(game: Game, count: int) -> None:
    """``count`` stored lines of other games (100 seats' rows per game)."""
    fields = Game.objects.filter(pk=game.pk).values().get()
    fields.pop("id")
    games = Game.objects.bulk_create(
        [Game(**{**fields, "invite_code": f"other{game.pk}x{i}"}) for i in range(-(-count // 100))]
    )
    line = ConditionalPlan.objects.get(game=game).lines[0]
    rows = [ConditionalPlan(game=g, seat=seat, lines=[line]) for g in games for seat in range(100)]
    ConditionalPlan.objects.bulk_create(rows[:count])


def answered_move_queries(count: int) -> list[str]:
    from tests.factories import make_user, started_game

    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    game_act(
        game_id=game.pk, user=white, version=1, action={"type": "move", "path": [[5, 9], [4, 9]]}
    )
    game.refresh_from_db()
    line = planned(game, white, length=4)
    other_games_lines(game, count)
    with CaptureQueriesContext(connection) as queries:
        game_act(game_id=game.pk, user=black, version=2, action=line[0])
    assert Game.objects.get(pk=game.pk).version == 4
    return [q["sql"] for q in queries.captured_queries]


def test_matching_reads_only_the_owners_lines_of_this_game():
    """10 or 10,000 lines of other games: the same statements, and each that
    reads or writes lines names this game and the owner's seat."""
    few, many = answered_move_queries(10), answered_move_queries(10_000)
    assert len(many) == len(few)
    plan_table = ConditionalPlan._meta.db_table
    touching = [sql for sql in many if plan_table in sql]
    assert touching
    for sql in touching:
        assert re.search(r'"game_id" = \S+', sql) and re.search(r'"seat" = \S+', sql), sql


def test_one_place_makes_a_change():
    """Every act, reply and platform event is decided into a Change by
    events.decide_event; no caller assembles one by hand."""
    made = {}
    for path in [*ROOT.glob("games/**/*.py"), *ROOT.glob("lobby/**/*.py")]:
        found = re.findall(r"(?<![\w.])(?:events\.)?Change\(", path.read_text())
        if found:
            made[str(path.relative_to(ROOT))] = len(found)
    assert made == {"games/services/internal/events.py": 1}
