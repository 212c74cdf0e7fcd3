"""Das Idiotenspiel bots play for the scenario's real end (issue 30): the
posture of a side, Maid Marian's safety, and won endgames that get finished.

Positions use the probe map of the rules tests (see test_idiotenspiel_helpers).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.bots.idiot_board import LEVEL_PARAMS, Board
from games.bots.idiot_goals import goal_score
from games.bots.idiot_plan import FORCE_AHEAD, forcing, posture
from games.bots.idiotenspiel import make
from games.rules.idiotenspiel.scenarios import MARIAN_ID
from games.rules.idiotenspiel.state import State, Unit
from games.rules.idiotenspiel.work import Work
from tests.games.bots.test_idiotenspiel_bot import play
from tests.games.rules.test_idiotenspiel_helpers import RS, combat, position, unit

LEVELS = ("easy", "medium", "strong")


def _army(side: int, n: int, x: int) -> list[Unit]:
    return [unit(f"{'rs'[side]}{k}", side, "infantry", (x, k)) for k in range(n)]


def _plan(units: list[Unit], level: str, turn: int = 1, seat: int = 0) -> Any:
    s = replace(position(units), turn=turn)
    return posture(Work(s), seat, LEVEL_PARAMS[level], level)


@pytest.mark.parametrize("level", LEVELS)
def test_far_ahead_hunts_and_far_behind_stands(level: str) -> None:
    units = _army(0, 7, 2) + _army(1, 1, 9)  # 7 foot and a leader against a foot and a leader
    ahead = _plan(units, level)
    assert ahead.name == "hunt" and ahead.params.hold == 0
    assert ahead.params.hunt > LEVEL_PARAMS[level].hunt
    behind = _plan(units, level, seat=1)
    assert behind.name == "lost" and not forcing(behind, 5)


@pytest.mark.parametrize("level", LEVELS)
def test_a_lone_leader_stands_against_three(level: str) -> None:
    # Three foot and Robin (4.5) against the Sheriff alone (1.5): a ratio above
    # the lost mark, but a lone mounted leader can only run (for ever).
    units = [*_army(0, 3, 2), unit("sL", 1, "cavalry", (10, 6), leader=True, name="Sheriff")]
    assert _plan(units, level, seat=1).name == "lost"
    assert _plan(units[2:], level, seat=1).name != "lost"  # one foot and Robin: he may fight


@pytest.mark.parametrize("level", LEVELS)
def test_an_even_game_presses_only_after_a_standoff(level: str) -> None:
    units = _army(0, 4, 2) + _army(1, 4, 9)
    assert _plan(units, level, turn=3).name == "even"
    late = _plan(units, level, turn=60)
    assert late.name == "press" and late.params.hold == 0
    # Early on both sides keep the game going; much later only the side ahead.
    assert forcing(late, 10) and forcing(late, FORCE_AHEAD - 1) and not forcing(late, FORCE_AHEAD)


def test_strong_reads_the_balance_earlier_than_medium() -> None:
    units = _army(0, 6, 2) + _army(1, 3, 9)  # 7 against 4 (leaders counted)
    assert _plan(units, "strong").name == "hunt"
    assert _plan(units, "medium").name == "even"
    even = _army(0, 4, 2) + _army(1, 4, 9)
    assert _plan(even, "strong", turn=30).name == "press"
    assert _plan(even, "medium", turn=30).name == "even"


@pytest.mark.parametrize("level", LEVELS)
def test_nobody_attacks_a_free_maid_marian(level: str) -> None:
    # s1 next to a free Marian (4, 0) and to r1 (6, 1): it fights r1, never her.
    s = position(
        [
            unit(MARIAN_ID, 0, "civilian", (4, 0)),
            unit("r1", 0, "infantry", (6, 1)),
            unit("s1", 1, "infantry", (5, 1)),
        ],
        scenario="marian",
        home=("S", "N"),
        active=1,
    )
    legal = RS.legal_actions(combat(s), 1)
    assert any(a.get("target") == MARIAN_ID for a in legal)  # the rules allow it
    action = make(level).choose(combat(s), 1, seed=1)
    assert action.get("target") != MARIAN_ID


def _guarded(extra: list[Unit]) -> State:
    # The Sheriff's foot s1 guards Marian at (8, 1); Robin's r1 stands at (5, 0).
    return position(
        [
            unit("s1", 1, "infantry", (8, 1)),
            unit(MARIAN_ID, 0, "civilian", (8, 1), guard="s1"),
            unit("r1", 0, "infantry", (5, 0)),
            *extra,
        ],
        scenario="marian",
        home=("S", "N"),
        active=1,
    )


def test_strong_sheriff_keeps_marian_s_guard_off_the_enemy() -> None:
    s = _guarded([])
    for seed in range(3):
        action = make("strong").choose(s, 1, seed=seed)
        if action["type"] == "move" and action["unit"] == "s1":
            x, y = action["to"]
            assert max(abs(x - 5), abs(y - 0)) > 1, action


def test_strong_sheriff_stacks_foot_on_marian_s_field() -> None:
    s = _guarded([unit("s2", 1, "infantry", (9, 1))])
    s2 = next(u for u in s.units if u.id == "s2")
    w = Work(s)
    pull = {}
    for level in ("medium", "strong"):
        board = Board(w, 1, LEVEL_PARAMS[level])
        pull[level] = goal_score(board, s2, (8, 1)) - goal_score(board, s2, (9, 2))
    assert pull["strong"] > pull["medium"] + 1.0  # her field, not just near her


@pytest.mark.parametrize(("winner", "loser"), [("strong", "medium"), ("medium", "easy")])
def test_a_won_game_is_finished(winner: str, loser: str) -> None:
    # Five of Robin's foot and his leader against the Sheriff alone: the game ends
    # by the rules (the Sheriff falls), not in a standoff.
    s = position(
        [
            *_army(0, 5, 1),
            unit("rL", 0, "archer", (0, 2), leader=True, name="Robin Hood"),
            unit("sL", 1, "cavalry", (10, 6), leader=True, name="Sheriff"),
        ]
    )
    end, _ = play([make(winner), make(loser)], s, 60)
    out = RS.outcome(end)
    assert out is not None and out["winners"] == [0], (end.turn, out)


@pytest.mark.parametrize(
    "levels", [("strong", "medium"), ("medium", "strong"), ("medium", "medium"), ("easy", "strong")]
)
def test_a_long_standoff_ends_by_the_rules(levels: tuple[str, str]) -> None:
    # Two even lines of foot far apart at turn 100: neither side gains by stepping
    # first, so without a plan the bots shuffle for ever (the old bots did).
    s = position(
        [
            *[unit(f"r{k}", 0, "infantry", (1, k)) for k in range(6)],
            *[unit(f"s{k}", 1, "infantry", (9, k)) for k in range(6)],
        ]
    )
    end, _ = play([make(levels[0]), make(levels[1])], replace(s, turn=100), 160)
    assert RS.outcome(end) is not None, end.turn


def _leaders() -> State:
    return position(
        [
            unit("rL", 0, "archer", (1, 1), leader=True, name="Robin Hood"),
            unit("sL", 1, "cavalry", (10, 6), leader=True, name="Sheriff"),
        ]
    )


@pytest.mark.parametrize("level", ("easy", "medium"))
def test_leader_against_leader_ends_in_the_rules_quiet_draw(level: str) -> None:
    s = _leaders()
    assert _plan(list(s.units), level).name == "dead"
    end, _ = play([make(level), make(level)], s, 10)
    assert RS.outcome(end) == {
        "winners": [],
        "draw": True,
        "reason": "two turns in a row passed without movement or combat",
    }


def test_strong_leaders_duel_and_the_game_ends_by_a_fight() -> None:
    # Strong duels a lone leader (idiot_board.duel): the leaders meet, a fight decides.
    s = _leaders()
    assert _plan(list(s.units), "strong").name != "dead"
    end, _ = play([make("strong"), make("strong")], s, 10)
    out = RS.outcome(end)
    assert out is not None and not out["draw"], out
