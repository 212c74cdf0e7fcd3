"""The strength bench's bars of issue 50 (bench/bots.py, bench/daschax_endgames.py):
the levels in order in every game by score, no capped game, the Sheriff's games,
and the references and figures those bars read."""

from __future__ import annotations

import dataclasses

from bench.bots import SLUGS, sheriff_indices, verdict_of
from bench.bots import setup as bench_setup
from bench.daschax_endgames import hunt, position
from bench.greedy.idiotenspiel import Greedy
from games.bots import daschax
from games.rules import get_ruleset
from games.rules.idiotenspiel.scenarios import ROBIN, SHERIFF

IDIOT = get_ruleset("idiotenspiel")


def test_every_game_bars_strong_and_medium_by_score_with_draws_half() -> None:
    for slug in SLUGS:
        # 20 won, 8 drawn, 12 lost of 40: a score of 60 %, a win rate of 50 %.
        line, ok = verdict_of(slug, "strong-medium", 40, 20, 8)
        assert ok is True and "score >= 60%" in line, (slug, line)
        assert verdict_of(slug, "strong-medium", 40, 19, 8)[1] is False, slug
        # Medium keeps its win-rate bar against easy and gains the score bar.
        line, ok = verdict_of(slug, "medium-easy", 40, 24, 0)
        assert ok is True and "win >= 60%, score >= 60%" in line, (slug, line)


def test_a_capped_game_fails_the_bar() -> None:
    assert verdict_of("daschax", "strong-medium", 40, 30, 1, capped=0)[1] is True
    line, ok = verdict_of("daschax", "strong-medium", 40, 30, 1, capped=1)
    assert ok is False and "0 capped" in line


def test_the_sheriff_games_are_maid_marian_with_strong_as_the_sheriff() -> None:
    indices = sheriff_indices(8)
    assert len(set(indices)) == 8
    for index in indices:
        _rs, state, seats = bench_setup("idiotenspiel", index)
        assert state.scenario == "marian"
        assert seats[0] == SHERIFF and seats[1] == ROBIN  # the first player named is strong


def test_the_greedy_ends_its_movement_with_no_enemy_left() -> None:
    # Rettet Maid Marian! goes on when the Sheriff has no unit left: the greedy
    # has nothing to close in on and must still answer.
    _rs, state, _seats = bench_setup("idiotenspiel", sheriff_indices(1)[0])
    while state.phase != "move" or IDIOT.to_act(state) != [ROBIN]:
        seat = IDIOT.to_act(state)[0]
        state = IDIOT.apply(state, seat, IDIOT.legal_actions(state, seat)[0])[0]
    units = tuple(
        dataclasses.replace(u, alive=False, at=None) if u.side == SHERIFF and u.combatant else u
        for u in state.units
    )
    bare = dataclasses.replace(state, units=units)
    assert Greedy().choose(bare, ROBIN, seed=1) == {"type": "end_movement"}


def test_the_endgame_bench_tells_a_house_rule_draw_from_a_win() -> None:
    levels = (daschax.LEVELS["strong"], daschax.LEVELS["medium"])
    state = position((2, 1), 111, (2,))
    drawn = dataclasses.replace(state, since_capture=state.variants.stall_turns)
    assert hunt(drawn, 10, 1, [], levels) == ("drawn", 0)
    won = hunt(position((2, 1), 117, (2,)), 10, 117, [], levels)
    assert won == ("won", 1)
