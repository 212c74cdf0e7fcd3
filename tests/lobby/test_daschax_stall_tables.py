"""The Daschax house rule's table option (issue 50): ``stall_turns`` other
than 150 (0: off) only at casual tables; a rated table, quick play and a
rated tournament are refused with a clear 400 and nothing is created; a
casual table's game ends drawn on the limit's turn."""

from __future__ import annotations

import pytest

from games.models import Game
from games.reasons import REASON_DASCHAX_STALL
from lobby.models import Tournament
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db

FORMATION = {"formation": "SMSLSMSLSM", "move_first": "white"}


def post(user, path: str, body: dict):
    return client_for(user).post(path, body, format="json")


def refused(answer) -> None:
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "bad_options" and "stall_turns" in body["message"], body
    assert "casual" in body["message"]


@pytest.mark.parametrize("stall", [0, 40, 300])
@pytest.mark.parametrize("rated", [True, None])
def test_a_rated_table_keeps_150(stall: int, rated: bool | None) -> None:
    body = {"ruleset": "daschax", "options": {"stall_turns": stall}}
    if rated is not None:
        body["rated"] = rated  # absent: rated between people, the default
    refused(post(make_user(), "/api/tables/", body))
    assert not Game.objects.exists()


def test_a_rated_table_may_say_150() -> None:
    answer = post(
        make_user(), "/api/tables/", {"ruleset": "daschax", "options": {"stall_turns": 150}}
    )
    assert answer.status_code == 201, answer.content
    assert Game.objects.get().options["stall_turns"] == 150


def test_a_casual_table_sets_it_or_turns_it_off() -> None:
    for stall in (0, 40):
        body = {"ruleset": "daschax", "rated": False, "options": {"stall_turns": stall}}
        answer = post(make_user(), "/api/tables/", body)
        assert answer.status_code == 201, answer.content
        assert Game.objects.get(pk=answer.json()["id"]).options["stall_turns"] == stall


def test_playing_the_computer_is_casual() -> None:
    body = {"ruleset": "daschax", "bot": {"level": "easy"}, "options": {"stall_turns": 0}}
    answer = post(make_user(), "/api/tables/", body)
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=answer.json()["id"])
    assert game.status == Game.Status.ACTIVE and game.state["variants"]["stall_turns"] == 0


@pytest.mark.parametrize("bad", ["150", -1, 10_001, True, 2.5])
def test_bad_values_are_clear_400s(bad: object) -> None:
    body = {"ruleset": "daschax", "rated": False, "options": {"stall_turns": bad}}
    answer = post(make_user(), "/api/tables/", body)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_options"
    assert "stall_turns" in answer.json()["message"]
    assert not Game.objects.exists()


def test_quick_play_is_rated() -> None:
    body = {"ruleset": "daschax", "options": {"stall_turns": 0}}
    refused(post(make_user(), "/api/quickplay/", body))
    assert not Game.objects.exists()


def tournament(rated: bool, stall: int) -> dict:
    return {
        "name": "Cup",
        "ruleset": "daschax",
        "system": "swiss",
        "seat_count": 2,
        "rounds": 1,
        "clock": {"kind": "correspondence", "days": 3},
        "rated": rated,
        "starts_at": None,
        "round_pause_seconds": 0,
        "options": {"stall_turns": stall},
    }


def test_a_rated_tournament_keeps_150_a_casual_one_may_not() -> None:
    refused(post(make_user(), "/api/tournaments/", tournament(True, 0)))
    assert not Tournament.objects.exists()
    answer = post(make_user(), "/api/tournaments/", tournament(False, 0))
    assert answer.status_code == 201, answer.content
    assert Tournament.objects.get().options["stall_turns"] == 0


def test_a_casual_game_ends_drawn_on_the_limits_turn() -> None:
    white, black = make_user(), make_user()
    body = {"ruleset": "daschax", "rated": False, "options": {**FORMATION, "stall_turns": 4}}
    table = post(white, "/api/tables/", body).json()
    assert post(black, f"/api/tables/{table['id']}/join/", {}).status_code == 200
    game = Game.objects.get(pk=table["id"])
    assert game.status == Game.Status.ACTIVE
    quiet = [(white, [0, 0], "L"), (black, [9, 9], "L"), (white, [0, 0], "R"), (black, [9, 9], "R")]
    version = game.version
    for n, (user, at, step) in enumerate(quiet):
        action = {"type": "turn", "at": at, "steps": [step]}
        answer = post(user, f"/api/games/{game.pk}/act/", {"version": version, "action": action})
        assert answer.status_code == 200, answer.content
        version = answer.json()["version"]
        detail = client_for(user).get(f"/api/games/{game.pk}/").json()
        assert detail["state"]["view"]["capture_free_turns"] == n + 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["draw"] and game.result["winners"] == []
    assert game.result["reason"] == REASON_DASCHAX_STALL
    assert game.result["reason_params"] == {"turns": 4}
    detail = client_for(white).get(f"/api/games/{game.pk}/").json()
    assert detail["state"]["result_text"].startswith("Drawn: 4 turns in a row without a capture")
    # Nothing more to play: the next turn is refused.
    action = {"type": "turn", "at": [0, 0], "steps": ["L"]}
    late = post(white, f"/api/games/{game.pk}/act/", {"version": version, "action": action})
    assert late.status_code == 400
