"""Conditional moves (issue 36): stored per seat, played in the opponent's
move's transaction as an event of their own, dropped when they no longer
match or are illegal, refused clearly on any bad input."""

from __future__ import annotations

from unittest import mock

import pytest

from games.errors import GameError
from games.models import ConditionalPlan, Event, Game
from games.rules import get_ruleset
from games.services import endings
from games.services.play import game_act
from games.store import rows
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

pytestmark = pytest.mark.django_db

HALMA = get_ruleset("halma")


def url(game: Game) -> str:
    return f"/api/games/{game.pk}/conditional/"


def line_from(game: Game, length: int, pick: int = 0) -> list[dict]:
    """``length`` legal actions from the game's position, each seat's ``pick``-th."""
    game.refresh_from_db()
    state, line = HALMA.decode(game.state), []
    for _ in range(length):
        seat = HALMA.to_act(state)[0]
        actions = HALMA.legal_actions(state, seat)
        action = actions[min(pick, len(actions) - 1)]
        state, _ = HALMA.apply(state, seat, action)
        line.append(action)
    return line


@pytest.fixture
def waiting():
    """White moved; Black is to move; White plans."""
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    game.refresh_from_db()
    return game, white, black


def events_of(game: Game) -> list[tuple[int, int | None, str]]:
    return list(Event.objects.filter(game=game).values_list("version", "seat", "kind"))


def test_a_line_is_played_out_by_the_opponents_moves(waiting):
    game, white, black = waiting
    line = line_from(game, 4)
    answer = client_for(white).put(url(game), {"lines": [line]}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json() == {"lines": [line]}
    game.refresh_from_db()
    assert game.plan_seats == [0]
    version = game_act(game_id=game.pk, user=black, version=2, action=line[0])
    assert version == 3
    game.refresh_from_db()
    assert game.version == 4 and game.to_act == [1]  # the reply: version +2
    reply = Event.objects.get(game=game, version=4)
    assert (reply.seat, reply.kind, reply.action) == (0, Event.Kind.ACT, line[1])
    assert Event.objects.get(game=game, version=3).created == reply.created
    assert ConditionalPlan.objects.get(game=game, seat=0).lines == [line[2:]]
    game_act(game_id=game.pk, user=black, version=4, action=line[2])
    game.refresh_from_db()
    assert game.version == 6 and Event.objects.get(game=game, version=6).action == line[3]
    assert not ConditionalPlan.objects.filter(game=game).exists() and game.plan_seats == []
    assert client_for(white).get(url(game)).json() == {"lines": []}


def test_the_reply_commits_with_the_move_or_not_at_all(waiting):
    game, white, black = waiting
    line = line_from(game, 2)
    client_for(white).put(url(game), {"lines": [line]}, format="json")
    real, calls = rows.save_event, []

    def second_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the reply's write fails")
        return real(*args, **kwargs)

    with mock.patch.object(rows, "save_event", second_fails), pytest.raises(RuntimeError):
        game_act(game_id=game.pk, user=black, version=2, action=line[0])
    game.refresh_from_db()
    assert game.version == 2 and events_of(game)[-1][0] == 2  # the move rolled back with it
    assert ConditionalPlan.objects.get(game=game).lines == [line]


def test_a_move_that_matches_no_line_drops_them(waiting):
    game, white, black = waiting
    planned = line_from(game, 2, pick=0)
    other = line_from(game, 1, pick=3)[0]
    assert other != planned[0]
    client_for(white).put(url(game), {"lines": [planned]}, format="json")
    game_act(game_id=game.pk, user=black, version=2, action=other)
    game.refresh_from_db()
    assert game.version == 3 and game.to_act == [0]  # White's own turn, nothing played
    assert not ConditionalPlan.objects.filter(game=game).exists() and game.plan_seats == []


def test_matching_lines_stay_and_others_go(waiting):
    game, white, black = waiting
    first = line_from(game, 4, pick=0)
    other_start = line_from(game, 2, pick=2)
    client_for(white).put(url(game), {"lines": [first, other_start]}, format="json")
    game_act(game_id=game.pk, user=black, version=2, action=first[0])
    assert ConditionalPlan.objects.get(game=game).lines == [first[2:]]


def test_an_illegal_stored_reply_drops_its_line_and_the_next_one_plays(waiting):
    game, white, black = waiting
    good = line_from(game, 2)
    illegal = {"type": "move", "path": [[0, 0], [1, 1]]}  # Black's piece, not White's
    ConditionalPlan.objects.create(game=game, seat=0, lines=[[good[0], illegal]])
    Game.objects.filter(pk=game.pk).update(plan_seats=[0])
    game_act(game_id=game.pk, user=black, version=2, action=good[0])
    game.refresh_from_db()
    assert game.version == 3 and game.to_act == [0]  # no reply
    assert not ConditionalPlan.objects.filter(game=game).exists() and game.plan_seats == []
    # Two lines for the same move: the illegal reply is skipped, the legal one plays.
    game_act(game_id=game.pk, user=white, version=3, action=line_from(game, 1)[0])
    game.refresh_from_db()
    nxt = line_from(game, 2)
    ConditionalPlan.objects.create(game=game, seat=0, lines=[[nxt[0], illegal], nxt])
    Game.objects.filter(pk=game.pk).update(plan_seats=[0])
    game_act(game_id=game.pk, user=black, version=4, action=nxt[0])
    game.refresh_from_db()
    assert game.version == 6 and Event.objects.get(game=game, version=6).action == nxt[1]


def test_the_end_of_the_game_clears_the_lines(waiting):
    game, white, black = waiting
    client_for(white).put(url(game), {"lines": [line_from(game, 2)]}, format="json")
    endings.game_resign(game_id=game.pk, user=black)
    game.refresh_from_db()
    assert game.is_over and game.plan_seats == []
    assert not ConditionalPlan.objects.filter(game=game).exists()


def test_delete_clears_and_get_shows_only_the_owners_lines(waiting):
    game, white, black = waiting
    line = line_from(game, 2)
    client_for(white).put(url(game), {"lines": [line]}, format="json")
    assert client_for(white).get(url(game)).json() == {"lines": [line]}
    assert client_for(black).get(url(game)).json() == {"lines": []}
    assert client_for(make_user()).get(url(game)).json() == {"lines": []}
    assert client_for(white).delete(url(game)).json() == {"lines": []}
    game.refresh_from_db()
    assert game.plan_seats == [] and not ConditionalPlan.objects.exists()


def refused(client, game, body, status: int, code: str) -> None:
    before = Game.objects.values_list("version", "plan_seats").get(pk=game.pk)
    answer = client.put(url(game), body, format="json")
    assert answer.status_code == status, answer.json()
    assert answer.json()["code"] == code and answer.json()["message"]
    assert Game.objects.values_list("version", "plan_seats").get(pk=game.pk) == before
    assert not ConditionalPlan.objects.filter(game=game).exists()


def test_limits_and_bad_input_change_nothing(waiting):
    game, white, black = waiting
    me = client_for(white)
    line = line_from(game, 2)
    refused(me, game, {"lines": "no"}, 400, "bad_request")
    refused(me, game, {}, 400, "bad_request")
    refused(me, game, {"lines": [line] * 21}, 400, "too_many")
    refused(me, game, {"lines": [line_from(game, 12)]}, 400, "too_long")
    refused(me, game, {"lines": [line[:1]]}, 400, "bad_request")  # no reply
    refused(me, game, {"lines": [[]]}, 400, "bad_request")
    refused(me, game, {"lines": [["move", "e2"]]}, 400, "bad_request")
    refused(me, game, {"lines": [[{"path": []}, line[1]]]}, 400, "bad_request")
    refused(me, game, {"lines": [[line[1], line[0]]]}, 400, "illegal")
    refused(
        me, game, {"lines": [line, [line[0], {"type": "move", "path": [[9, 9]]}]]}, 400, "illegal"
    )
    refused(client_for(black), game, {"lines": [line]}, 400, "not_opponents_turn")
    refused(client_for(make_user()), game, {"lines": [line]}, 403, "not_seated")
    from rest_framework.test import APIClient

    refused(APIClient(), game, {"lines": [line]}, 403, "login_required")
    answer = me.put("/api/games/999999/conditional/", {"lines": [line]}, format="json")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert client_for(white).get("/api/games/999999/conditional/").status_code == 404
    # At the limits exactly: 20 lines of 10 moves.
    assert (
        me.put(url(game), {"lines": [line_from(game, 10)] * 20}, format="json").status_code == 200
    )


@pytest.mark.parametrize(
    ("ruleset", "clock", "options"),
    [
        ("halma", {"kind": "realtime", "minutes": 5, "increment": 0}, {}),
        ("halma", {"kind": "none"}, {}),
        ("malefiz", None, {}),
        ("daschax", None, {"removal": True}),
        ("idiotenspiel", None, {"sandglass": 0}),
    ],
)
def test_games_without_them_say_not_supported(ruleset, clock, options):
    players = [make_user(), make_user()]
    game = started_game(ruleset, players=players, clock=clock, **options)
    rs = get_ruleset(ruleset)
    seat = 1 - rs.to_act(rs.decode(game.state))[0] if rs.to_act(rs.decode(game.state)) else 0
    if ruleset == "idiotenspiel":  # the start player chooses: no set-up yet
        seat = 1 - game.to_act[0]
    refused(
        client_for(players[seat]),
        game,
        {"lines": [[{"type": "x"}, {"type": "y"}]]},
        400,
        "not_supported",
    )


def test_a_finished_game_takes_none(waiting):
    game, white, black = waiting
    endings.game_resign(game_id=game.pk, user=black)
    refused(client_for(white), game, {"lines": [[{"type": "x"}, {"type": "y"}]]}, 400, "game_over")


def test_the_service_checks_its_input_too(waiting):
    from games.services.conditional import conditional_save

    game, white, _ = waiting
    with pytest.raises(GameError) as caught:
        conditional_save(
            game_id=game.pk, user=white, lines=[[{"type": "move", "path": [float("nan")]}] * 2]
        )
    assert caught.value.code == "bad_request"


@pytest.mark.parametrize("ruleset", ["daschax", "idiotenspiel"])
def test_daschax_placement_and_idiotenspiel_setup_take_lines(ruleset):
    """Turns of one action in these games too: Daschax's placement (and
    turns), Idiotenspiel's set-up once the start player has chosen."""
    import random

    rs, rng = get_ruleset(ruleset), random.Random(1)
    players = [make_user(), make_user()]
    options = {"sandglass": 0} if ruleset == "idiotenspiel" else {}
    game = started_game(ruleset, players=players, **options)
    state = rs.decode(game.state)
    while not rs.single_action_turns(state):  # Idiotenspiel: the start player chooses
        seat = rs.to_act(state)[0]
        action = rs.random_action(state, seat, rng)
        game_act(game_id=game.pk, user=players[seat], version=game.version, action=action)
        game.refresh_from_db()
        state = rs.decode(game.state)
    mover = rs.to_act(state)[0]
    line, after = [], state
    for _ in range(2):
        seat = rs.to_act(after)[0]
        action = rs.random_action(after, seat, rng)
        line.append(rs.normalize_action(after, seat, action))
        after, _ = rs.apply(after, seat, line[-1])
    answer = client_for(players[1 - mover]).put(url(game), {"lines": [line]}, format="json")
    assert answer.status_code == 200, answer.json()
    version = game_act(game_id=game.pk, user=players[mover], version=game.version, action=line[0])
    game.refresh_from_db()
    assert game.version == version + 1
    assert Event.objects.get(game=game, version=game.version).action == answer.json()["lines"][0][1]


def test_the_planning_preview_draws_the_line_for_its_owner_only(waiting):
    game, white, black = waiting
    line = line_from(game, 1)
    path = f"/api/games/{game.pk}/conditional/preview/"
    answer = client_for(white).post(path, {"line": line}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["to_act"] == [0]  # White's reply is next
    assert body["view"]["last_move"]["path"] == line[0]["path"]  # Black's planned move drawn
    assert all(a["type"] == "move" for a in body["legal"]) and body["legal"]
    refusal = client_for(black).post(path, {"line": []}, format="json")
    assert refusal.status_code == 400 and refusal.json()["code"] == "not_opponents_turn"
    stranger = client_for(make_user()).post(path, {"line": []}, format="json")
    assert stranger.status_code == 403
    wrong = client_for(white).post(path, {"line": [line[0], line[0]]}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] in ("illegal", "not_supported")
    assert Game.objects.get(pk=game.pk).version == 2  # a preview moves nothing
