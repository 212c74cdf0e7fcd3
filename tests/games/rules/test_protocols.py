"""The optional platform hooks are small protocols a ruleset declares, and the
Halma remis rules (repetition, evidence, move numbers) live in the ruleset."""

from __future__ import annotations

import pytest

from games.rules import RULESETS, get_ruleset
from games.rules.base import (
    LongWork,
    PhaseDeadline,
    PhaseTimer,
    RemisQueue,
    Ruleset,
    implements,
)
from games.rules.halma import MOVE_LIMIT, HalmaRuleset, HalmaState
from tests.games.halma_script import RS, repetition_log

CAPABILITIES = {
    "halma": {RemisQueue},
    "malefiz": set(),
    "daschax": set(),
    "hexenhalma": {LongWork, PhaseDeadline},
    "idiotenspiel": {PhaseTimer},
}


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_each_ruleset_has_exactly_its_platform_hooks(slug):
    rs = get_ruleset(slug)
    assert isinstance(rs, Ruleset)
    hooks = (LongWork, PhaseDeadline, PhaseTimer, RemisQueue)
    assert {p for p in hooks if isinstance(rs, p)} == CAPABILITIES[slug]
    assert {p for p in hooks if implements(rs, p)} == CAPABILITIES[slug]


def history_of(log):
    """The states after every ply, as the platform's remis history builds them."""
    state = RS.setup({}, 2, 1)
    states = [state]
    for seat, action in log:
        state, _ = RS.apply(state, seat, action)
        states.append(state)
    return states


@pytest.fixture(scope="module")
def repeating():
    """A game whose next white move repeats a position after move 51 a third time."""
    log = repetition_log(104, 2)
    return log[-4][1], history_of(log)


def test_move_number_arithmetic():
    assert [RS.move_number_after(p) for p in (1, 2, 3, 4)] == [1, 1, 2, 2]
    assert RS.move_number_after(113) == 57


def test_repetition_candidates_cite_the_earlier_moves(repeating):
    action, history = repeating
    found = RS.repetition_candidates(history, 0)
    assert {"action": action, "move_numbers": [53, 55, 57]} in found
    # One ply earlier black's step back repeats the position after moves 52 and 54.
    black = RS.repetition_candidates(history[:-1], 1)
    assert [c["move_numbers"] for c in black] == [[52, 54, 56]]


def test_evidence_of_a_true_claim(repeating):
    action, history = repeating
    after, _ = RS.apply(history[-1], 0, action)
    evidence = RS.repetition_evidence(history, 0, after, [53, 55, 57])
    assert evidence["identical"] and evidence["past_51"] and evidence["move_legal"]
    assert [p["move"] for p in evidence["positions"]] == [53, 55, 57]
    assert evidence["positions"][-1]["proposed"] is True
    assert evidence["positions"][0]["pieces"] == RS.view(after, None)["pieces"]


def test_evidence_names_a_wrong_or_unreached_move(repeating):
    action, history = repeating
    after, _ = RS.apply(history[-1], 0, action)
    evidence = RS.repetition_evidence(history, 0, after, [54, 55, 57])
    assert not evidence["identical"]
    assert [p["identical"] for p in evidence["positions"]] == [False, True, True]
    unreached = RS.repetition_evidence(history, 0, after, [55, 99, 100])
    assert unreached["positions"][1] == {
        "move": 99,
        "pieces": None,
        "identical": False,
        "past_51": True,
    }


def test_positions_before_move_52_do_not_count():
    log = repetition_log(92, 2)  # the shuffling happens around moves 47-51
    history = history_of(log)
    after, _ = RS.apply(history[-1], 0, log[-4][1])
    evidence = RS.repetition_evidence(history, 0, after, [47, 49, 51])
    assert evidence["identical"] is True and evidence["past_51"] is False
    assert RS.repetition_candidates(history, 0) == []


def test_deadlock_claims_wait_for_move_50():
    rules = HalmaRuleset()
    assert rules.deadlock_claim_from(HalmaState(pieces=((), ()), plies=99)) == MOVE_LIMIT
    assert rules.deadlock_claim_from(HalmaState(pieces=((), ()), plies=100)) is None
