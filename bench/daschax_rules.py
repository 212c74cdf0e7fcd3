"""Daschax move generation speed: legal_actions per second on midgame positions.

Run: .venv/bin/python bench/daschax_rules.py
The positions come from seeded random play (placement, then 20-40 turns), so
the figure is reproducible up to machine noise.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.daschax import DaschaxRuleset, DaschaxState

RS = DaschaxRuleset()


def midgame(options: dict[str, Any], seed: int) -> DaschaxState:
    rng = random.Random(seed)
    state = RS.setup(options, 2, seed)
    for _ in range(20 + 20 + seed % 21):  # 20 placements, then 20-40 turns
        if RS.outcome(state) is not None:
            break
        seat = state.to_move
        state, _ = RS.apply(state, seat, rng.choice(RS.legal_actions(state, seat)))
    return state


def rate(positions: list[DaschaxState], seconds: float = 2.0) -> tuple[float, float]:
    """Positions per second and average actions per position."""
    legal = RS.legal_actions
    actions = sum(len(legal(s, s.to_move)) for s in positions) / len(positions)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in positions:
            legal(s, s.to_move)
        done += len(positions)
    return done / (time.perf_counter() - start), actions


def main() -> None:
    for label, options in (
        ("default rules", {}),
        (
            "all variants (move on, backward, removal)",
            {"move_on": True, "backward": True, "removal": True},
        ),
    ):
        positions = [
            s for s in (midgame(options, seed) for seed in range(30)) if RS.outcome(s) is None
        ]
        per_second, actions = rate(positions)
        print(
            f"daschax legal_actions, {label}: {per_second:,.0f} positions/s "
            f"({len(positions)} midgame positions, {actions:.0f} actions each on average)"
        )


if __name__ == "__main__":
    main()
