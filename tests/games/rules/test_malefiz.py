"""Malefiz rules (RULES.md §3): concrete positions per rule, playouts, junk actions."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.base import IllegalAction, InvalidOptions, draw
from games.rules.malefiz import (
    EDGES,
    FIELDS,
    GOAL,
    INDEX,
    MOVE,
    NEIGHBOURS,
    PLACE,
    PLACEABLE,
    ROLL,
    START_BARRICADES,
    MalefizRuleset,
    MalefizState,
)

RS = MalefizRuleset()
XY = tuple[int, int]
START_BARS: tuple[XY, ...] = tuple(FIELDS[i] for i in START_BARRICADES)


def pos(
    pieces: dict[int, list[XY]] | None = None,
    *,
    seats: int = 2,
    bars: tuple[XY, ...] | list[XY] = START_BARS,
    turn: int = 0,
    roll: int | None = None,
    home: tuple[int, ...] | None = None,
    left: tuple[int, ...] = (),
    seed: int = 987654321,
) -> MalefizState:
    """A position built directly; with ``roll`` the seat to act has rolled it."""
    masks = [0] * seats
    for seat, fields in (pieces or {}).items():
        for xy in fields:
            masks[seat] |= 1 << INDEX[xy]
    if home is None:
        home = tuple(0 if s in left else 5 - masks[s].bit_count() for s in range(seats))
    barmask = 0
    for xy in bars:
        barmask |= 1 << INDEX[xy]
    return MalefizState(
        seats=seats,
        pieces=tuple(masks),
        home=home,
        bars=barmask,
        turn=turn,
        phase=ROLL if roll is None else MOVE,
        last_roll=() if roll is None else (turn, roll, 0),
        counter=0,
        seed=seed,
        left=left,
        rolloff=(((0, 6), (1, 2)),),
        starter=0,
        last=(),
    )


def targets(state: MalefizState, frm: Any = None) -> set[XY]:
    """Targets of the legal moves of the seat to act, optionally from one field."""
    out = set()
    for a in RS.legal_actions(state, state.turn):
        assert a["type"] == "move"
        f = a["from"] if a["from"] == "house" else tuple(a["from"])
        if frm is None or f == frm:
            out.add(tuple(a["to"]))
    return out


def move(state: MalefizState, frm: Any, to: XY) -> tuple[MalefizState, list[dict[str, Any]]]:
    return RS.apply(
        state,
        state.turn,
        {"type": "move", "from": frm if frm == "house" else list(frm), "to": list(to)},
    )


def seed_rolling(value: int, counter: int = 0) -> int:
    """A seed whose draw number ``counter`` is ``value``."""
    return next(s for s in range(10_000) if draw(s, counter, 6) + 1 == value)


def naive_moves(state: MalefizState, seat: int, roll: int) -> set[tuple[Any, XY]]:
    """The rule read literally: walk every path, stop at barricades, land anywhere not own."""
    own = {i for i in range(len(FIELDS)) if state.pieces[seat] >> i & 1}
    bars = {i for i in range(len(FIELDS)) if state.bars >> i & 1}
    out: set[tuple[Any, XY]] = set()

    def walk(origin: Any, path: list[int], steps_left: int) -> None:
        here = path[-1]
        if steps_left == 0:
            if here not in own:
                out.add((origin, FIELDS[here]))
            return
        if here in bars and len(path) > 1:
            return
        for nxt in NEIGHBOURS[here]:
            if nxt not in path:
                walk(origin, [*path, nxt], steps_left - 1)

    for f in own:
        walk(FIELDS[f], [f], roll)
    if state.home[seat]:
        entry = INDEX[tuple(RS.view(state, None)["houses"][seat]["entry"])]
        walk("house", [entry], roll - 1)
    return out


def check_invariants(state: MalefizState, barricades: int = 11) -> None:
    seen = state.bars
    for seat in range(state.seats):
        mask = state.pieces[seat]
        if seat in state.left:
            assert mask == 0 and state.home[seat] == 0
        else:
            assert mask.bit_count() + state.home[seat] == 5
        assert not seen & mask, "two things on one field"
        seen |= mask
    assert state.bars.bit_count() + (state.phase == PLACE) == barricades
    assert not state.bars & ~PLACEABLE, "barricade on the bottom row or the goal"


def no_secret(view: dict[str, Any], state: MalefizState) -> None:
    text = json.dumps(view)
    assert '"seed"' not in text and '"counter"' not in text
    if state.seed > 10**6:
        assert str(state.seed) not in text


# -- board and setup ------------------------------------------------------------


def test_board_data_is_the_classic_board() -> None:
    assert len(FIELDS) == 112 and len(EDGES) == 121
    assert FIELDS[GOAL] == (9, 14) and NEIGHBOURS[GOAL] == (INDEX[(9, 13)],)
    assert all(b in NEIGHBOURS[a] and a in NEIGHBOURS[b] for a, b in EDGES)
    state = RS.setup({}, 4, 1)
    assert state.bars.bit_count() == 11 and state.home == (5, 5, 5, 5)
    check_invariants(state)


def test_setup_refuses_bad_seat_counts_and_options() -> None:
    for seats in (0, 1, 5, "2"):
        with pytest.raises(InvalidOptions):
            RS.setup({}, seats, 1)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions):
        RS.setup({"speed": 1}, 2, 1)
    assert RS.option_fields() == [] and RS.validate_options({}) == {}


@pytest.mark.parametrize(
    ("seats", "entries", "names"),
    [
        (2, [[7, 1], [11, 1]], ["Green", "Yellow"]),
        (3, [[3, 1], [7, 1], [11, 1]], ["Red", "Green", "Yellow"]),
        (4, [[3, 1], [7, 1], [11, 1], [15, 1]], ["Red", "Green", "Yellow", "Blue"]),
    ],
)
def test_house_assignment(seats: int, entries: list[list[int]], names: list[str]) -> None:
    state = RS.setup({}, seats, 3)
    view = RS.view(state, None)
    assert [h["entry"] for h in view["houses"]] == entries
    assert RS.seat_names(seats) == names
    for seat, entry in enumerate(entries):
        st_ = pos(seats=seats, turn=seat, roll=1)
        assert RS.legal_actions(st_, seat) == [{"type": "move", "from": "house", "to": entry}]


def test_rolloff_with_ties_rerolls_only_the_tied() -> None:
    found_tie = 0
    for seed in range(300):
        state = RS.setup({}, 4, seed)
        rounds = state.rolloff
        assert [s for s, _v in rounds[0]] == [0, 1, 2, 3]
        counter = 0
        for i, rnd in enumerate(rounds):
            for _s, v in rnd:
                assert v == draw(seed, counter, 6) + 1
                counter += 1
            best = max(v for _s, v in rnd)
            tied = [s for s, v in rnd if v == best]
            if i + 1 < len(rounds):
                assert len(tied) > 1 and [s for s, _v in rounds[i + 1]] == tied
            else:
                assert tied == [state.starter] == [state.turn] == RS.to_act(state)
        assert state.counter == counter
        if len(rounds) >= 3:
            found_tie += 1
            view = RS.view(state, None)
            assert len(view["rolloff"]) == len(rounds)
            assert view["rolloff"][1] == [{"seat": s, "value": v} for s, v in rounds[1]]
    assert found_tie, "no seed with two tie rounds in 300"


def test_turns_go_in_seat_order_after_the_starter() -> None:
    state = pos({0: [(5, 1)]}, seats=3, turn=2, roll=1)
    state, _ = move(state, "house", (11, 1))
    assert RS.to_act(state) == [0]


# -- moving -----------------------------------------------------------------


def test_leaving_the_house_counts_the_entry_field() -> None:
    assert targets(pos(roll=1)) == {(7, 1)}
    assert targets(pos(roll=3)) == {(5, 1), (9, 1)}
    assert targets(pos(roll=4)) == {(4, 1), (5, 2), (10, 1), (9, 2)}
    # "house" appears once however many pieces are at home.
    actions = RS.legal_actions(pos(roll=4), 0)
    assert len(actions) == 4 and all(a["from"] == "house" for a in actions)
    state, events = move(pos(roll=3), "house", (9, 1))
    assert events[0]["path"] == [[7, 1], [8, 1], [9, 1]] and events[0]["from"] == "house"
    assert state.home == (4, 5)


def test_opening_move_counts() -> None:
    # Green (entry [7,1]) with all five at home, start barricades in place: a 6
    # would pass (5,3) or (9,3), so only the bottom row remains.
    counts = [len(RS.legal_actions(pos(roll=n), 0)) for n in range(1, 7)]
    assert counts == [1, 2, 2, 4, 4, 2]
    assert targets(pos(roll=6)) == {(2, 1), (12, 1)}
    assert targets(pos(roll=5)) == {(3, 1), (5, 3), (11, 1), (9, 3)}


def test_two_routes_round_a_cycle_one_blocked() -> None:
    # (1,1) sits on the 12-field loop (1,1)-(1,3)-(5,3)-(5,1); a 6 reaches (5,3)
    # both ways. The start barricade on (1,3) blocks one route, not the other.
    state = pos({0: [(1, 1)]}, roll=6)
    assert targets(state, (1, 1)) == {(5, 3), (7, 1)}
    state2, events = move(state, (1, 1), (5, 3))
    assert events[0]["path"] == [[1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [5, 2], [5, 3]]
    assert events[1] == {"type": "barricade_taken", "seat": 0, "at": [5, 3]}
    assert state2.phase == PLACE
    # Without barricades both ways are open, and a third target appears.
    assert targets(pos({0: [(1, 1)]}, bars=(), roll=6), (1, 1)) == {(5, 3), (3, 5), (7, 1)}


def test_looping_path_round_the_cycle() -> None:
    free = pos({0: [(3, 4)]}, bars=(), roll=6)
    assert targets(free, (3, 4)) == {
        (7, 4),
        (6, 7),
        (8, 5),
        (2, 1),
        (8, 3),
        (4, 1),
        (6, 1),
    }
    # (7,4) by the upper half of the loop only: the lower is barricaded.
    upper = pos({0: [(3, 4)]}, bars=[(5, 3)], roll=6)
    assert (7, 4) in targets(upper, (3, 4))
    _, events = move(upper, (3, 4), (7, 4))
    assert events[0]["path"] == [[3, 4], [3, 5], [4, 5], [5, 5], [6, 5], [7, 5], [7, 4]]
    # ... and by the lower half when the upper is barricaded.
    lower = pos({0: [(3, 4)]}, bars=[(5, 5)], roll=6)
    _, events = move(lower, (3, 4), (7, 4))
    assert events[0]["path"] == [[3, 4], [3, 3], [4, 3], [5, 3], [6, 3], [7, 3], [7, 4]]
    both = pos({0: [(3, 4)]}, bars=[(5, 5), (5, 3)], roll=6)
    assert (7, 4) not in targets(both, (3, 4))
    with pytest.raises(IllegalAction, match="Barricades cannot be passed"):
        move(both, (3, 4), (7, 4))


def test_pieces_may_be_jumped_own_and_foreign() -> None:
    state = pos({0: [(5, 1), (5, 2)], 1: [(5, 3)]}, bars=(), roll=3)
    assert targets(state, (5, 1)) == {(2, 1), (8, 1), (4, 3), (6, 3)}
    state2, events = move(state, (5, 1), (4, 3))
    assert events[0]["path"] == [[5, 1], [5, 2], [5, 3], [4, 3]]
    assert events[0]["knocked"] is None
    assert state2.pieces[1] == 1 << INDEX[(5, 3)], "a jumped piece stays"


def test_barricades_block_and_are_taken_only_exactly() -> None:
    state = pos({0: [(5, 1)]}, bars=[(5, 2)], roll=2)
    assert targets(state, (5, 1)) == {(3, 1), (7, 1)}
    with pytest.raises(IllegalAction, match="Barricades cannot be passed"):
        move(state, (5, 1), (5, 3))
    assert targets(pos({0: [(5, 1)]}, bars=[(5, 2)], roll=1), (5, 1)) == {(4, 1), (6, 1), (5, 2)}


def test_goal_only_with_the_exact_roll_and_it_wins() -> None:
    no_top = tuple(b for b in START_BARS if b != (9, 13))
    assert (9, 14) in targets(pos({0: [(7, 13)]}, bars=no_top, roll=3), (7, 13))
    assert (9, 14) not in targets(pos({0: [(7, 13)]}, bars=no_top, roll=4), (7, 13))
    assert (9, 14) not in targets(pos({0: [(8, 13)]}, bars=no_top, roll=3), (8, 13))
    # The start barricade on (9,13) guards the goal.
    assert (9, 14) not in targets(pos({0: [(7, 13)]}, roll=3), (7, 13))
    state, events = move(pos({0: [(7, 13)]}, bars=no_top, roll=3), (7, 13), (9, 14))
    assert [e["type"] for e in events] == ["moved", "won"]
    assert RS.outcome(state) == {"winners": [0], "draw": False, "reason": events[1]["reason"]}
    assert RS.to_act(state) == [] and RS.legal_actions(state, 0) == []
    assert RS.view(state, 0)["phase"] == "over"
    with pytest.raises(IllegalAction, match="over"):
        RS.apply(state, 0, {"type": "roll"})
    with pytest.raises(IllegalAction, match="over"):
        RS.leave(state, 1)


def test_barricade_take_and_place() -> None:
    state = pos({0: [(8, 9)], 1: [(10, 9)]}, roll=1)
    state, events = move(state, (8, 9), (9, 9))
    assert [e["type"] for e in events] == ["moved", "barricade_taken"]
    assert RS.to_act(state) == [0] and state.phase == PLACE
    view = RS.view(state, 0)
    assert view["phase"] == "barricade" and view["barricade_in_hand"] == [9, 9]
    places = RS.legal_actions(state, 0)
    # 94 fields off the bottom row and goal, less 10 barricades and 2 pieces.
    assert len(places) == 82 and all(a["type"] == "barricade" for a in places)
    refused = {
        (5, 1): "bottom row",
        (9, 14): "goal",
        (10, 9): "occupied",
        (9, 9): "occupied",
        (9, 10): "already a barricade",
        (9, 12): "not a field",
    }
    for xy, why in refused.items():
        with pytest.raises(IllegalAction, match=why):
            RS.apply(state, 0, {"type": "barricade", "to": list(xy)})
        assert {"type": "barricade", "to": list(xy)} not in places
    with pytest.raises(IllegalAction, match="Place the barricade"):
        move(state, (9, 9), (9, 10))
    with pytest.raises(IllegalAction, match="already rolled"):
        RS.apply(state, 0, {"type": "roll"})
    state, events = RS.apply(state, 0, {"type": "barricade", "to": [5, 5]})
    assert events == [{"type": "barricade_placed", "seat": 0, "at": [5, 5]}]
    assert RS.to_act(state) == [1] and state.phase == ROLL
    view = RS.view(state, None)
    assert [5, 5] in view["barricades"] and len(view["barricades"]) == 11
    assert view["last_move"]["barricade_placed"] == [5, 5]
    check_invariants(state)


def test_landing_on_an_opponent_sends_it_home() -> None:
    state = pos({0: [(5, 1)], 1: [(5, 3)]}, bars=(), roll=2)
    state, events = move(state, (5, 1), (5, 3))
    assert events[0]["knocked"] == 1
    assert state.home == (4, 5) and state.pieces[1] == 0
    assert RS.view(state, None)["last_move"]["knocked"] == 1
    check_invariants(state, barricades=0)


def test_a_move_may_not_end_on_an_own_piece() -> None:
    state = pos({0: [(5, 1), (5, 3)]}, bars=(), roll=2)
    assert (5, 3) not in targets(state, (5, 1))
    with pytest.raises(IllegalAction, match="own piece"):
        move(state, (5, 1), (5, 3))
    # Nor leave the house onto an own piece on the entry field.
    assert "house" not in [a["from"] for a in RS.legal_actions(pos({0: [(7, 1)]}, roll=1), 0)]


BOXED = {0: [(9, 10), (1, 12), (17, 12), (5, 6), (13, 6)]}
BOX_BARS = [
    (9, 9),
    (9, 11),
    (1, 11),
    (1, 13),
    (17, 11),
    (17, 13),
    (5, 5),
    (5, 7),
    (13, 5),
    (13, 7),
    (9, 13),
]


def test_no_legal_move_passes_automatically() -> None:
    state = pos(BOXED, bars=BOX_BARS, seed=seed_rolling(4))
    state2, events = RS.apply(state, 0, {"type": "roll"})
    assert events == [
        {"type": "rolled", "seat": 0, "value": 4},
        {"type": "passed", "seat": 0, "roll": 4, "next": 1},
    ]
    assert RS.to_act(state2) == [1] and state2.phase == ROLL
    assert RS.view(state2, None)["last_roll"] == {"seat": 0, "value": 4, "passed": True}
    # A 1 takes a neighbouring barricade: two per boxed piece.
    one = pos(BOXED, bars=BOX_BARS, seed=seed_rolling(1))
    one, events = RS.apply(one, 0, {"type": "roll"})
    assert [e["type"] for e in events] == ["rolled"] and one.phase == MOVE
    assert len(RS.legal_actions(one, 0)) == 10


def test_bad_input_is_refused() -> None:
    state = RS.setup({}, 2, 5)
    me, other = state.turn, 1 - state.turn
    with pytest.raises(IllegalAction, match="Roll the die"):
        RS.apply(state, me, {"type": "move", "from": "house", "to": [7, 1]})
    with pytest.raises(IllegalAction, match="not your turn"):
        RS.apply(state, other, {"type": "roll"})
    assert RS.legal_actions(state, other) == []
    rolled, _ = RS.apply(state, me, {"type": "roll"})
    with pytest.raises(IllegalAction, match="already rolled"):
        RS.apply(rolled, me, {"type": "roll"})
    value = rolled.last_roll[1]
    entry = [7, 1] if me == 0 else [11, 1]
    wrong = [entry[0] + value, 1]  # one field further along the bottom row than the roll
    with pytest.raises(IllegalAction, match="exactly"):
        RS.apply(rolled, me, {"type": "move", "from": "house", "to": wrong})
    junk = [
        [],
        "roll",
        {},
        {"type": 5},
        {"type": "jump"},
        {"type": "roll", "extra": 1},
        {"type": "move", "from": "house"},
        {"type": "move", "from": "house", "to": [1, 2, 3]},
        {"type": "move", "from": "house", "to": [True, 1]},
        {"type": "move", "from": "house", "to": [0, 0]},
        {"type": "move", "from": [9, 9], "to": [9, 10]},
        {"type": "move", "from": "home", "to": [7, 1]},
        {"type": "barricade", "to": [5, 5]},
    ]
    for action in junk:
        with pytest.raises(IllegalAction):
            RS.apply(rolled, me, action)  # type: ignore[arg-type]
    no_home = pos({0: [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]}, roll=1)
    with pytest.raises(IllegalAction, match="no piece left in your house"):
        move(no_home, "house", (7, 1))


# -- leaving ------------------------------------------------------------------


def test_leaving_removes_pieces_and_skips_turns() -> None:
    state = pos({0: [(5, 1)], 1: [(7, 3), (9, 5)], 2: [(13, 1)]}, seats=3, roll=1)
    state, events = RS.leave(state, 1)
    assert events == [{"type": "left", "seat": 1, "barricade_returned": None}]
    assert state.pieces[1] == 0 and state.home[1] == 0 and state.left == (1,)
    assert RS.to_act(state) == [0] and state.phase == MOVE
    check_invariants(state)
    state, _ = move(state, (5, 1), (4, 1))
    assert RS.to_act(state) == [2], "the left seat's turn is skipped"
    assert RS.view(state, None)["left"] == [1]
    with pytest.raises(IllegalAction):
        RS.leave(state, 1)
    with pytest.raises(IllegalAction):
        RS.leave(state, 7)
    state, events = RS.leave(state, 2)
    assert events[1]["type"] == "won" and events[1]["seat"] == 0
    assert RS.outcome(state)["winners"] == [0] and RS.to_act(state) == []  # type: ignore[index]


def test_leaving_with_a_barricade_in_hand_puts_it_back() -> None:
    state = pos({0: [(8, 9)], 1: [(1, 1)]}, seats=4, roll=1)
    state, _ = move(state, (8, 9), (9, 9))
    assert state.phase == PLACE
    state, events = RS.leave(state, 0)
    assert events == [{"type": "left", "seat": 0, "barricade_returned": [9, 9]}]
    assert state.bars >> INDEX[(9, 9)] & 1 and RS.to_act(state) == [1]
    assert state.phase == ROLL
    check_invariants(state)


def test_leaving_while_to_move_passes_the_turn() -> None:
    state = pos({2: [(1, 1)]}, seats=3, turn=2, roll=5)
    state, _ = RS.leave(state, 2)
    assert RS.to_act(state) == [0] and state.phase == ROLL


def test_two_seat_leave_ends_the_game() -> None:
    state, events = RS.leave(pos({0: [(5, 1)]}, roll=3), 0)
    assert [e["type"] for e in events] == ["left", "won"]
    assert RS.outcome(state)["winners"] == [1] and RS.to_act(state) == []  # type: ignore[index]


def test_timeout_leaves_rather_than_plays() -> None:
    state = RS.setup({}, 3, 1)
    assert RS.timeout_action(state, state.turn) is None


# -- views, storage ---------------------------------------------------------------


def test_view_shape_and_no_secrets() -> None:
    state = RS.setup({}, 2, 123456789012)
    state, _ = RS.apply(state, state.turn, {"type": "roll"})
    for seat in (None, 0, 1):
        view = RS.view(state, seat)
        no_secret(view, state)
        assert len(view["board"]["fields"]) == 112 and len(view["board"]["edges"]) == 121
        assert view["phase"] == "move" and view["roll"] == state.last_roll[1]
        assert ("legal_actions" in view) == (seat == state.turn)
    state2, events = RS.apply(state, state.turn, RS.legal_actions(state, state.turn)[0])
    view = RS.view(state2, None)
    assert view["last_move"]["path"] == events[0]["path"]
    assert view["pieces"][state.turn]["home"] == 4
    assert RS.view_event(events[0], None) == events[0]


def test_encode_decode_round_trip_mid_placement() -> None:
    state, _ = move(pos({0: [(8, 9)], 1: [(10, 9)]}, roll=1), (8, 9), (9, 9))
    data = json.loads(json.dumps(RS.encode(state)))
    assert RS.decode(data) == state
    assert RS.position_key(state) == RS.position_key(RS.decode(data))


# -- random play ---------------------------------------------------------------


def _random_game(seats: int, seed: int, max_actions: int) -> MalefizState:
    rng = random.Random(seed)
    state = RS.setup({}, seats, seed)
    for step in range(max_actions):
        to_act = RS.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        actions = RS.legal_actions(state, seat)
        assert actions
        new, events = RS.apply(state, seat, rng.choice(actions))
        assert events and all(isinstance(e.get("type"), str) for e in events)
        if step % 97 == 0:
            check_invariants(new)
        state = new
    return state


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_finish_with_one_winner(seats: int) -> None:
    for seed in range(2):
        state = _random_game(seats, seed + 10 * seats, 200_000)
        result = RS.outcome(state)
        assert result is not None and len(result["winners"]) == 1
        assert state.pieces[result["winners"][0]] >> GOAL & 1
        check_invariants(state)


@given(
    seed=st.integers(0, 2**63 - 1),
    seats=st.sampled_from([2, 3, 4]),
    data=st.data(),
)
def test_random_playout_invariants(seed: int, seats: int, data: st.DataObject) -> None:
    state = RS.setup({}, seats, seed)
    check_invariants(state)
    for step in range(300):
        to_act = RS.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        if seats > 2 and data.draw(st.integers(0, 99), label="leave?") == 0:
            present = [s for s in range(seats) if s not in state.left]
            state, _ = RS.leave(state, data.draw(st.sampled_from(present), label="who"))
            check_invariants(state)
            continue
        actions = RS.legal_actions(state, seat)
        assert actions
        if state.phase == MOVE:
            pairs = [(json.dumps(a["from"]), json.dumps(a["to"])) for a in actions]
            assert len(pairs) == len(set(pairs)), "one action per (from, to)"
            engine = {
                (a["from"] if a["from"] == "house" else tuple(a["from"]), tuple(a["to"]))
                for a in actions
            }
            assert engine == naive_moves(state, seat, state.last_roll[1])
        action = data.draw(st.sampled_from(actions), label="action")
        sampled = step % 20 == 0
        before = RS.encode(state) if sampled else None
        new, events = RS.apply(state, seat, action)
        check_invariants(new)
        if events[-1]["type"] == "passed":
            assert not naive_moves(state, seat, events[0]["value"]), "passed with a move left"
        if sampled:
            assert RS.encode(state) == before, "apply mutated its input"
            assert RS.decode(json.loads(json.dumps(RS.encode(new)))) == new
            for viewer in (None, *range(seats)):
                no_secret(RS.view(new, viewer), new)
        state = new


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["roll", "move", "barricade", "house", "type", "from", "to"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["type", "from", "to", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)
ACTION = JSON | st.fixed_dictionaries(
    {"type": st.sampled_from(["roll", "move", "barricade"])},
    optional={
        "from": JSON | st.just("house") | st.lists(st.integers(0, 18), min_size=2, max_size=2),
        "to": JSON | st.lists(st.integers(0, 18), min_size=2, max_size=2),
    },
)
JUNK_STATES = [
    pos(),
    pos({0: [(5, 1)], 1: [(5, 3)]}, roll=2),
    move(pos({0: [(8, 9)], 1: [(10, 9)]}, roll=1), (8, 9), (9, 9))[0],
]


@given(action=ACTION, which=st.integers(0, 2), seat=st.integers(-1, 4) | JSON)
def test_junk_actions_raise_illegal_action_only(action: Any, which: int, seat: Any) -> None:
    state = JUNK_STATES[which]
    before = RS.encode(state)
    try:
        new, _ = RS.apply(state, seat, action)
    except IllegalAction:
        pass
    else:
        assert action in RS.legal_actions(state, seat)
        check_invariants(new)
    assert RS.encode(state) == before
    with contextlib.suppress(IllegalAction):
        RS.leave(state, seat)
    assert RS.encode(state) == before
