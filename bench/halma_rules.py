"""Halma move generation speed: the engine against a plain set-based generator.

Run: .venv/bin/python bench/halma_rules.py [--regenerate]

Positions are midgame positions (plies 20-80) from seeded games played by a
mildly greedy random policy through the engine itself, cached in
bench/data/halma_positions.json. Both generators run single core over the same
positions, each call from scratch; the figure is positions per second.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.halma import HalmaRuleset, HalmaState

DATA = Path(__file__).resolve().parent / "data" / "halma_positions.json"
GAMES = 10
PLY_RANGE = range(20, 81)
RULES = HalmaRuleset()
DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def naive_legal_actions(state: HalmaState, seat: int) -> list[dict[str, Any]]:
    """The straightforward generator: a set of occupied fields and a chain queue."""
    own = [divmod(i, 10) for i in state.pieces[seat]]
    occupied = set(own) | {divmod(i, 10) for i in state.pieces[1 - seat]}
    actions: list[dict[str, Any]] = []
    for r, c in own:
        for dr, dc in DIRS:
            to = (r + dr, c + dc)
            if 0 <= to[0] < 10 and 0 <= to[1] < 10 and to not in occupied:
                actions.append({"type": "move", "path": [[r, c], list(to)]})
        occupied.discard((r, c))
        reached = {(r, c)}
        chains = [[(r, c)]]
        for chain in chains:  # grows while we walk it: breadth first, shortest chains
            fr, fc = chain[-1]
            for dr, dc in DIRS:
                to = (fr + 2 * dr, fc + 2 * dc)
                if (
                    0 <= to[0] < 10
                    and 0 <= to[1] < 10
                    and (fr + dr, fc + dc) in occupied
                    and to not in occupied
                    and to not in reached
                ):
                    reached.add(to)
                    chains.append([*chain, to])
                    actions.append({"type": "move", "path": [list(f) for f in chains[-1]]})
        occupied.add((r, c))
    return actions


def _progress(seat: int, field: list[int]) -> int:
    r, c = field
    return -(r + c) if seat == 0 else r + c


def generate_positions() -> list[dict[str, Any]]:
    """Seeded games; keep every position of plies 20-80 while the game runs."""
    positions: list[dict[str, Any]] = []
    seen: set[str] = set()
    for game in range(GAMES):
        rng = random.Random(1000 + game)
        state = RULES.setup({}, 2, game)
        while state.plies <= PLY_RANGE.stop and RULES.outcome(state) is None:
            seat = state.to_move
            if state.plies in PLY_RANGE:
                key = RULES.position_key(state)
                if key not in seen:
                    seen.add(key)
                    positions.append(RULES.encode(state))
            actions = RULES.legal_actions(state, seat)
            if rng.random() < 0.6:  # mostly forward, so chains and crowds appear
                gain = [
                    _progress(seat, a["path"][-1]) - _progress(seat, a["path"][0]) for a in actions
                ]
                best = max(gain)
                actions = [a for a, g in zip(actions, gain, strict=True) if g == best]
            state, _ = RULES.apply(state, seat, rng.choice(actions))
    return positions


def load_positions(regenerate: bool = False) -> list[HalmaState]:
    if regenerate or not DATA.exists():
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps(generate_positions(), separators=(",", ":")))
    return [RULES.decode(d) for d in json.loads(DATA.read_text())]


def rate(fn: Any, states: list[HalmaState], rounds: int = 7) -> float:
    """Best positions/s over several rounds (the machine is shared and noisy)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for s in states:
            fn(s, s.to_move)
        best = min(best, time.perf_counter() - t0)
    return len(states) / best


def main() -> None:
    states = load_positions("--regenerate" in sys.argv)
    moves = 0
    for s in states:
        fast = RULES.legal_actions(s, s.to_move)
        slow = naive_legal_actions(s, s.to_move)
        pairs = {(tuple(a["path"][0]), tuple(a["path"][-1])) for a in fast}
        if pairs != {(tuple(a["path"][0]), tuple(a["path"][-1])) for a in slow}:
            raise SystemExit(f"generators disagree on {RULES.encode(s)}")
        moves += len(fast)
    print(f"{len(states)} distinct midgame positions, {moves / len(states):.1f} moves on average")
    naive = rate(naive_legal_actions, states)
    fast = rate(RULES.legal_actions, states)
    print(f"naive set-based legal_actions: {naive:,.0f} positions/s")
    print(f"engine legal_actions:          {fast:,.0f} positions/s")
    print(f"speed-up: {fast / naive:.2f}x")


if __name__ == "__main__":
    main()
