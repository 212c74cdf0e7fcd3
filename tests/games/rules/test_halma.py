"""Halma (RULES.md §1): moves, chains, win, the 50-move rule, fuzzing, playouts."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import IllegalAction, InvalidOptions, get_ruleset
from games.rules.halma import (
    HOUSES,
    HalmaRuleset,
    HalmaState,
    counts_for_repetition,
    full_moves,
    in_house,
    move_number,
)

RS = HalmaRuleset()
DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def idx(fields: list[tuple[int, int]]) -> tuple[int, ...]:
    return tuple(sorted(r * 10 + c for r, c in fields))


def make(white: list[tuple[int, int]], black: list[tuple[int, int]], plies: int = 0) -> HalmaState:
    """A constructed position; ``plies`` half-moves played (odd: Black to move)."""
    return HalmaState(pieces=(idx(white), idx(black)), plies=plies)


def mv(*fields: tuple[int, int]) -> dict[str, Any]:
    return {"type": "move", "path": [list(f) for f in fields]}


def ends(state: HalmaState, start: tuple[int, int] | None = None) -> set[tuple[int, ...]]:
    """(start, end) pairs of the side to move, optionally from one start field."""
    pairs = {(*a["path"][0], *a["path"][-1]) for a in RS.legal_actions(state, state.to_move)}
    return {p for p in pairs if start is None or p[:2] == start}


def reference_pairs(state: HalmaState) -> set[tuple[int, ...]]:
    """A deliberately simple generator: sets, recursion, no tables."""
    seat = state.to_move
    own = {divmod(i, 10) for i in state.pieces[seat]}
    occ = own | {divmod(i, 10) for i in state.pieces[1 - seat]}
    pairs: set[tuple[int, ...]] = set()

    def on_board(f: tuple[int, int]) -> bool:
        return 0 <= f[0] < 10 and 0 <= f[1] < 10

    for s in own:
        for dr, dc in DIRS:
            t = (s[0] + dr, s[1] + dc)
            if on_board(t) and t not in occ:
                pairs.add((*s, *t))
        rest = occ - {s}
        reached: set[tuple[int, int]] = set()

        def hop(
            f: tuple[int, int],
            rest: set[tuple[int, int]] = rest,
            reached: set[tuple[int, int]] = reached,
        ) -> None:
            for dr, dc in DIRS:
                over, t = (f[0] + dr, f[1] + dc), (f[0] + 2 * dr, f[1] + 2 * dc)
                if on_board(t) and over in rest and t not in rest and t not in reached:
                    reached.add(t)
                    hop(t)

        hop(s)
        pairs |= {(*s, *t) for t in reached if t != s}
    return pairs


def playout_states(seed: int, plies: int) -> list[HalmaState]:
    """Positions of a seeded, mildly greedy game (forward moves preferred)."""
    rng = random.Random(seed)
    state = RS.setup({}, 2, seed)
    out = [state]
    for _ in range(plies):
        if RS.outcome(state) is not None:
            break
        seat = state.to_move
        actions = RS.legal_actions(state, seat)
        if rng.random() < 0.6:
            sign = -1 if seat == 0 else 1
            actions.sort(key=lambda a: sign * (sum(a["path"][-1]) - sum(a["path"][0])))
            actions = actions[-5:]
        state, _ = RS.apply(state, seat, rng.choice(actions))
        out.append(state)
    return out


# -- setup, registry, options ---------------------------------------------------


def test_registered_and_setup() -> None:
    assert get_ruleset("halma").slug == "halma"
    state = RS.setup({}, 2, 7)
    assert state.pieces == (HOUSES[0], HOUSES[1])
    assert len(HOUSES[0]) == len(HOUSES[1]) == 15
    assert all((9 - r) + (9 - c) <= 4 for r, c in map(lambda i: divmod(i, 10), HOUSES[0]))
    assert all(r + c <= 4 for r, c in map(lambda i: divmod(i, 10), HOUSES[1]))
    assert RS.to_act(state) == [0]
    assert RS.seat_names(2) == ["White", "Black"]
    assert RS.default_options() == {}
    with pytest.raises(InvalidOptions):
        RS.setup({}, 3, 7)
    with pytest.raises(InvalidOptions):
        RS.setup({"speed": 1}, 2, 7)


def test_initial_position_counts() -> None:
    state = RS.setup({}, 2, 0)
    actions = RS.legal_actions(state, 0)
    assert len(actions) == 32
    steps = [a for a in actions if len(a["path"]) == 2 and _adjacent(*a["path"])]
    assert len(steps) == 19  # 5 front pieces x 3, plus 4 diagonal steps from the 2nd row
    assert len(ends(state)) == 32
    assert RS.legal_actions(state, 1) == []  # not Black's turn
    # Black's opening is the mirror image: also 32 moves.
    after, _ = RS.apply(state, 0, mv((6, 9), (4, 9)))
    assert len(RS.legal_actions(after, 1)) == 32
    assert ends(after) == {(9 - a, 9 - b, 9 - c, 9 - d) for a, b, c, d in ends(state)}


def _adjacent(a: list[int], b: list[int]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


# -- steps and jumps --------------------------------------------------------------


def test_steps_in_all_eight_directions() -> None:
    state = make([(4, 4)], [(9, 9)])
    assert ends(state) == {(4, 4, 4 + dr, 4 + dc) for dr, dc in DIRS}
    for dr, dc in DIRS:
        new, events = RS.apply(state, 0, mv((4, 4), (4 + dr, 4 + dc)))
        assert new.pieces[0] == idx([(4 + dr, 4 + dc)])
        assert events == [
            {"type": "moved", "seat": 0, "path": [[4, 4], [4 + dr, 4 + dc]], "move_number": 1}
        ]


def test_corner_piece_has_three_steps() -> None:
    assert ends(make([(0, 0)], [(9, 9)])) == {(0, 0, 0, 1), (0, 0, 1, 0), (0, 0, 1, 1)}


def test_jumps_in_all_eight_directions_over_own_and_foreign() -> None:
    around = [(4 + dr, 4 + dc) for dr, dc in DIRS]
    state = make([(4, 4), *around[:4]], around[4:])
    got = ends(state, (4, 4))
    assert got == {(4, 4, 4 + 2 * dr, 4 + 2 * dc) for dr, dc in DIRS}  # no step is free
    for dr, dc in DIRS:
        new, _ = RS.apply(state, 0, mv((4, 4), (4 + 2 * dr, 4 + 2 * dc)))
        assert (4 + 2 * dr) * 10 + 4 + 2 * dc in new.pieces[0]
        assert new.pieces[1] == state.pieces[1]  # jumped pieces stay


def test_blocked_fields() -> None:
    # Step target occupied, jump landing occupied, jump landing off the board.
    state = make([(0, 0), (0, 1), (1, 1)], [(1, 0), (0, 2), (2, 2), (9, 9)])
    assert ends(state, (0, 0)) == {(0, 0, 2, 0)}
    with pytest.raises(IllegalAction, match="occupied"):
        RS.apply(state, 0, mv((0, 0), (1, 0)))
    with pytest.raises(IllegalAction, match="occupied"):
        RS.apply(state, 0, mv((0, 0), (2, 2)))
    with pytest.raises(IllegalAction, match="cannot join"):
        RS.apply(state, 0, mv((0, 0), (0, 1), (0, 2)))  # step then more: a step is a whole move
    with pytest.raises(IllegalAction, match="field must be"):
        RS.apply(state, 0, mv((0, 1), (-1, 1)))
    with pytest.raises(IllegalAction, match="piece to jump over"):
        RS.apply(state, 0, mv((1, 1), (1, 3)))
    with pytest.raises(IllegalAction, match="neither a neighbouring field nor a jump"):
        RS.apply(state, 0, mv((0, 1), (3, 2)))
    with pytest.raises(IllegalAction, match="no piece"):
        RS.apply(state, 0, mv((1, 0), (2, 0)))  # Black's piece


def test_chain_returning_near_its_start() -> None:
    # (4,4) -> (4,6) -> (2,6) -> (2,4): ends two rows above the start,
    # which no single jump reaches because (3,4) is empty.
    state = make([(4, 4), (4, 5), (2, 5)], [(3, 6), (9, 9)])
    assert (4, 4, 2, 4) in ends(state, (4, 4))
    path = [
        a["path"]
        for a in RS.legal_actions(state, 0)
        if a["path"][0] == [4, 4] and a["path"][-1] == [2, 4]
    ]
    assert path == [[[4, 4], [4, 6], [2, 6], [2, 4]]]
    new, events = RS.apply(state, 0, mv((4, 4), (4, 6), (2, 6), (2, 4)))
    assert new.pieces[0] == idx([(2, 4), (4, 5), (2, 5)])
    assert events[0]["path"] == [[4, 4], [4, 6], [2, 6], [2, 4]]
    # Stopping halfway is allowed too: jumping is never compulsory.
    assert {(4, 4, 4, 6), (4, 4, 2, 6)} <= ends(state, (4, 4))
    assert len(ends(state, (4, 4))) == 8 - 1 + 3  # 7 free steps and 3 chain ends


def test_chain_passing_over_the_start_field() -> None:
    # (4,4) jumps to (4,6), back over (4,5) onto its own start (empty during the
    # chain), then on over (3,3) to (2,2).
    state = make([(4, 4), (4, 5)], [(3, 3), (9, 9)])
    new, _ = RS.apply(state, 0, mv((4, 4), (4, 6), (4, 4), (2, 2)))
    assert 22 in new.pieces[0] and 44 not in new.pieces[0]
    with pytest.raises(IllegalAction, match="start field"):
        RS.apply(state, 0, mv((4, 4), (4, 6), (4, 4)))


def test_chain_with_three_ends() -> None:
    # (4,4) -> (2,2) -> (4,2) -> (2,4); each landing is an end of its own.
    # (Landings keep the start's parity, so no chain can jump over the start.)
    state = make([(4, 4), (3, 3)], [(3, 2), (9, 9)])
    assert ends(state, (4, 4)) - {(4, 4, 4 + dr, 4 + dc) for dr, dc in DIRS} == {
        (4, 4, 2, 2),
        (4, 4, 4, 2),
        (4, 4, 2, 4),
    }
    new, events = RS.apply(state, 0, mv((4, 4), (2, 2), (4, 2), (2, 4)))
    assert events[0]["path"] == [[4, 4], [2, 2], [4, 2], [2, 4]] and 24 in new.pieces[0]
    with pytest.raises(IllegalAction, match="piece to jump over on d6"):
        RS.apply(state, 0, mv((4, 4), (2, 2), (4, 2), (4, 4), (4, 2)))


def test_no_move_ends_on_its_start() -> None:
    state = make([(4, 4), (4, 5)], [(9, 9)])
    assert all(a["path"][0] != a["path"][-1] for a in RS.legal_actions(state, 0))
    assert (4, 4, 4, 4) not in ends(state)
    with pytest.raises(IllegalAction, match="start field"):
        RS.apply(state, 0, mv((4, 4), (4, 6), (4, 4)))


def test_fixed_position_counts() -> None:
    # A lone piece in the middle, on an edge, and a crowded cluster.
    assert len(RS.legal_actions(make([(4, 4)], [(9, 9)]), 0)) == 8
    assert len(RS.legal_actions(make([(0, 5)], [(9, 9)]), 0)) == 5
    # A 3x3 block of White: the centre only jumps (8); each corner has 5 steps
    # and no jump; each edge piece 3 steps and 4 jumps (over its side and
    # diagonal neighbours): 8 + 4 * 5 + 4 * 7.
    block = [(r, c) for r in (3, 4, 5) for c in (3, 4, 5)]
    state = make(block, [(9, 9)])
    assert ends(state, (4, 4)) == {(4, 4, 4 + 2 * dr, 4 + 2 * dc) for dr, dc in DIRS}
    assert len(RS.legal_actions(state, 0)) == len(reference_pairs(state)) == 56


def test_legal_paths_are_valid_and_shortest() -> None:
    for state in playout_states(3, 60)[20::4]:
        for action in RS.legal_actions(state, state.to_move):
            RS.apply(state, state.to_move, action)  # every listed path applies
        pairs = [(*a["path"][0], *a["path"][-1]) for a in RS.legal_actions(state, state.to_move)]
        assert len(pairs) == len(set(pairs))  # one action per (start, end)


def test_fast_generator_agrees_with_reference() -> None:
    checked = 0
    for seed in range(8):
        for state in playout_states(seed, 90)[::3]:
            if RS.outcome(state) is None:
                assert ends(state) == reference_pairs(state), RS.encode(state)
                checked += 1
    assert checked > 200


# -- the end of the game ------------------------------------------------------------


def _almost_won() -> HalmaState:
    """White has 14 pieces in Black's house; its last one is a step away."""
    white = [divmod(i, 10) for i in HOUSES[1] if i != 40]  # (4,0) still free
    black = [(5, 5), (5, 6), (6, 5), (6, 6), (7, 5), (5, 7), (6, 7), (7, 6), (7, 7)]
    black += [(8, 0), (8, 1), (8, 2), (0, 9), (1, 9), (2, 9)]
    return make([*white, (5, 0)], black, plies=40)


def test_win_by_filling_the_opposite_house() -> None:
    state = _almost_won()
    assert RS.outcome(state) is None
    new, events = RS.apply(state, 0, mv((5, 0), (4, 0)))
    result = {
        "winners": [0],
        "draw": False,
        "reason": "White brought all 15 pieces into Black's house",
    }
    assert RS.outcome(new) == result
    assert events[-1] == {"type": "game_over", **result}
    assert RS.to_act(new) == []
    assert RS.legal_actions(new, 1) == []
    with pytest.raises(IllegalAction, match="over"):
        RS.apply(new, 1, mv((5, 5), (4, 4)))
    assert RS.view(new, None)["to_move"] is None


def _fifty(white_home: bool, black_home: bool, plies: int = 99) -> HalmaState:
    """Black to move; its piece on (3,3) may step into (2,2), its house, or out to (4,4)."""
    white = [(1, 5), (1, 6), (1, 7)] + ([(9, 9)] if white_home else [(4, 9)])
    black = [(3, 3), (6, 0), (6, 1)] + ([(0, 0)] if black_home else [(5, 0)])
    return make(white, black, plies=plies)


@pytest.mark.parametrize(
    ("white_home", "black_home", "expected"),
    [
        (True, True, {"winners": [], "draw": True, "reason": "both sides still had a piece in their own house after move 50"}),
        (False, True, {"winners": [0], "draw": False, "reason": "Black still had a piece in its house after move 50"}),
        (True, False, {"winners": [1], "draw": False, "reason": "White still had a piece in its house after move 50"}),
        (False, False, None),
    ],
)  # fmt: skip
def test_fifty_move_rule_when_move_50_completes(
    white_home: bool, black_home: bool, expected: dict[str, Any] | None
) -> None:
    state = _fifty(white_home, black_home)
    assert move_number(state) == 50 and state.to_move == 1
    assert RS.outcome(state) is None  # move 50 is not complete yet
    new, events = RS.apply(state, 1, mv((3, 3), (4, 4)))
    assert full_moves(new) == 50
    assert RS.outcome(new) == expected
    if expected is None:
        assert RS.to_act(new) == [0] and len(events) == 1
    else:
        assert events[-1] == {"type": "game_over", **expected}


def test_fifty_move_rule_black_steps_home_with_its_50th_move() -> None:
    new, _ = RS.apply(_fifty(False, False), 1, mv((3, 3), (2, 2)))
    assert RS.outcome(new) == {
        "winners": [0],
        "draw": False,
        "reason": "Black still had a piece in its house after move 50",
    }


def test_houses_may_be_occupied_before_move_50() -> None:
    state = _fifty(True, True, plies=97)  # Black's 49th move
    new, _ = RS.apply(state, 1, mv((3, 3), (4, 4)))
    assert RS.outcome(new) is None
    assert RS.view(new, 0)["house_warning"] == [True, True]


def test_moving_back_home_after_move_50_loses_at_once() -> None:
    white = [(5, 5), (4, 9), (1, 5)]
    black = [(3, 3), (6, 0), (6, 1)]
    state = make(white, black, plies=100)
    assert RS.outcome(state) is None
    new, events = RS.apply(state, 0, mv((4, 9), (5, 9)))  # (5,9) is in White's house
    assert RS.outcome(new) == {
        "winners": [1],
        "draw": False,
        "reason": "White moved a piece back into its own house after move 50",
    }
    assert events[-1]["type"] == "game_over"
    # Black's turn at move 53: stepping into its house loses too.
    state = make(white, black, plies=105)
    new, _ = RS.apply(state, 1, mv((3, 3), (2, 2)))
    assert RS.outcome(new)["winners"] == [0]
    assert "Black moved a piece back" in RS.outcome(new)["reason"]
    # Leaving it is fine.
    new, _ = RS.apply(state, 1, mv((3, 3), (4, 3)))
    assert RS.outcome(new) is None


def test_fifty_move_rule_by_real_moves() -> None:
    # Both sides shuffle one piece out and back for 50 moves: a draw.
    state = RS.setup({}, 2, 0)
    shuffles = (
        (mv((5, 9), (4, 9)), mv((4, 9), (5, 9))),
        (mv((4, 0), (5, 0)), mv((5, 0), (4, 0))),
    )
    for ply in range(100):
        seat = state.to_move
        assert RS.outcome(state) is None
        state, events = RS.apply(state, seat, shuffles[seat][(ply // 2) % 2])
        assert events[0]["move_number"] == ply // 2 + 1
    assert full_moves(state) == 50
    assert RS.outcome(state) == {
        "winners": [],
        "draw": True,
        "reason": "both sides still had a piece in their own house after move 50",
    }


def test_blocked_side_passes_and_full_board_is_a_draw() -> None:
    # Black's only piece sits in the corner, walled in by White.
    white = [(0, 1), (1, 0), (1, 1), (0, 2), (2, 0), (2, 2), (5, 5)]
    state = make(white, [(0, 0)])
    new, events = RS.apply(state, 0, mv((5, 5), (5, 6)))
    assert [e["type"] for e in events] == ["moved", "passed"]
    assert events[1] == {"type": "passed", "seat": 1, "move_number": 1}
    assert new.to_move == 0 and new.plies == 2
    assert RS.view(new, None)["passed"] == 1
    assert RS.view(new, None)["last_move"] == {"seat": 0, "path": [[5, 5], [5, 6]]}
    full = HalmaState(pieces=(tuple(range(0, 100, 2)), tuple(range(1, 100, 2))))
    assert RS.outcome(full) == {"winners": [], "draw": True, "reason": "neither side can move"}


# -- helpers for the platform, views, encoding ------------------------------------------


def test_move_number_and_repetition_helpers() -> None:
    state = RS.setup({}, 2, 0)
    assert move_number(state) == 1 and full_moves(state) == 0
    assert move_number(make([(4, 4)], [(9, 9)], plies=7)) == 4
    assert not counts_for_repetition(make([(4, 4)], [(9, 9)], plies=103))  # 51 full moves
    assert counts_for_repetition(make([(4, 4)], [(9, 9)], plies=104))  # 52 full moves
    a = make([(4, 4)], [(9, 9)], plies=2)
    b = make([(4, 4)], [(9, 9)], plies=40)
    c = make([(4, 4)], [(9, 9)], plies=41)
    assert RS.position_key(a) == RS.position_key(b) != RS.position_key(c)
    assert RS.position_key(a) != RS.position_key(make([(9, 9)], [(4, 4)], plies=2))


def test_view_shape() -> None:
    state = RS.setup({}, 2, 5)
    state, _ = RS.apply(state, 0, mv((6, 9), (4, 9)))
    view = RS.view(state, 1)
    assert view["move_number"] == 1 and view["to_move"] == 1
    assert view["in_house"] == [14, 15]
    assert view["last_move"] == {"seat": 0, "path": [[6, 9], [4, 9]]}
    assert [4, 9] in view["pieces"][0] and len(view["pieces"][1]) == 15
    assert view["house_warning"] == [False, False]
    assert view["outcome"] is None and view["passed"] is None
    assert json.loads(json.dumps(view)) == view
    assert RS.view(state, None)["seat"] is None
    assert in_house(state, 0) == 14


def test_view_event_is_identity() -> None:
    event = {"type": "moved", "seat": 0, "path": [[6, 9], [4, 9]], "move_number": 1}
    assert RS.view_event(event, 1) == event and RS.view_event(event, None) == event


# -- fuzzing and playouts -----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)
fields = st.lists(st.integers(-2, 11) | st.booleans() | st.floats(), min_size=0, max_size=3)
move_like = st.fixed_dictionaries(
    {"type": st.just("move"), "path": st.lists(fields | json_values, max_size=5)}
)
coord_moves = st.fixed_dictionaries(
    {"type": st.just("move"), "path": st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)).map(list), max_size=5)}
)  # fmt: skip


@functools.cache
def _midgame() -> HalmaState:
    return playout_states(11, 30)[-1]


@given(action=json_values | move_like | coord_moves, seat=st.sampled_from([0, 1, 2, -1]))
def test_junk_actions_raise_illegal_action_only(action: Any, seat: int) -> None:
    state = _midgame()
    before = RS.encode(state)
    try:
        new, _ = RS.apply(state, seat, action)
    except IllegalAction:
        pass
    else:  # a random path may be legal; then it must be one the generator lists
        pairs = ends(state)
        assert (*action["path"][0], *action["path"][-1]) in pairs
        assert new.plies == state.plies + 1
    assert RS.encode(state) == before


def test_hand_made_junk() -> None:
    state = RS.setup({}, 2, 0)
    junk: list[Any] = [
        None,
        [],
        "move",
        {},
        {"type": "jump"},
        {"type": "move"},
        {"type": "move", "path": None},
        {"type": "move", "path": [[5, 9]]},
        {"type": "move", "path": [[5, 9], [4, 9.0]]},
        {"type": "move", "path": [[True, 9], [4, 9]]},
        {"type": "move", "path": [[5, 9], [4, 9, 0]]},
        {"type": "move", "path": [[5, 9], "4,9"]},
        {"type": "move", "path": [[5, 9], [10**30, 9]]},
        {"type": "move", "path": [[5, 9]] + [[4, 9], [5, 9]] * 60},
    ]
    for action in junk:
        with pytest.raises(IllegalAction):
            RS.apply(state, 0, action)
    with pytest.raises(IllegalAction, match="not your turn"):
        RS.apply(state, 1, mv((4, 0), (5, 0)))


@given(data=st.data(), seed=st.integers(0, 10**6))
def test_random_playouts_keep_invariants(data: st.DataObject, seed: int) -> None:
    state = RS.setup({}, 2, seed)
    for step in range(60):
        if RS.outcome(state) is not None:
            assert RS.to_act(state) == []
            break
        seat = state.to_move
        assert RS.to_act(state) == [seat]
        actions = RS.legal_actions(state, seat)
        assert actions and RS.legal_actions(state, 1 - seat) == []
        action = actions[data.draw(st.integers(0, len(actions) - 1))]
        before = RS.encode(state)
        new, events = RS.apply(state, seat, json.loads(json.dumps(action)))
        assert RS.encode(state) == before  # apply never mutates its input
        assert events[0]["type"] == "moved" and events[0]["path"] == action["path"]
        assert len(new.pieces[0]) == len(new.pieces[1]) == 15
        assert not set(new.pieces[0]) & set(new.pieces[1])
        if step % 10 == 0:
            data_json = json.dumps(RS.encode(new))
            assert RS.decode(json.loads(data_json)) == new
            view = json.dumps(RS.view(new, seat)) + json.dumps(RS.view(new, None))
            assert "seed" not in view
            assert ends(new) == reference_pairs(new) or RS.outcome(new) is not None
        state = new
