"""Malefiz engine speed: full random 2-player games through the public contract.

Run: .venv/bin/python bench/malefiz_rules.py [games]

Each game is played to the end from ``setup``: per action ``to_act``,
``legal_actions`` and ``apply`` with a uniformly random legal action (roll,
move, barricade placement). A turn is one roll with what follows it (a move,
perhaps a barricade placement, or the automatic pass). Single core; the
figure is turns per second, the best of three rounds.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.malefiz import MalefizRuleset

RULES = MalefizRuleset()


def play(seed: int, rng: random.Random) -> tuple[int, int]:
    """One full game; returns (turns, actions)."""
    state = RULES.setup({}, 2, seed)
    turns = actions = 0
    while True:
        to_act = RULES.to_act(state)
        if not to_act:
            return turns, actions
        seat = to_act[0]
        action = rng.choice(RULES.legal_actions(state, seat))
        if action["type"] == "roll":
            turns += 1
        state, _events = RULES.apply(state, seat, action)
        actions += 1


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    best = 0.0
    for round_no in range(3):
        rng = random.Random(round_no)
        turns = actions = 0
        start = time.perf_counter()
        for g in range(games):
            t, a = play(1000 * round_no + g, rng)
            turns += t
            actions += a
        elapsed = time.perf_counter() - start
        rate = turns / elapsed
        best = max(best, rate)
        print(
            f"round {round_no + 1}: {games} games, {turns} turns, {actions} actions "
            f"in {elapsed:.2f} s: {rate:,.0f} turns/s"
        )
    print(f"malefiz full random 2-player games: {best:,.0f} turns/s (best of 3)")


if __name__ == "__main__":
    main()
