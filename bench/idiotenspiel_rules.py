"""Idiotenspiel rules speed: one full combat phase with 40 engaged units.

Two lines of 20 units each (2 infantry or archers per field, every field
facing an enemy field) on Die Hügelkette; the mover ends its movement and a
scripted player resolves the whole combat phase through ``apply``: the first
legal attack each time, every shot rolled, the first retreat field, no
advance, until the phase is over. Prints the best of several runs.

Run: .venv/bin/python bench/idiotenspiel_rules.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.idiotenspiel import MAPS, IdiotenspielRuleset
from games.rules.idiotenspiel.state import State, Unit

RS = IdiotenspielRuleset()
MAP = "die_huegelkette"


def battle(seed: int) -> State:
    """20 Robin units in column x=20, 20 Sheriff units in column x=21 (rows 0-9);
    the leaders stand back, out of reach, so the phase runs to its end."""
    md = MAPS[MAP]
    units = [
        Unit(id="rL", side=0, type="archer", leader=True, name="Robin Hood", at=(16, 0)),
        Unit(id="sL", side=1, type="infantry", leader=True, name="Sheriff", at=(25, 0)),
    ]
    for k in range(20):
        y = k // 2
        units.append(Unit(id=f"r{k}", side=0, type="archer" if k % 3 else "infantry", at=(20, y)))
        units.append(Unit(id=f"s{k}", side=1, type="infantry", at=(21, y)))
    for u in units:
        assert u.at is not None and md.ranges["infantry"][md.index(*u.at)]
    return State(
        map_key=MAP,
        scenario="grundspiel",
        seed=seed,
        rng=0,
        sandglass=30,
        units=tuple(units),
        phase="move",
        active=0,
        start_player=0,
        turn=1,
        home=("W", "E"),
        zones=("edge", "edge"),
    )


def choose(state: State, seat: int) -> dict:
    legal = RS.legal_actions(state, seat)
    if state.pending is not None:
        if state.pending.kind == "advance":
            return {"type": "advance", "yes": False}
        return legal[0]  # roll / first retreat field
    return legal[0]  # the first attack; end_combat once no fight is left


def one_phase(seed: int) -> tuple[float, float, int]:
    """Seconds inside apply, seconds including the scripted choices, fights."""
    s, _ = RS.apply(battle(seed), 0, {"type": "end_movement"})
    in_apply = 0.0
    fights = 0
    start = time.perf_counter()
    while s.phase == "combat" and RS.outcome(s) is None:
        seat = RS.to_act(s)[0]
        action = choose(s, seat)
        t = time.perf_counter()
        s, events = RS.apply(s, seat, action)
        in_apply += time.perf_counter() - t
        fights += sum(1 for e in events if e["type"] == "fight")
    return in_apply, time.perf_counter() - start, fights


def main() -> None:
    runs = sorted(one_phase(seed) for seed in range(1, 31) for _ in range(3))
    totals = sorted(r[1] for r in runs)
    applies = sorted(r[0] for r in runs)
    fights = sorted(r[2] for r in runs)
    print(
        "idiotenspiel: full combat phase with 40 engaged units "
        f"({fights[0]}-{fights[-1]} fights): best {totals[0] * 1000:.1f} ms, "
        f"median {totals[len(totals) // 2] * 1000:.1f} ms, worst {totals[-1] * 1000:.1f} ms "
        f"(inside apply: median {applies[len(applies) // 2] * 1000:.1f} ms; 30 seeds x 3)"
    )


if __name__ == "__main__":
    main()
