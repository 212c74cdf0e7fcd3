"""Daschax rules (RULES.md section 2): concrete positions, variants, playouts, fuzzing."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.base import IllegalAction, InvalidOptions
from games.rules.daschax import (
    CELLS,
    FACINGS,
    NEIGHBOUR,
    START_COUNTS,
    DaschaxRuleset,
    DaschaxState,
)

RS = DaschaxRuleset()
SIZE = {"S": 1, "M": 2, "L": 3}


def cell(col: int, row: int) -> int:
    return row * 10 + col


def position(
    pieces: list[tuple[int, int, str, int, str]],
    to_move: int = 0,
    **options: Any,
) -> DaschaxState:
    """A play-phase state with exactly ``pieces``: (col, row, size letter, seat, facing).

    Pieces not on the board count as captured by the opponent, so the
    counters agree with the board.
    """
    base = RS.setup({"formation": "SSSSSMMMLL", "move_first": "white", **options}, 2, 7)
    board: list[tuple[int, int, int] | None] = [None] * CELLS
    present = [[0, 0, 0], [0, 0, 0]]
    for col, row, size, seat, facing in pieces:
        assert board[cell(col, row)] is None
        board[cell(col, row)] = (seat, SIZE[size], FACINGS.index(facing))
        present[seat][SIZE[size] - 1] += 1
    lost = [tuple(START_COUNTS[i] - present[s][i] for i in range(3)) for s in (0, 1)]
    assert all(n >= 0 for counts in lost for n in counts)
    return dataclasses.replace(
        base, board=tuple(board), to_move=to_move, captured=(lost[1], lost[0])
    )


def turn(col: int, row: int, *steps: str) -> dict[str, Any]:
    return {"type": "turn", "at": [col, row], "steps": list(steps)}


def piece_at(state: DaschaxState, col: int, row: int) -> tuple[int, str, str] | None:
    p = state.board[cell(col, row)]
    return None if p is None else (p[0], "SML"[p[1] - 1], FACINGS[p[2]])


def refused(state: DaschaxState, seat: int, action: Any, message: str) -> None:
    before = RS.encode(state)
    with pytest.raises(IllegalAction) as err:
        RS.apply(state, seat, action)
    assert message in str(err.value)
    assert RS.encode(state) == before


def result_key(event: dict[str, Any]) -> tuple[Any, ...]:
    caps = frozenset(tuple(c["at"]) for c in event["captures"])
    return tuple(event["from"]), tuple(event["to"]), event["facing"], caps


def brute_force(state: DaschaxState, seat: int) -> dict[tuple[Any, ...], int]:
    """Every distinct turn result with its fewest steps, trying every step list."""
    alphabet = "FLRB" if state.variants.backward else "FLR"
    results: dict[tuple[Any, ...], int] = {}
    for i, p in enumerate(state.board):
        if p is None or p[0] != seat:
            continue
        for n in range(1, p[1] + 1):
            for steps in itertools.product(alphabet, repeat=n):
                try:
                    _, events = RS.apply(state, seat, turn(i % 10, i // 10, *steps))
                except IllegalAction:
                    continue
                results.setdefault(result_key(events[0]), n)
    return results


def legal_results(state: DaschaxState, seat: int) -> dict[tuple[Any, ...], int]:
    """The result of each legal turn action and its number of steps."""
    keys = {}
    for action in RS.legal_actions(state, seat):
        if action["type"] == "turn":
            key = result_key(RS.apply(state, seat, action)[1][0])
            assert key not in keys, "one action per distinct end result"
            keys[key] = len(action["steps"])
    return keys


def assert_legal_complete(state: DaschaxState) -> None:
    """legal_actions gives every result once, each with a shortest step list."""
    assert legal_results(state, state.to_move) == brute_force(state, state.to_move)


# -- geometry -----------------------------------------------------------------


def test_neighbours_follow_the_offset_columns() -> None:
    n, ne, se, s, sw, nw = NEIGHBOUR[cell(4, 4)]  # even column
    assert (n, ne, se, s, sw, nw) == (
        cell(4, 5),
        cell(5, 4),
        cell(5, 3),
        cell(4, 3),
        cell(3, 3),
        cell(3, 4),
    )
    n, ne, se, s, sw, nw = NEIGHBOUR[cell(5, 4)]  # odd column
    assert (n, ne, se, s, sw, nw) == (
        cell(5, 5),
        cell(6, 5),
        cell(6, 4),
        cell(5, 3),
        cell(4, 4),
        cell(4, 5),
    )
    assert NEIGHBOUR[cell(0, 0)][5] == -1 and NEIGHBOUR[cell(0, 0)][3] == -1
    assert NEIGHBOUR[cell(9, 9)][1] == -1 and NEIGHBOUR[cell(9, 9)][0] == -1
    # Every neighbour relation is symmetric.
    for c in range(CELLS):
        for f in range(6):
            d = NEIGHBOUR[c][f]
            assert d == -1 or NEIGHBOUR[d][(f + 3) % 6] == c


# -- setup and options ------------------------------------------------------------


def test_coin_tosses_come_from_the_seed_and_are_recorded() -> None:
    seen = set()
    for seed in range(20):
        s = RS.setup({}, 2, seed)
        assert s == RS.setup({}, 2, seed)
        tosses = RS.view(s, None)["coin_tosses"]
        assert tosses["place_first"]["by"] == "coin" and tosses["move_first"]["by"] == "coin"
        assert s.to_move == tosses["place_first"]["seat"]
        seen.add((tosses["place_first"]["seat"], tosses["move_first"]["seat"]))
    assert seen == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_creator_may_fix_who_places_and_moves_first() -> None:
    s = RS.setup({"place_first": "black", "move_first": "white"}, 2, 3)
    assert s.to_move == 1 and s.first_mover == 0
    assert RS.view(s, None)["coin_tosses"] == {
        "place_first": {"seat": 1, "by": "creator"},
        "move_first": {"seat": 0, "by": "creator"},
    }


def test_options_are_validated() -> None:
    assert RS.default_options() == {
        "formation": "",
        "move_on": False,
        "removal": False,
        "backward": False,
        "place_first": "coin",
        "move_first": "coin",
        "stall_turns": 150,
    }
    assert RS.validate_options({"formation": "smsl smsl sm"})["formation"] == "SMSLSMSLSM"
    assert RS.validate_options({"formation": list("SMSLSMSLSM")})["formation"] == "SMSLSMSLSM"
    for bad in ("SSSSSSMMLL", "SSMLSSMLS", "SSMLSSMLSX", 5):
        with pytest.raises(InvalidOptions):
            RS.validate_options({"formation": bad})
    with pytest.raises(InvalidOptions):
        RS.validate_options({"move_on": "yes"})
    with pytest.raises(InvalidOptions):
        RS.validate_options({"colour": 1})
    with pytest.raises(InvalidOptions):
        RS.setup({}, 3, 1)
    assert RS.seat_names(2) == ["White", "Black"]


def test_fixed_formation_mirrors_and_skips_placement() -> None:
    s = RS.setup({"formation": "SMSLSMSLSM", "move_first": "black"}, 2, 1)
    v = RS.view(s, None)
    assert v["phase"] == "play" and s.to_move == 1
    assert "place_first" not in v["coin_tosses"]
    for col, letter in enumerate("SMSLSMSLSM"):
        assert piece_at(s, col, 0) == (0, letter, "N")
        assert piece_at(s, 9 - col, 9) == (1, letter, "S")
    with pytest.raises(IllegalAction):
        RS.apply(s, 1, {"type": "place", "size": "small", "at": [0, 9]})


# -- placement --------------------------------------------------------------------


def test_placement_rules() -> None:
    s = RS.setup({"place_first": "white", "move_first": "black"}, 2, 5)
    assert RS.view(s, 0)["phase"] == "placement"
    assert len(RS.legal_actions(s, 0)) == 30 and RS.legal_actions(s, 1) == []
    refused(s, 0, {"type": "place", "size": "small", "at": [3, 1]}, "own start row")
    refused(s, 0, {"type": "place", "size": "small", "at": [3, 9]}, "own start row")
    refused(s, 1, {"type": "place", "size": "small", "at": [3, 9]}, "not your turn")
    refused(s, 0, {"type": "place", "size": "huge", "at": [3, 0]}, "size")
    refused(s, 0, {"type": "place", "size": "small", "at": [10, 0]}, "[col, row]")
    refused(s, 0, turn(3, 0, "F"), "all pieces must be placed")
    s, events = RS.apply(s, 0, {"type": "place", "size": "large", "at": [3, 0]})
    assert events == [{"type": "placed", "seat": 0, "size": "large", "at": [3, 0], "facing": "N"}]
    assert s.to_move == 1
    s, _ = RS.apply(s, 1, {"type": "place", "size": "large", "at": [3, 9]})
    assert piece_at(s, 3, 9) == (1, "L", "S")
    refused(s, 0, {"type": "place", "size": "small", "at": [3, 0]}, "occupied")
    s, _ = RS.apply(s, 0, {"type": "place", "size": "large", "at": [4, 0]})
    refused(s, 1, {"type": "place", "size": "small", "at": [3, 9]}, "occupied")
    s, _ = RS.apply(s, 1, {"type": "place", "size": "large", "at": [4, 9]})
    refused(s, 0, {"type": "place", "size": "large", "at": [5, 0]}, "no large piece left")
    # 8 free fields, small and medium left: 16 placements.
    assert len(RS.legal_actions(s, 0)) == 16
    assert RS.view(s, None)["to_place"][0] == {"small": 5, "medium": 3, "large": 0}


def test_placement_alternates_then_the_first_mover_starts() -> None:
    s = RS.setup({"place_first": "black", "move_first": "black"}, 2, 5)
    order = []
    while RS.view(s, None)["phase"] == "placement":
        seat = s.to_move
        order.append(seat)
        s, _ = RS.apply(s, seat, RS.legal_actions(s, seat)[-1])
    assert order == [1, 0] * 10
    assert s.to_move == 1 and RS.view(s, None)["phase"] == "play"
    assert all(p is None or p[2] == (0 if p[0] == 0 else 3) for p in s.board)


# -- movement -----------------------------------------------------------------------


LONE = [(0, 9, "S", 1, "S")]  # a far-away enemy so the game is not over


def test_forward_and_turns() -> None:
    s = position([(4, 4, "M", 0, "N"), *LONE])
    t, events = RS.apply(s, 0, turn(4, 4, "F"))
    assert piece_at(t, 4, 5) == (0, "M", "N") and piece_at(t, 4, 4) is None
    assert t.to_move == 1
    assert events[0]["path"] == [{"step": "F", "at": [4, 5], "facing": "N"}]
    t, _ = RS.apply(s, 0, turn(4, 4, "R", "F"))  # even column: NE is [c+1, r]
    assert piece_at(t, 5, 4) == (0, "M", "NE")
    t, _ = RS.apply(s, 0, turn(4, 4, "L"))
    assert piece_at(t, 4, 4) == (0, "M", "NW")
    s = position([(5, 4, "L", 0, "NE"), *LONE])  # odd column: NE is [c+1, r+1]
    t, events = RS.apply(s, 0, turn(5, 4, "F", "R", "F"))
    assert piece_at(t, 7, 4) == (0, "L", "SE")  # even column: SE is [c+1, r-1]
    assert [step["at"] for step in events[0]["path"]] == [[6, 5], [6, 5], [7, 4]]
    last = RS.view(t, None)["last"]
    assert last["path"][0] == {"at": [5, 4], "facing": "NE"}
    assert last["path"][-1] == {"at": [7, 4], "facing": "SE"}


def test_points_are_limited_and_a_turn_must_do_something() -> None:
    s = position([(4, 4, "M", 0, "N"), (2, 2, "S", 0, "N"), *LONE])
    refused(s, 0, turn(4, 4, "F", "F", "F"), "a medium piece has only 2 movement points")
    refused(s, 0, turn(2, 2, "F", "F"), "a small piece has only 1 movement point")
    refused(s, 0, turn(4, 4, "L", "R"), "must change the piece's field or facing")
    refused(s, 0, turn(4, 4), "at least one movement point")
    refused(s, 0, turn(4, 4, "X"), "a step is")
    refused(s, 0, turn(4, 4, "B"), "moving backward is not allowed")
    refused(s, 0, turn(5, 5, "F"), "no piece of yours")
    refused(s, 0, turn(0, 9, "F"), "no piece of yours")
    refused(s, 1, turn(0, 9, "F"), "not your turn")
    refused(s, 0, {"type": "turn", "at": [4, 4], "steps": "F"}, "steps")


def test_own_pieces_block_and_cannot_be_passed() -> None:
    s = position([(4, 4, "L", 0, "N"), (4, 5, "S", 0, "N"), *LONE])
    refused(s, 0, turn(4, 4, "F"), "own pieces")
    refused(s, 0, turn(4, 4, "F", "F"), "own pieces")
    # The large piece: 26 results in the open, minus the 11 starting with "F".
    large = [a for a in RS.legal_actions(s, 0) if a["at"] == [4, 4]]
    assert len(large) == 15
    assert not any(a["steps"][0] == "F" for a in large)


def test_board_edge() -> None:
    s = position([(3, 9, "M", 0, "N"), (0, 0, "S", 0, "SW"), (9, 0, "S", 1, "N")])
    refused(s, 0, turn(3, 9, "F"), "may not leave the board")
    refused(s, 0, turn(0, 0, "F"), "may not leave the board")
    assert_legal_complete(s)


def test_capture_stops_forward_movement_but_allows_turns() -> None:
    s = position([(4, 4, "L", 0, "N"), (4, 5, "S", 1, "S"), (4, 6, "M", 1, "S")])
    refused(s, 0, turn(4, 4, "F", "F"), "after a capture the piece must stop")
    t, events = RS.apply(s, 0, turn(4, 4, "F", "R", "R"))
    assert piece_at(t, 4, 5) == (0, "L", "SE")
    assert events[0]["captures"] == [{"at": [4, 5], "seat": 1, "size": "small", "facing": "S"}]
    view = RS.view(t, None)
    # 4 small, 2 medium, 2 large were missing from the start (see position()).
    assert view["captured"][0] == {"small": 5, "medium": 2, "large": 2}
    assert view["on_board"] == [1, 1]
    assert view["last"]["captures"][0]["at"] == [4, 5]
    # Capturing on [4, 5] then facing N, NE, NW, SE or SW: 5 results (S needs 4 points).
    results = legal_results(s, 0)
    assert len([k for k in results if k[3]]) == 5
    assert_legal_complete(s)


def test_exact_counts_in_the_open() -> None:
    for size, count in (("S", 3), ("M", 10), ("L", 26)):
        s = position([(4, 4, size, 0, "N"), *LONE])
        assert len(RS.legal_actions(s, 0)) == count
    s = RS.setup({"formation": "SSSSSMMMLL", "move_first": "white"}, 2, 1)
    # By hand: smalls 5 x 3, mediums 10 + 8 + 10, larges 16 + 19.
    assert len(RS.legal_actions(s, 0)) == 78
    assert len(RS.legal_actions(s, 1)) == 0
    assert_legal_complete(s)


# -- variants ----------------------------------------------------------------------


def test_move_on_after_capture_variant() -> None:
    pieces = [(4, 4, "L", 0, "N"), (4, 5, "S", 1, "S"), (4, 6, "M", 1, "S"), (0, 9, "S", 1, "S")]
    off = position(pieces)
    on = position(pieces, move_on=True)
    refused(off, 0, turn(4, 4, "F", "F"), "must stop")
    t, events = RS.apply(on, 0, turn(4, 4, "F", "F"))
    assert [c["at"] for c in events[0]["captures"]] == [[4, 5], [4, 6]]
    assert piece_at(t, 4, 6) == (0, "L", "N") and piece_at(t, 4, 5) is None
    assert RS.view(t, None)["captured"][0] == {"small": 4, "medium": 3, "large": 2}
    assert len(RS.legal_actions(on, 0)) > len(RS.legal_actions(off, 0))
    assert_legal_complete(on)
    assert_legal_complete(off)


def test_backward_variant() -> None:
    pieces = [(4, 4, "M", 0, "N"), (4, 3, "S", 1, "N"), (9, 9, "S", 1, "S")]
    off = position(pieces)
    on = position(pieces, backward=True)
    refused(off, 0, turn(4, 4, "B"), "moving backward is not allowed")
    t, events = RS.apply(on, 0, turn(4, 4, "B", "L"))  # backward onto an enemy captures
    assert piece_at(t, 4, 3) == (0, "M", "NW")
    assert events[0]["captures"][0]["at"] == [4, 3]
    refused(on, 0, turn(4, 4, "B", "B"), "must stop")
    refused(on, 0, turn(4, 4, "F", "B"), "must change")
    assert not any("B" in a["steps"] for a in RS.legal_actions(off, 0))
    assert any("B" in a["steps"] for a in RS.legal_actions(on, 0))
    assert_legal_complete(on)
    both = position(pieces, backward=True, move_on=True)
    t, events = RS.apply(both, 0, turn(4, 4, "B", "F"))  # capture, then back home
    assert piece_at(t, 4, 4) == (0, "M", "N") and len(events[0]["captures"]) == 1
    assert_legal_complete(both)


def test_removal_variant() -> None:
    pieces = [(4, 4, "M", 0, "N"), (2, 2, "S", 0, "N"), (9, 9, "S", 1, "S")]
    off = position(pieces)
    on = position(pieces, removal=True)
    refused(off, 0, {"type": "remove", "at": [2, 2]}, "not allowed at this table")
    assert not any(a["type"] == "remove" for a in RS.legal_actions(off, 0))
    assert [a for a in RS.legal_actions(on, 0) if a["type"] == "remove"] == [
        {"type": "remove", "at": [2, 2]},
        {"type": "remove", "at": [4, 4]},
    ]
    refused(on, 0, {"type": "remove", "at": [9, 9]}, "no piece of yours")
    t, events = RS.apply(on, 0, {"type": "remove", "at": [2, 2]})
    assert events == [{"type": "removed", "seat": 0, "at": [2, 2], "size": "small", "facing": "N"}]
    assert t.to_move == 0 and piece_at(t, 2, 2) is None
    assert RS.view(t, None)["removed_this_turn"][0]["at"] == [2, 2]
    refused(t, 0, {"type": "remove", "at": [4, 4]}, "may not remove your last piece")
    assert not any(a["type"] == "remove" for a in RS.legal_actions(t, 0))
    t, _ = RS.apply(t, 0, turn(4, 4, "F"))
    view = RS.view(t, None)
    assert t.to_move == 1 and view["removed"][0]["small"] == 1
    assert view["last"]["removed"][0]["at"] == [2, 2] and view["removed_this_turn"] == []
    assert view["on_board"] == [1, 1]


# -- the end ------------------------------------------------------------------------


def test_capturing_the_last_piece_wins() -> None:
    s = position([(4, 4, "S", 0, "N"), (4, 5, "L", 1, "S")])
    assert RS.outcome(s) is None
    t, events = RS.apply(s, 0, turn(4, 4, "F"))
    assert events[-1] == {"type": "won", "seat": 0, "reason": "all pieces captured"}
    assert RS.outcome(t) == {"winners": [0], "draw": False, "reason": "all pieces captured"}
    assert RS.to_act(t) == [] and RS.legal_actions(t, 1) == []
    assert RS.view(t, 1)["phase"] == "over"
    refused(t, 1, turn(4, 5, "F"), "the game is over")


# -- random playouts and fuzzing ------------------------------------------------------


def check_invariants(state: DaschaxState) -> None:
    view = RS.view(state, None)
    for seat in (0, 1):
        on_board = sum(1 for p in state.board if p is not None and p[0] == seat)
        assert on_board == view["on_board"][seat]
        lost = view["captured"][1 - seat]
        accounted = (
            on_board + sum(view["to_place"][seat].values()) + sum(view["removed"][seat].values())
        )
        assert accounted + sum(lost.values()) == 10
    assert len(view["pieces"]) == len({tuple(p["at"]) for p in view["pieces"]})
    assert all(p["facing"] in FACINGS for p in view["pieces"])
    text = json.dumps([view, RS.view(state, 0), RS.view(state, 1)])
    assert '"seed"' not in text and '"counter"' not in text
    assert RS.decode(json.loads(json.dumps(RS.encode(state)))) == state


@given(
    seed=st.integers(0, 2**40),
    move_on=st.booleans(),
    removal=st.booleans(),
    backward=st.booleans(),
    formation=st.sampled_from(["", "SMSLSMSLSM", "LLMMMSSSSS"]),
    stall=st.sampled_from([150, 0, 3, 9]),  # the house rule's limit (issue 50)
    data=st.data(),
)
def test_random_playouts(
    seed: int,
    move_on: bool,
    removal: bool,
    backward: bool,
    formation: str,
    stall: int,
    data: Any,
) -> None:
    options = {
        "move_on": move_on,
        "removal": removal,
        "backward": backward,
        "formation": formation,
        "stall_turns": stall,
    }
    state = RS.setup(options, 2, seed)
    for n in range(70):
        if RS.outcome(state) is not None:
            assert RS.to_act(state) == []
            break
        (seat,) = RS.to_act(state)
        actions = RS.legal_actions(state, seat)
        assert actions and RS.legal_actions(state, 1 - seat) == []
        if n % 25 == 24 and RS.view(state, None)["phase"] == "play":
            assert_legal_complete(state)
        action = actions[data.draw(st.integers(0, len(actions) - 1))]
        before = RS.encode(state)
        state, events = RS.apply(state, seat, action)
        assert RS.encode(RS.decode(before)) == before
        assert events and all(isinstance(e["type"], str) for e in events)
        json.dumps(events)
        check_invariants(state)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)
junk_actions = json_values | st.fixed_dictionaries(
    {
        "type": st.sampled_from(["turn", "place", "remove"]) | json_values,
        "at": st.lists(st.integers(-2, 11), max_size=3) | json_values,
    },
    optional={
        "steps": st.lists(st.sampled_from(["F", "L", "R", "B", "X"]), max_size=4) | json_values,
        "size": st.sampled_from(["small", "medium", "large"]) | json_values,
    },
)


@given(action=junk_actions, formation=st.sampled_from(["", "SMSLSMSLSM"]), seat=st.integers(-1, 2))
def test_junk_actions_raise_illegal_action_only(action: Any, formation: str, seat: int) -> None:
    state = RS.setup({"formation": formation, "removal": True, "move_first": "white"}, 2, 9)
    before = RS.encode(state)
    try:
        new, _ = RS.apply(state, seat, action)
    except IllegalAction:
        assert RS.encode(state) == before
    else:
        assert action in RS.legal_actions(state, seat) or action["type"] in ("turn", "remove")
        assert RS.encode(state) == before and new != state


def random_midgame(options: dict[str, Any], seed: int, plies: int) -> DaschaxState:
    """A position after ``plies`` random legal actions (seeded, reproducible)."""
    rng = random.Random(seed)
    state = RS.setup(options, 2, seed)
    for _ in range(plies):
        if RS.outcome(state) is not None:
            break
        seat = state.to_move
        state, _ = RS.apply(state, seat, rng.choice(RS.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("move_on", [False, True])
@pytest.mark.parametrize("backward", [False, True])
def test_legal_actions_match_brute_force(move_on: bool, backward: bool) -> None:
    options = {"move_on": move_on, "backward": backward, "formation": "SMSLSMSLSM"}
    for seed in range(4):
        state = random_midgame(options, seed, 30 + 7 * seed)
        if RS.outcome(state) is None:
            assert_legal_complete(state)


def distances(start: int) -> list[int]:
    dist = [-1] * CELLS
    dist[start] = 0
    queue = [start]
    for here in queue:
        for there in NEIGHBOUR[here]:
            if there >= 0 and dist[there] < 0:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


DISTANCE = [distances(c) for c in range(CELLS)]


def closeness(state: DaschaxState, seat: int, events: list[dict[str, Any]]) -> int:
    """How near a placement or turn brings its piece to the nearest enemy."""
    col, row = events[0]["to"] if "to" in events[0] else events[0]["at"]
    enemies = [i for i, p in enumerate(state.board) if p is not None and p[0] != seat]
    return min((DISTANCE[cell(col, row)][e] for e in enemies), default=0)


@pytest.mark.parametrize("move_on", [False, True])
def test_greedy_capture_playout_ends_with_a_winner(move_on: bool) -> None:
    rng = random.Random(11)
    state = RS.setup({"move_on": move_on, "backward": True}, 2, 11)
    for _ in range(600):
        if RS.outcome(state) is not None:
            break
        seat = state.to_move
        results = [RS.apply(state, seat, a) for a in RS.legal_actions(state, seat)]
        captures = [r for r in results if r[1][0].get("captures")]
        gaps = [closeness(state, seat, events) for _, events in results]
        closest = [r for r, gap in zip(results, gaps, strict=True) if gap == min(gaps)]
        state, events = rng.choice(captures or closest)
    result = RS.outcome(state)
    assert result is not None and result["draw"] is False
    (winner,) = result["winners"]
    assert events[-1] == {"type": "won", "seat": winner, "reason": "all pieces captured"}
    assert RS.view(state, None)["on_board"][1 - winner] == 0
    check_invariants(state)


def test_recent_boards_show_a_repetition_and_stay_bounded() -> None:
    # Issue 30: a bot is made fresh for every move, so the view carries what
    # it needs to see a repetition: digests of the last RECENT turns' boards.
    from games.rules.daschax.state import RECENT, board_digest

    state = position([(2, 2, "S", 0, "N"), (7, 7, "S", 1, "S")])
    assert RS.view(state, 0)["recent_boards"] == []
    start = board_digest(state.board)
    there_and_back = [turn(2, 2, "L"), turn(7, 7, "L"), turn(2, 2, "R"), turn(7, 7, "R")]
    for action in there_and_back * 4:
        state, _ = RS.apply(state, state.to_move, action)
    recent = RS.view(state, 1)["recent_boards"]
    assert len(recent) == RECENT and recent[-1] == start and recent.count(start) == 3
    assert RS.decode(json.loads(json.dumps(RS.encode(state)))).recent == state.recent
    stored_before = {k: v for k, v in RS.encode(state).items() if k != "recent"}
    assert RS.decode(stored_before).recent == ()
