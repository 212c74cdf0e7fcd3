"""Malefiz bots: concrete positions, determinism, no peeking at the dice, legal play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.greedy.malefiz import Greedy, walking_distances
from games.bots import get_bot
from games.bots.malefiz import make
from games.rules import get_ruleset
from games.rules.malefiz import FIELDS, GOAL, HOUSE, INDEX, MOVE, PLACE, ROLL, MalefizState
from tests.games.rules.test_malefiz import START_BARS, XY
from tests.games.rules.test_malefiz import pos as rules_pos

RS = get_ruleset("malefiz")
LEVELS = ("easy", "medium", "strong")


def pos(pieces: dict[int, list[XY]], **kwargs: Any) -> MalefizState:
    """A position as the rules tests build it, with this file's dice seed."""
    return rules_pos(pieces, seed=12345, **kwargs)


def holding(state: MalefizState, at: XY) -> MalefizState:
    """``state`` with the seat to act holding the barricade taken on ``at``."""
    last = (state.turn, HOUSE, (INDEX[at],), -1, -1)
    return state._replace(phase=PLACE, last_roll=(state.turn, 1, 0), last=last)


def route_ahead(start: XY) -> set[XY]:
    """Fields on some shortest way from ``start`` to the goal (barricades ignored)."""
    s = INDEX[start]
    from_s, from_goal = walking_distances(s), walking_distances(GOAL)
    total = from_goal[s]
    return {FIELDS[f] for f in range(len(FIELDS)) if from_s[f] + from_goal[f] == total and f != s}


@pytest.mark.parametrize("level", LEVELS)
def test_rolls_when_it_must(level: str) -> None:
    state = RS.setup({}, 2, 3)
    assert make(level).choose(state, state.turn, seed=1) == {"type": "roll"}


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_goal_when_the_roll_allows(level: str) -> None:
    bars = tuple(b for b in START_BARS if b != (9, 13))
    state = pos({0: [(5, 13), (9, 5)], 1: [(13, 13)]}, bars=bars, roll=5)
    action = make(level).choose(state, 0, seed=7)
    assert action == {"type": "move", "from": [5, 13], "to": [9, 14]}


@pytest.mark.parametrize("level", ("medium", "strong"))
def test_hits_the_leader(level: str) -> None:
    # Blue's piece two fields from the goal; ours reaches it with the 4.
    bars = tuple(b for b in START_BARS if b != (9, 13))
    state = pos({0: [(4, 13), (5, 5)], 1: [(8, 13), (11, 3)]}, bars=bars, roll=4)
    action = make(level).choose(state, 0, seed=3)
    assert action["to"] == [8, 13]
    _new, events = RS.apply(state, 0, action)
    assert events[0]["knocked"] == 1


@pytest.mark.parametrize("level", LEVELS)
def test_places_the_barricade_in_front_of_the_leader(level: str) -> None:
    # Seat 1 leads by far; seat 0 just took the barricade on (3, 5).
    leader = (13, 11)
    state = holding(pos({0: [(3, 5)], 1: [leader, (11, 3)]}, bars=()), (3, 5))
    action = make(level).choose(state, 0, seed=5)
    assert action["type"] == "barricade"
    assert tuple(action["to"]) in route_ahead(leader)
    RS.apply(state, 0, action)


def test_strong_sets_up_a_second_winning_face() -> None:
    # Two pieces on the goal row, 5 and 7 fields from the goal, a 3 rolled, the
    # rival far away and no barricade left. Running the front piece on (2 fields
    # off) leaves one face that wins next turn; bringing the back one up to 4
    # fields off leaves two (the 4 and the 5). The one-ply value (medium) runs
    # on; strong looks at its own next roll and takes the second face.
    state = pos({0: [(5, 13), (3, 13)], 1: [(13, 1), (15, 1)]}, bars=(), roll=3)
    assert make("medium").choose(state, 0, seed=3)["from"] == [5, 13]
    action = make("strong").choose(state, 0, seed=3)
    assert action == {"type": "move", "from": [3, 13], "to": [6, 13]}
    RS.apply(state, 0, action)


def playout(seats: int, seed: int, level: str, max_actions: int) -> MalefizState:
    """The position after ``level`` bots played each other (``apply`` checks every action)."""
    bot = make(level)
    state = RS.setup({}, seats, seed)
    for n in range(max_actions):
        if RS.outcome(state) is not None:
            break
        state, _ = RS.apply(state, state.turn, bot.choose(state, state.turn, seed=n))
    return state


@pytest.mark.parametrize("seats", (2, 3, 4))
def test_easy_playouts_are_legal_and_finish(seats: int) -> None:
    ends = [playout(seats, seed, "easy", 2000) for seed in range(3)]
    assert all(RS.outcome(end) is not None for end in ends)


def sample_positions(count: int) -> list[MalefizState]:
    """Move and barricade positions from random games of 2 to 4 seats."""
    rng = random.Random(99)
    out: list[MalefizState] = []
    for seed in range(40):
        state = RS.setup({}, 2 + seed % 3, seed)
        for _n in range(rng.randrange(20, 400)):
            if RS.outcome(state) is not None:
                break
            action = RS.random_action(state, state.turn, rng)
            assert action is not None
            state, _ = RS.apply(state, state.turn, action)
            if state.phase != ROLL and RS.outcome(state) is None and rng.random() < 0.1:
                out.append(state)
        if len(out) >= count:
            break
    return out[:count]


def reseeded(state: MalefizState, seed: int, counter: int) -> MalefizState:
    data: dict[str, Any] = RS.encode(state)
    data["seed"], data["counter"] = seed, counter
    return RS.decode(data)


@pytest.mark.parametrize(("level", "count"), (("easy", 40), ("medium", 30), ("strong", 8)))
def test_deterministic_and_blind_to_the_dice(level: str, count: int) -> None:
    bot = make(level)
    positions = sample_positions(count)
    assert any(p.phase == MOVE for p in positions)
    for n, state in enumerate(positions):
        seat = state.turn
        first = bot.choose(state, seat, seed=n)
        RS.apply(state, seat, first)
        assert bot.choose(state, seat, seed=n) == first
        for other in (reseeded(state, 1, 0), reseeded(state, 2**40 + n, state.counter + 17)):
            assert bot.choose(other, seat, seed=n) == first


def test_get_bot_wraps_the_levels() -> None:
    state = sample_positions(1)[0]
    for level in LEVELS:
        action = get_bot("malefiz", level).choose(state, state.turn, seed=0)
        RS.apply(state, state.turn, action)


def test_greedy_reference_plays_legally() -> None:
    greedy = Greedy()
    state = RS.setup({}, 2, 11)
    for n in range(600):
        if RS.outcome(state) is not None:
            break
        state, _ = RS.apply(state, state.turn, greedy.choose(state, state.turn, seed=n))
