"""The Daschax house rule (RULES.md section 2, issue 50): 150 turns in a row
without a capture end the game drawn; the count is in the state and the view;
a table's ``stall_turns`` sets the limit (0: off)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from games.rules.base import IllegalAction, InvalidOptions
from games.rules.daschax import DaschaxState
from games.rules.daschax.ruleset import REASON_STALL
from tests.games.rules.test_daschax import RS, position, refused, turn

TWO_SMALL = [(2, 2, "S", 0, "N"), (7, 7, "S", 1, "S")]
# Each side turns its piece left, then back right: no capture is ever possible.
SHUFFLE = [turn(2, 2, "L"), turn(7, 7, "L"), turn(2, 2, "R"), turn(7, 7, "R")]
DRAW = {
    "winners": [],
    "draw": True,
    "reason": REASON_STALL,
    "reason_params": {"turns": 150},
}


def shuffled(state: DaschaxState, turns: int) -> DaschaxState:
    """``state`` after ``turns`` capture-free turns of the two small pieces."""
    for _ in range(turns):
        state, _ = RS.apply(state, state.to_move, SHUFFLE[state.turns % 4])
    return state


def test_the_150th_capture_free_turn_draws_the_149th_does_not() -> None:
    state = shuffled(position(TWO_SMALL), 149)
    assert state.since_capture == 149 and RS.outcome(state) is None
    assert RS.view(state, 0)["capture_free_turns"] == 149
    assert RS.to_act(state) == [state.to_move]
    last = SHUFFLE[149 % 4]
    state, events = RS.apply(state, state.to_move, last)
    assert events[-1] == {"type": "stalled", "turns": 150}
    assert RS.outcome(state) == DRAW
    assert RS.to_act(state) == [] and RS.legal_actions(state, state.to_move) == []
    view = RS.view(state, 1)
    assert view["phase"] == "over" and view["outcome"] == DRAW
    assert view["capture_free_turns"] == 150 and view["stall_turns"] == 150
    refused(state, state.to_move, SHUFFLE[150 % 4], "the game is over")


def test_a_capture_restarts_the_count() -> None:
    # White's small piece takes Black's on d6 after 140 quiet turns.
    pieces = [(3, 4, "S", 0, "N"), (3, 5, "S", 1, "S"), (8, 8, "M", 1, "S")]
    state = dataclasses.replace(position(pieces), since_capture=140)
    state, events = RS.apply(state, 0, turn(3, 4, "F"))
    assert events[0]["captures"] and state.since_capture == 0
    assert RS.view(state, 0)["capture_free_turns"] == 0
    state, _ = RS.apply(state, 1, turn(8, 8, "L"))
    assert state.since_capture == 1 and RS.outcome(state) is None


def test_several_captures_in_one_turn_restart_it_once() -> None:
    pieces = [(4, 4, "L", 0, "N"), (4, 5, "S", 1, "S"), (4, 6, "M", 1, "S"), (0, 9, "S", 1, "S")]
    state = dataclasses.replace(position(pieces, move_on=True), since_capture=149)
    state, events = RS.apply(state, 0, turn(4, 4, "F", "F"))
    assert len(events[0]["captures"]) == 2 and state.since_capture == 0
    assert RS.outcome(state) is None


def test_removing_own_pieces_is_no_capture() -> None:
    pieces = [(4, 4, "M", 0, "N"), (2, 2, "S", 0, "N"), (9, 9, "S", 1, "S")]
    state = dataclasses.replace(position(pieces, removal=True), since_capture=148)
    state, _ = RS.apply(state, 0, {"type": "remove", "at": [2, 2]})
    assert state.since_capture == 148 and RS.outcome(state) is None  # the turn goes on
    state, _ = RS.apply(state, 0, turn(4, 4, "F"))
    assert state.since_capture == 149 and RS.outcome(state) is None
    state, events = RS.apply(state, 1, turn(9, 9, "L"))
    assert events[-1]["type"] == "stalled" and RS.outcome(state) == DRAW


def test_placement_turns_do_not_count() -> None:
    state = RS.setup({"place_first": "white", "move_first": "white", "stall_turns": 1}, 2, 5)
    rng = random.Random(5)
    while RS.view(state, None)["phase"] == "placement":
        assert RS.outcome(state) is None and not RS.view(state, None)["stall_warning"]
        state, _ = RS.apply(
            state, state.to_move, rng.choice(RS.legal_actions(state, state.to_move))
        )
    assert state.since_capture == 0 and RS.outcome(state) is None
    quiet = next(
        a
        for a in RS.legal_actions(state, 0)
        if a["type"] == "turn" and not RS.apply(state, 0, a)[1][0]["captures"]
    )
    state, _ = RS.apply(state, 0, quiet)
    assert state.since_capture == 1
    assert RS.outcome(state) == {**DRAW, "reason_params": {"turns": 1}}


def test_stall_turns_zero_turns_the_rule_off() -> None:
    state = shuffled(position(TWO_SMALL, stall_turns=0), 400)
    assert state.since_capture == 400 and RS.outcome(state) is None
    view = RS.view(state, 0)
    assert view["stall_turns"] == 0 and view["options"]["stall_turns"] == 0
    assert not view["stall_warning"] and view["legal_actions"]


def test_a_table_limit_other_than_150() -> None:
    state = shuffled(position(TWO_SMALL, stall_turns=20), 19)
    assert RS.outcome(state) is None
    state = shuffled(state, 1)
    assert RS.outcome(state) == {**DRAW, "reason_params": {"turns": 20}}


def test_the_view_warns_from_100_on() -> None:
    state = position(TWO_SMALL)
    assert RS.view(state, None)["capture_free_turns"] == 0
    state = shuffled(state, 99)
    assert not RS.view(state, None)["stall_warning"]
    state = shuffled(state, 1)
    assert RS.view(state, 0)["stall_warning"] and RS.view(state, None)["stall_warning"]


@pytest.mark.parametrize("bad", ["150", True, -1, 10_001, 1.5, None])
def test_stall_turns_must_be_a_whole_number_in_range(bad: Any) -> None:
    with pytest.raises(InvalidOptions) as err:
        RS.validate_options({"stall_turns": bad})
    assert "stall_turns" in str(err.value)


def test_stall_turns_accepts_its_range() -> None:
    assert RS.validate_options({})["stall_turns"] == 150
    for good in (0, 1, 150, 10_000):
        assert RS.validate_options({"stall_turns": good})["stall_turns"] == good
    assert RS.setup({"stall_turns": 0}, 2, 1).variants.stall_turns == 0


def test_the_count_is_stored_and_restored() -> None:
    state = shuffled(position(TWO_SMALL, stall_turns=200), 77)
    stored = json.loads(json.dumps(RS.encode(state)))
    assert stored["since_capture"] == 77 and stored["variants"]["stall_turns"] == 200
    assert RS.decode(stored) == state


def test_a_game_stored_before_the_rule_keeps_playing() -> None:
    stored = RS.encode(shuffled(position(TWO_SMALL), 120))
    del stored["since_capture"]
    del stored["variants"]["stall_turns"]
    old = RS.decode(stored)
    assert old.since_capture == 0 and old.variants.stall_turns == 0
    state = shuffled(old, 200)  # its rules did not have the house rule
    assert RS.outcome(state) is None and RS.legal_actions(state, state.to_move)


def test_the_count_keeps_the_stall_draw_in_replays() -> None:
    # A replay is the log applied again: it ends on the same turn.
    actions = [SHUFFLE[n % 4] for n in range(150)]
    state = position(TWO_SMALL)
    for n, action in enumerate(actions):
        state, _ = RS.apply(state, state.to_move, action)
        assert (RS.outcome(state) is None) == (n < 149)
    with pytest.raises(IllegalAction):
        RS.apply(state, state.to_move, SHUFFLE[0])
