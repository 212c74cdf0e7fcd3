"""The Daschax bots and the house rule (issue 50): they do not read the count,
and it stays out of their seed, so they decide as they did before the rule."""

from __future__ import annotations

import dataclasses

from games.bots import get_bot
from games.bots.base import view_rng
from games.bots.daschax import seeded_rng
from tests.games.bots.test_daschax_bot import ENDGAMES, position


def test_the_count_does_not_change_a_decision() -> None:
    state = position(ENDGAMES[0])
    for level in ("easy", "medium", "strong"):
        first = get_bot("daschax", level).choose(state, 0, seed=3)
        for count, limit in ((120, 150), (149, 150), (5, 0), (9_000, 10_000)):
            later = dataclasses.replace(
                state,
                since_capture=count,
                variants=dataclasses.replace(state.variants, stall_turns=limit),
            )
            assert get_bot("daschax", level).choose(later, 0, seed=3) == first


def test_the_seed_leaves_the_house_rule_out() -> None:
    state = position(ENDGAMES[1])
    later = dataclasses.replace(state, since_capture=140)
    assert seeded_rng(state, 0, 7).random() == seeded_rng(later, 0, 7).random()
    # The platform's seed of the full view does see the count.
    assert view_rng("daschax", state, 0, 7).random() != view_rng("daschax", later, 0, 7).random()
