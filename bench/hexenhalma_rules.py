"""Hexenhalma round resolution speed.

Run: .venv/bin/python bench/hexenhalma_rules.py

A campaign of 20 teams (21 seats with the GM) on the 30x30 arena preset,
10 witches per team, 29 to 60 steps, spells K3 M2 B2 I2 Z2 per witch. Every
team submits seeded random valid orders through ``apply`` and locks; then
``resolve_round`` plays the 190 matches of the round robin. The figure is
the wall time of ``resolve_round`` (best of several runs), in seconds;
the process CPU time is printed too, as other work on the machine skews wall time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.hexenhalma import PRESETS, HexenhalmaRuleset
from games.rules.hexenhalma.sample import random_orders

TEAMS = 20
RUNS = 5
RULES = HexenhalmaRuleset()


def prepared_state(seed: int):  # type: ignore[no-untyped-def]
    preset = PRESETS["arena"]
    state = RULES.setup({}, TEAMS + 1, seed)
    state, _ = RULES.apply(state, 0, {"type": "open_round", "board": "arena", "deadline": None})
    rng = random.Random(seed)
    for seat in range(1, TEAMS + 1):
        orders = random_orders(preset["board"], preset["params"], rng)
        state, _ = RULES.apply(state, seat, {"type": "orders", "orders": orders})
        state, _ = RULES.apply(state, seat, {"type": "lock"})
    assert RULES.round_ready(state)
    return state


def main() -> None:
    times, cpu = [], []
    steps = goals = events = 0
    for run in range(RUNS):
        state = prepared_state(run)
        start, start_cpu = time.perf_counter(), time.process_time()
        _, _, records = RULES.resolve_round(state)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        steps = max(len(r["trace"]) - 1 for r in records)
        goals = sum(sum(r["score"]) for r in records)
        events = sum(len(t["events"]) for r in records for t in r["trace"])
    print(
        f"resolve_round, {TEAMS} teams ({len(records)} matches), 10 witches, "
        f"up to {steps} steps: best {min(times):.3f} s wall, median {sorted(times)[RUNS // 2]:.3f} s "
        f"(best CPU {min(cpu):.3f} s; last run: {goals} witches in goal, {events} trace events)"
    )


if __name__ == "__main__":
    main()
