"""Halma bots: concrete positions, the 50-move rule, determinism, legal play."""

from __future__ import annotations

import random

import pytest

from games.bots import get_bot, halma
from games.rules.halma import HalmaRuleset, HalmaState, in_house

RS = HalmaRuleset()
LEVELS = ("easy", "medium", "strong")


def fields(*coords: tuple[int, int]) -> tuple[int, ...]:
    return tuple(sorted(r * 10 + c for r, c in coords))


# Black's house (White's target) is r + c <= 4; White's is the bottom right corner.
BLACK_HOUSE = [(r, c) for r in range(10) for c in range(10) if r + c <= 4]
# Black's pieces in the middle, out of both houses (legal after move 50).
BLACK_MIDDLE = [(5, c) for c in range(10)] + [(6, c) for c in range(5)]


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_winning_jump_ladder(level: str) -> None:
    # Move 61: White's last piece outside Black's house wins by the ladder
    # [6, 6] -> [4, 4] -> [2, 2] (the last hole) over Black's pieces on [5, 5]
    # and [3, 3]; no single step or jump wins.
    white = [*(f for f in BLACK_HOUSE if f != (2, 2)), (6, 6)]
    black = [(5, 5), (3, 3), *(f for f in BLACK_MIDDLE if f != (5, 5))][:15]
    state = HalmaState(pieces=(fields(*white), fields(*black)), plies=120)
    assert len(state.pieces[0]) == 15 and len(state.pieces[1]) == 15
    action = halma.make(level).choose(state, 0, seed=1)
    after, _ = RS.apply(state, 0, action)
    assert RS.outcome(after) is not None
    assert RS.outcome(after)["winners"] == [0]
    assert action["path"] == [[6, 6], [4, 4], [2, 2]]


@pytest.mark.parametrize("level", LEVELS)
def test_leaves_the_house_on_its_last_chance(level: str) -> None:
    # Move 50, White to move, one piece still home on [7, 7]; the others could
    # make long jumps instead, but staying home loses when move 50 is complete.
    white = [(7, 7), (6, 4), (6, 2)] + [(r, c) for r in (4, 3) for c in range(1, 7)]
    black = [(8, c) for c in range(3)] + [(7, c) for c in range(4)] + [(r, 8) for r in range(8)]
    state = HalmaState(pieces=(fields(*white), fields(*black)), plies=98)
    assert in_house(state, 0) == 1 and in_house(state, 1) == 0
    action = halma.make(level).choose(state, 0, seed=2)
    after, _ = RS.apply(state, 0, action)
    assert in_house(after, 0) == 0


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_action(level: str) -> None:
    state = RS.setup({}, 2, 1)
    rng = random.Random(3)
    for _ in range(16):
        seat = RS.to_act(state)[0]
        state, _ = RS.apply(state, seat, rng.choice(RS.legal_actions(state, seat)))
    seat = RS.to_act(state)[0]
    first = halma.make(level).choose(state, seat, seed=5)
    assert halma.make(level).choose(state, seat, seed=5) == first
    RS.apply(state, seat, first)


def test_easy_plays_a_legal_whole_game_and_clears_its_house() -> None:
    state = RS.setup({}, 2, 1)
    bots = (halma.make("easy"), halma.make("easy"))
    for ply in range(400):
        if RS.outcome(state) is not None:
            break
        seat = RS.to_act(state)[0]
        state, _ = RS.apply(state, seat, bots[seat].choose(state, seat, seed=ply))
    outcome = RS.outcome(state)
    assert outcome is not None and outcome["winners"]
    assert "after move 50" not in outcome["reason"]


def test_unknown_level_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="levels"):
        get_bot("halma", "grandmaster")
    with pytest.raises(LookupError):
        halma.make("grandmaster")
