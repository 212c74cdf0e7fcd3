"""The CPU an analysis costs (issue 51): a 100-move Halma game at the strong level.

  .venv/bin/python bench/analysis.py                # 3 games of 100 moves
  .venv/bin/python bench/analysis.py --games 1 --moves 200 --game daschax

Plays each game first (the medium bot against itself, seeded; not timed),
then analyses every ply as the worker does (``games.bots.analysis.analyse_ply``
on the encoded state before it, one core) and prints the CPU seconds
(``time.process_time``) per game, the slowest ply and the judgements. A
"move" is a ply: one seat's action. The budget: 60 s a game. It measures;
it never fails a test run.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import get_bot
from games.bots.analysis import analyse_ply
from games.rules import get_ruleset


def played(slug: str, moves: int, seed: int) -> list[tuple[dict, int, dict]]:
    """(encoded state before, seat, action) for up to ``moves`` plies."""
    rs, bot = get_ruleset(slug), get_bot(slug, "medium")
    state = rs.setup(rs.default_options(), 2, seed)
    out = []
    while len(out) < moves and rs.outcome(state) is None:
        seat = rs.to_act(state)[0]
        action = bot.choose(state, seat, seed=seed + len(out))
        out.append((rs.encode(state), seat, action))
        state, _ = rs.apply(state, seat, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="halma")
    parser.add_argument("--level", default="strong")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    for n in range(args.games):
        plies = played(args.game, args.moves, seed=100 + n)
        judged: Counter[str] = Counter()
        slowest, started = 0.0, time.process_time()
        for encoded, seat, action in plies:
            before = time.process_time()
            thought = analyse_ply(args.game, args.level, encoded, seat, action, 0)
            slowest = max(slowest, time.process_time() - before)
            judged[thought["judgement"] or "good"] += 1
        spent = time.process_time() - started
        print(
            f"{args.game} game {n + 1}: {len(plies)} plies, {spent:.1f} s CPU "
            f"({spent / max(len(plies), 1) * 1000:.0f} ms a ply, slowest {slowest * 1000:.0f} ms), "
            f"{dict(judged)}"
        )


if __name__ == "__main__":
    main()
