"""Won Daschax endgames (issue 30): does strong, hunting, finish them against medium?

  .venv/bin/python bench/daschax_endgames.py                 # both sets, 200-ply cap
  .venv/bin/python bench/daschax_endgames.py --set mss --seeds 11-24

Seeded random positions: five White pieces (set "lmsss": large, medium and three
small; set "mssss": medium and four small) against one Black large piece, White
(strong) to move, Black played by medium. Prints per position the plies to the
win or CAPPED, then the capped count, the mean plies of the won and strong's
thinking per decision (median, max). It measures; the exit code is 0 either way.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import get_bot
from games.rules.daschax import CELLS, START_COUNTS, DaschaxRuleset, DaschaxState

RS = DaschaxRuleset()
SETS = {"lmsss": ((3, 2, 1, 1, 1), range(51, 63)), "mssss": ((2, 1, 1, 1, 1), range(11, 25))}


def position(points: tuple[int, ...], seed: int) -> DaschaxState:
    """White's pieces of ``points`` and one Black large piece on random fields."""
    rng = random.Random(seed)
    cells = rng.sample(range(CELLS), len(points) + 1)
    board: list[tuple[int, int, int] | None] = [None] * CELLS
    for cell, p in zip(cells, points, strict=False):
        board[cell] = (0, p, rng.randrange(6))
    board[cells[-1]] = (1, 3, rng.randrange(6))
    present = [[points.count(p) for p in (1, 2, 3)], [0, 0, 1]]
    lost = [tuple(START_COUNTS[i] - present[s][i] for i in range(3)) for s in (0, 1)]
    base = RS.setup({"formation": "SSSSSMMMLL", "move_first": "white"}, 2, 7)
    return dataclasses.replace(base, board=tuple(board), to_move=0, captured=(lost[1], lost[0]))


def hunt(state: DaschaxState, cap: int, seed: int, spent: list[float]) -> int | None:
    """Plies until White wins, or None at the cap; strong's seconds go to ``spent``.
    A fresh bot makes every decision, as on the site."""
    levels = ("strong", "medium")
    for ply in range(cap):
        if RS.outcome(state) is not None:
            return ply
        seat = state.to_move
        start = time.perf_counter()
        action = get_bot("daschax", levels[seat]).choose(state, seat, seed=seed + ply)
        if seat == 0:
            spent.append(time.perf_counter() - start)
        state, _ = RS.apply(state, seat, action)
    return cap if RS.outcome(state) is not None else None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--set", choices=SETS, action="append", help="repeatable; default both")
    p.add_argument("--seeds", help="first-last, instead of the set's own")
    p.add_argument("--cap", type=int, default=200)
    args = p.parse_args()
    for name in args.set or list(SETS):
        points, seeds = SETS[name]
        if args.seeds:
            first, last = map(int, args.seeds.split("-"))
            seeds = range(first, last + 1)
        spent: list[float] = []
        plies = []
        for seed in seeds:
            n = hunt(position(points, seed), args.cap, seed, spent)
            plies.append(n)
            print(f"{name} seed {seed}: {'CAPPED' if n is None else f'{n} plies'}", flush=True)
        won = [n for n in plies if n is not None]
        print(
            f"{name}: capped {len(plies) - len(won)}/{len(plies)},"
            f" mean {statistics.mean(won) if won else 0:.0f} plies to the win;"
            f" strong median {statistics.median(spent) * 1000:.0f} ms,"
            f" max {max(spent) * 1000:.0f} ms a decision"
        )


if __name__ == "__main__":
    main()
