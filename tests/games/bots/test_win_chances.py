"""Bot win chances (issue 50): shape, range, sums, determinism, no peeking,
clearly won positions, finished games (ARCHITECTURE.md, "Bots")."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bench.bots import step
from games.bots import SLUGS, get_bot
from games.bots.base import RandomBot
from games.rules import get_ruleset
from games.rules.halma import HalmaState
from games.rules.malefiz import GOAL, INDEX
from tests.games.bots.test_daschax_bot import position as daschax_position
from tests.games.bots.test_halma_bot import BLACK_HOUSE, BLACK_MIDDLE, fields
from tests.games.rules.test_malefiz import pos as malefiz_pos

LEVELS = ("easy", "medium", "strong")
OPTIONS: dict[str, dict[str, Any]] = {"hexenhalma": {"rounds": 2}}


def sample(slug: str, seed: int, every: int = 7, plies: int = 300) -> list[tuple[Any, int]]:
    """(state, seat to ask) from one random game: every ``every``-th position."""
    rs = get_ruleset(slug)
    state = rs.setup(rs.validate_options(OPTIONS.get(slug, {})), rs.min_seats, seed)
    seats = getattr(state, "seats", 2)
    bots: dict[int, Any] = {s: RandomBot(slug) for s in range(seats)}
    out = []
    for ply in range(plies):
        if ply % every == 0 and rs.outcome(state) is None:
            out.append((state, (rs.to_act(state) or [ply % seats])[0]))
        try:
            state, _ = step(rs, state, bots, ply, seed)
        except StopIteration:
            break
    return out


def hidden_changed(slug: str, state: Any, seat: int) -> list[Any]:
    """``state`` with what ``seat``'s view hides changed: the seed, the dice
    counter, another team's orders."""
    if slug == "idiotenspiel":
        return [dataclasses.replace(state, seed=state.seed + 1, rng=state.rng + 5)]
    if slug == "malefiz":
        return [state._replace(seed=state.seed + 1, counter=state.counter + 5)]
    if slug == "hexenhalma":
        others = tuple(
            o if s + 1 == seat else '[{"start": [0, 0], "steps": []}]'
            for s, o in enumerate(state.orders)
        )
        return [dataclasses.replace(state, seed=state.seed + 1, counter=7, orders=others)]
    if slug == "daschax":
        return [dataclasses.replace(state, seed=state.seed + 1, counter=state.counter + 5)]
    return []  # Halma hides nothing


@pytest.mark.parametrize("slug", SLUGS)
def test_shape_range_sum_determinism_and_no_peeking(slug: str) -> None:
    bots = {level: get_bot(slug, level) for level in LEVELS}
    every = 1 if slug == "hexenhalma" else 7  # a random campaign is short
    positions = sample(slug, 11, every) + sample(slug, 12, every, plies=120)
    assert len(positions) >= 8
    for n, (state, seat) in enumerate(positions):
        first = bots["strong"].win_chances(state, seat, seed=n)
        seats = getattr(state, "seats", 2)
        assert len(first) == seats
        assert all(0.0 <= c <= 1.0 for c in first)
        assert sum(first) == pytest.approx(1.0)
        for level, bot in bots.items():
            assert bot.win_chances(state, seat, seed=n + 1) == first, level
        for other in hidden_changed(slug, state, seat):
            assert bots["medium"].win_chances(other, seat, seed=n) == first


def won_halma() -> tuple[HalmaState, int]:
    # White (seat 0): 13 pieces home in Black's house, two just outside it;
    # Black: all 15 far from White's house. Black to move.
    white = [*BLACK_HOUSE[:13], (3, 3), (4, 3)]
    black = BLACK_MIDDLE
    return HalmaState(pieces=(fields(*white), fields(*black)), plies=121), 0


def won_daschax() -> tuple[Any, int]:
    # Seat 1: a large and a medium piece against seat 0's lone small one.
    state = daschax_position(
        [(2, 2, "S", 0, "N"), (6, 6, "L", 1, "S"), (5, 6, "M", 1, "S")], to_move=0
    )
    return state, 1


def won_malefiz() -> tuple[Any, int]:
    # Seat 0 rolls with a piece two fields before the goal; seat 1 is all at home.
    near = next(xy for xy, i in INDEX.items() if i != GOAL and _steps_to_goal(i) == 2)
    return malefiz_pos({0: [near], 1: []}, bars=[], turn=0), 0


def _steps_to_goal(field: int) -> int:
    from games.bots.malefiz_core import costs

    return costs(0, 0)[field]


def won_idiotenspiel() -> tuple[Any, int]:
    # Robin's whole band against the Sheriff's leader alone.
    state, _ = sample("idiotenspiel", 5, every=1, plies=200)[-1]
    units = tuple(
        dataclasses.replace(u, alive=False, at=None) if u.side == 1 and not u.leader else u
        for u in state.units
    )
    return dataclasses.replace(state, units=units), 0


def won_hexenhalma() -> tuple[Any, int]:
    # Three of four rounds played; team 1 brought 3 witches home in each, team 2 none.
    rs = get_ruleset("hexenhalma")
    state = rs.setup(rs.validate_options({"rounds": 4}), 3, 1)
    return dataclasses.replace(state, round=3, results=(((1, 2, 3, 0),),) * 3), 1


WON = {
    "halma": won_halma,
    "daschax": won_daschax,
    "malefiz": won_malefiz,
    "idiotenspiel": won_idiotenspiel,
    "hexenhalma": won_hexenhalma,
}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_clearly_won_position_goes_to_the_winner(slug: str) -> None:
    state, winner = WON[slug]()
    rs = get_ruleset(slug)
    assert rs.outcome(state) is None
    for level in LEVELS:
        for seat in range(getattr(state, "seats", 2)):
            chances = get_bot(slug, level).win_chances(state, seat, seed=3)
            assert chances[winner] > 0.9, (level, seat, chances)


def test_finished_games_give_the_result() -> None:
    halma = get_ruleset("halma")
    white = [*BLACK_HOUSE]
    done = HalmaState(pieces=(fields(*white), fields(*BLACK_MIDDLE)), plies=121)
    assert halma.outcome(done)["winners"] == [0]
    assert get_bot("halma", "strong").win_chances(done, 1, seed=0) == [1.0, 0.0]
    malefiz = malefiz_pos({0: [], 1: [INDEX_OF_GOAL]}, bars=[], turn=1)
    assert get_ruleset("malefiz").outcome(malefiz)["winners"] == [1]
    assert get_bot("malefiz", "easy").win_chances(malefiz, 0, seed=0) == [0.0, 1.0]
    hexen = get_ruleset("hexenhalma")
    tied = dataclasses.replace(
        hexen.setup(hexen.validate_options({"rounds": 1}), 3, 1),
        round=1,
        phase="finished",
        results=(((1, 2, 2, 2),),),
    )
    assert hexen.outcome(tied)["draw"]
    assert get_bot("hexenhalma", "medium").win_chances(tied, 2, seed=0) == [0.0, 0.5, 0.5]


INDEX_OF_GOAL = next(xy for xy, i in INDEX.items() if i == GOAL)


def test_the_look_sees_a_forced_halma_win() -> None:
    # White's last piece jumps home with the ladder [6,6] -> [4,4] -> [2,2].
    white = [*(f for f in BLACK_HOUSE if f != (2, 2)), (6, 6)]
    black = [(5, 5), (3, 3), *(f for f in BLACK_MIDDLE if f != (5, 5))][:15]
    state = HalmaState(pieces=(fields(*white), fields(*black)), plies=120)
    assert get_bot("halma", "strong").win_chances(state, 1, seed=random.randrange(9)) == [1.0, 0.0]


def test_a_failing_evaluation_gives_even_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.bots import chance_terms

    def broken(state: Any, seat: int) -> Any:
        raise RuntimeError("a bug in an evaluation")

    monkeypatch.setitem(chance_terms.TERMS, "halma", broken)
    state = get_ruleset("halma").setup({}, 2, 1)
    assert get_bot("halma", "strong").win_chances(state, 0, seed=0) == [0.5, 0.5]
