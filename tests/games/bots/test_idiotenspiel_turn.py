"""Das Idiotenspiel bots (issue 30): moves that win at once, a Sheriff who can
no longer win, and strong against random play.

Positions use the probe map of the rules tests (see test_idiotenspiel_helpers)
or Die Burg for "Rettet Maid Marian!".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.bots.base import RandomBot
from games.bots.idiot_board import LEVEL_PARAMS, Board, cheb
from games.bots.idiot_goals import sheriff_cannot_win
from games.bots.idiot_plan import posture
from games.bots.idiotenspiel import make
from games.rules.idiotenspiel.scenarios import MARIAN_ID
from games.rules.idiotenspiel.state import State, Unit
from games.rules.idiotenspiel.work import Work
from tests.games.bots.test_idiotenspiel_bot import play
from tests.games.rules.test_idiotenspiel_helpers import RS, position, unit

LEVELS = ("easy", "medium", "strong")


def _burg(units: list[Unit], active: int) -> State:
    return position(units, map_key="die_burg", scenario="marian", home=("S", "N"), active=active)


@pytest.mark.parametrize("level", LEVELS)
def test_robin_s_escort_takes_marian_into_the_great_forest(level: str) -> None:
    # r1 and a free Marian stand at (20, 7), next to the inside of the great forest
    # (21, 6..8); three of the Sheriff's foot wait there. A fight there would be
    # bad, but the move ends the game (the old medium and strong stepped back).
    s = _burg(
        [
            unit("r1", 0, "infantry", (20, 7)),
            unit(MARIAN_ID, 0, "civilian", (20, 7)),
            *[unit(f"s{k}", 1, "infantry", (22, 5 + k)) for k in (1, 2, 3)],
            unit("sL", 1, "cavalry", (18, 9), leader=True, name="Sheriff"),
        ],
        active=0,
    )
    action = make(level).choose(s, 0, seed=1)
    after, _ = RS.apply(s, 0, action)
    out = RS.outcome(after)
    assert out is not None and out["winners"] == [0], action


@pytest.mark.parametrize("level", LEVELS)
def test_the_sheriff_s_foot_takes_marian_into_his_castle(level: str) -> None:
    # s1 guards her at (13, 13), next to the castle (13, 14); a rider also stands there.
    s = _burg(
        [
            unit("s1", 1, "infantry", (13, 13)),
            unit("s7", 1, "cavalry", (13, 13)),
            unit(MARIAN_ID, 0, "civilian", (13, 13), guard="s7"),
            unit("r1", 0, "infantry", (10, 10)),
        ],
        active=1,
    )
    action = make(level).choose(s, 1, seed=1)
    after, _ = RS.apply(s, 1, action)
    out = RS.outcome(after)
    assert out is not None and out["winners"] == [1], action


def test_a_sheriff_without_foot_cannot_win_and_stands() -> None:
    units = [
        unit("s7", 1, "cavalry", (5, 5)),
        unit("s8", 1, "cavalry", (5, 6)),
        unit("sL", 1, "cavalry", (20, 0), leader=True, name="Sheriff"),
        unit(MARIAN_ID, 0, "civilian", (5, 5), guard="s7"),
        *[unit(f"r{k}", 0, "infantry", (12 + k, 3)) for k in range(3)],
    ]
    w = Work(_burg(units, active=1))
    assert sheriff_cannot_win(w)
    assert posture(w, 1, LEVEL_PARAMS["strong"], "strong").name == "lost"
    foot = Work(_burg([*units, unit("s1", 1, "infantry", (6, 6))], active=1))
    assert not sheriff_cannot_win(foot)


def test_strong_against_random_play_ends_by_the_rules() -> None:
    # Six of Robin's foot and his leader against the Sheriff's five: strong wins it.
    s = position(
        [
            *[unit(f"r{k}", 0, "infantry", (1, k)) for k in range(6)],
            unit("rL", 0, "archer", (0, 3), leader=True, name="Robin Hood"),
            *[unit(f"s{k}", 1, "infantry", (9, k + 1)) for k in range(5)],
        ]
    )
    end, _ = play([make("strong"), RandomBot("idiotenspiel")], replace(s, turn=1), 80)
    out = RS.outcome(end)
    assert out is not None and out["winners"] == [0], (end.turn, out)


def _duel(robin_at: tuple[int, int], sheriff_at: tuple[int, int]) -> State:
    # Robin Hood (an archer) alone against the Sheriff alone, mounted, on the probe map.
    return position(
        [
            unit("rL", 0, "archer", robin_at, leader=True, name="Robin Hood"),
            unit("sL", 1, "cavalry", sheriff_at, leader=True, name="Sheriff"),
        ],
        active=0,
    )


def test_strong_duels_a_lone_leader_instead_of_a_quiet_draw() -> None:
    # Leader against leader: medium lets the rules' quiet draw end it; strong's
    # Robin closes in to shoot the Sheriff, cornered at (11, 0).
    s = _duel((7, 0), (11, 0))
    w = Work(s)
    assert posture(w, 0, LEVEL_PARAMS["medium"], "medium").name == "dead"
    assert posture(w, 0, LEVEL_PARAMS["strong"], "strong").name != "dead"
    action = make("strong").choose(s, 0, seed=1)
    assert action["type"] == "move", action
    after, _ = RS.apply(s, 0, action)
    robin = next(u for u in after.units if u.id == "rL")
    assert robin.at is not None and 2 <= cheb(robin.at, (11, 0)) <= 3, robin.at


def test_a_shot_at_a_cornered_lone_leader_pays_only_in_a_duel() -> None:
    # From (9, 1) a beaten Sheriff in the corner has no field farther away.
    s = _duel((9, 1), (11, 0))
    w = Work(s)
    robin, sheriff = w.unit("rL"), w.unit("sL")
    duel = Board(w, 0, LEVEL_PARAMS["strong"])
    assert duel.duel and duel.cornered(sheriff, (9, 1), False)
    assert duel.shot_ev(robin, (9, 1), sheriff) > 0
    assert not duel.cornered(sheriff, (8, 0), False)  # (11, 1) is farther from (8, 0)
    plain = Board(w, 0, LEVEL_PARAMS["medium"])  # his own risk counted double
    assert not plain.duel and plain.shot_ev(robin, (9, 1), sheriff) < 0


def test_a_larger_army_hunts_a_lone_leader_without_risking_its_own() -> None:
    army = [unit(f"r{k}", 0, "infantry", (1, k)) for k in range(3)]
    s = position([*army, unit("sL", 1, "cavalry", (11, 0), leader=True, name="Sheriff")])
    assert not Board(Work(s), 0, LEVEL_PARAMS["strong"]).duel
    two = position([*army[:2], unit("sL", 1, "cavalry", (11, 0), leader=True, name="Sheriff")])
    assert Board(Work(two), 0, LEVEL_PARAMS["strong"]).duel
