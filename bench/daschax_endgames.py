"""Won Daschax endgames (issue 30): does strong, hunting, finish them against medium?

  .venv/bin/python bench/daschax_endgames.py                 # both sets, 200-ply cap
  .venv/bin/python bench/daschax_endgames.py --set mssss --seeds 11-24
  .venv/bin/python bench/daschax_endgames.py --set ls --set mss --hunter medium
  .venv/bin/python bench/daschax_endgames.py --set ms --prey strong --deeper 5,20000

Seeded random positions: White's pieces against Black's (set "lmsss": large,
medium and three small against a large piece; "mssss": medium and four small
against a large; "ls": large and small against a large; "mss": medium and two
small against a medium and a small; "ms": medium and small against a medium:
the endings medium left unfinished against strong in bench/bots.py), White to
move, the house rule on (150 capture-free turns draw, RULES.md section 2).
White hunts with --hunter (strong; medium), Black flees with --prey (by
default the other level). --deeper DEPTH,NODES gives the hunter that depth and
node budget (is an ending won at all, with a far deeper look?). Prints per
position how it ended (won, drawn by the house rule, lost) and after how many
plies, or CAPPED, then the counts, the mean plies
of the won and the hunter's thinking per decision (median, max). It measures; the exit code is 0
either way.
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

from games.bots import daschax as bots
from games.rules.daschax import CELLS, START_COUNTS, DaschaxRuleset, DaschaxState

RS = DaschaxRuleset()
Pieces = tuple[int, ...]  # movement points: 1 small, 2 medium, 3 large
SETS: dict[str, tuple[Pieces, Pieces, range]] = {
    "lmsss": ((3, 2, 1, 1, 1), (3,), range(51, 63)),
    "mssss": ((2, 1, 1, 1, 1), (3,), range(11, 25)),
    "ls": ((3, 1), (3,), range(71, 83)),
    "mss": ((2, 1, 1), (2, 1), range(91, 103)),
    "ms": ((2, 1), (2,), range(111, 123)),
}


def position(points: Pieces, seed: int, prey: Pieces = (3,)) -> DaschaxState:
    """White's pieces of ``points`` and Black's of ``prey`` on random fields."""
    rng = random.Random(seed)
    cells = rng.sample(range(CELLS), len(points) + len(prey))
    board: list[tuple[int, int, int] | None] = [None] * CELLS
    for cell, p in zip(cells, points, strict=False):
        board[cell] = (0, p, rng.randrange(6))
    for cell, p in zip(cells[len(points) :], prey, strict=True):
        board[cell] = (1, p, rng.randrange(6))
    present = [[points.count(p) for p in (1, 2, 3)], [prey.count(p) for p in (1, 2, 3)]]
    lost = [tuple(START_COUNTS[i] - present[s][i] for i in range(3)) for s in (0, 1)]
    base = RS.setup({"formation": "SSSSSMMMLL", "move_first": "white"}, 2, 7)
    return dataclasses.replace(base, board=tuple(board), to_move=0, captured=(lost[1], lost[0]))


def hunt(
    state: DaschaxState,
    cap: int,
    seed: int,
    spent: list[float],
    levels: tuple[bots.Level, bots.Level],
) -> tuple[str, int] | None:
    """How the ending ended ("won" by White, "drawn" by the house rule, "lost")
    and after how many plies, or None at the cap; the hunter's seconds go to
    ``spent``. A fresh bot makes every decision, as on the site."""
    for ply in range(cap):
        out = RS.outcome(state)
        if out is not None:
            return ("drawn" if out["draw"] else "won" if 0 in out["winners"] else "lost"), ply
        seat = state.to_move
        start = time.perf_counter()
        bot = bots.DaschaxBot("strong")
        bot.level = levels[seat]
        action = bot.choose(state, seat, seed=seed + ply)
        if seat == 0:
            spent.append(time.perf_counter() - start)
        state, _ = RS.apply(state, seat, action)
    out = RS.outcome(state)
    if out is None:
        return None
    return ("drawn" if out["draw"] else "won" if 0 in out["winners"] else "lost"), cap


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--set", choices=SETS, action="append", help="repeatable; default both")
    p.add_argument("--seeds", help="first-last, instead of the set's own")
    p.add_argument("--cap", type=int, default=200)
    p.add_argument("--hunter", choices=("strong", "medium"), default="strong")
    p.add_argument("--prey", choices=("strong", "medium"), help="default: the other level")
    p.add_argument(
        "--deeper", help="DEPTH,NODES: the hunter's search budget instead of its level's"
    )
    args = p.parse_args()
    hunter = bots.LEVELS[args.hunter]
    if args.deeper:
        depth, nodes = map(int, args.deeper.split(","))
        hunter = dataclasses.replace(hunter, depth=depth, nodes=nodes, cap=3 * nodes)
    prey_level = args.prey or ("medium" if args.hunter == "strong" else "strong")
    levels = (hunter, bots.LEVELS[prey_level])
    who = f"{args.hunter}{' (deeper)' if args.deeper else ''} against {prey_level}"
    for name in args.set or ["lmsss", "mssss"]:
        points, prey, seeds = SETS[name]
        if args.seeds:
            first, last = map(int, args.seeds.split("-"))
            seeds = range(first, last + 1)
        spent: list[float] = []
        ends = []
        for seed in seeds:
            end = hunt(position(points, seed, prey), args.cap, seed, spent, levels)
            ends.append(end)
            said = "CAPPED" if end is None else f"{end[0]} in {end[1]} plies"
            print(f"{name} seed {seed}: {said}", flush=True)
        won = [e[1] for e in ends if e is not None and e[0] == "won"]
        drawn = sum(1 for e in ends if e is not None and e[0] == "drawn")
        lost = sum(1 for e in ends if e is not None and e[0] == "lost")
        print(
            f"{name}: won {len(won)}, drawn {drawn} (house rule), lost {lost},"
            f" capped {ends.count(None)} of {len(ends)};"
            f" mean {statistics.mean(won) if won else 0:.0f} plies to the win;"
            f" {who}: median {statistics.median(spent) * 1000:.0f} ms,"
            f" max {max(spent) * 1000:.0f} ms a decision"
        )


if __name__ == "__main__":
    main()
