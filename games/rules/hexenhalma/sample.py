"""Random valid orders, for tests, benchmarks and demo tables.

Not game randomness (that is drawn from the state's seed): the caller passes
its own ``random.Random``. The witches wander towards the goal, greedily most
of the time, casting spells at random within the round's counts.
"""

from __future__ import annotations

import random
from collections import deque
from functools import lru_cache
from typing import Any

from .board import (
    DIRS,
    PLAIN,
    START_B,
    CompiledBoard,
    compile_board,
    validate_board,
    validate_params,
)
from .orders import validate_orders_compiled


@lru_cache(maxsize=16)
def _goal_distance(cb: CompiledBoard) -> tuple[int, ...]:
    """Walks from each field into the nearest goal of side A (plain fields only)."""
    size = cb.rows * cb.cols
    dist = [10**6] * size
    queue: deque[int] = deque()
    for g in cb.starts[1]:
        dist[g] = 0
        queue.append(g)
    while queue:
        i = queue.popleft()
        for d in range(4):
            j = cb.nb[d][i]
            if j >= 0 and cb.kind[j] == PLAIN and dist[j] > dist[i] + 1:
                dist[j] = dist[i] + 1
                queue.append(j)
    return tuple(dist)


def random_orders(
    board: dict[str, Any],
    params: dict[str, Any],
    rng: random.Random,
    spell_rate: float = 0.3,
    greed: float = 0.8,
) -> list[dict[str, Any]]:
    """One team's valid orders (written as side A) for the round."""
    norm_board = validate_board(board)
    norm = validate_params(params, norm_board)
    cb = compile_board(norm_board)
    for _ in range(50):
        orders = _attempt(cb, norm, rng, spell_rate, greed)
        try:
            return validate_orders_compiled(cb, norm, orders)
        except ValueError:
            continue
    raise RuntimeError("could not draw valid orders for this board")


def _attempt(
    cb: CompiledBoard, params: dict[str, Any], rng: random.Random, spell_rate: float, greed: float
) -> list[dict[str, Any]]:
    dist = _goal_distance(cb)
    plain = [i for i, k in enumerate(cb.kind) if k == PLAIN]
    free_goals = set(cb.starts[1])
    orders = []
    for start in rng.sample(cb.starts[0], params["witches"]):
        pos, walks, steps = start, 99, []
        left = dict(params["spells"])
        length = rng.randint(params["min_steps"], params["max_steps"])
        for k in range(1, length + 1):
            goals = [
                (d, j)
                for d in range(4)
                if (j := cb.nb[d][pos]) >= 0 and cb.kind[j] == START_B and j in free_goals
            ]
            if goals and walks >= 2 and k >= params["min_steps"]:
                d, j = rng.choice(goals)
                steps.append({"walk": DIRS[d]})
                free_goals.discard(j)
                break
            moves = [(d, j) for d in range(4) if (j := cb.nb[d][pos]) >= 0 and cb.kind[j] == PLAIN]
            step: dict[str, Any]
            if left["Z"] and (not moves or rng.random() < 0.05) and len(plain) > 1:
                left["Z"] -= 1
                pos = rng.choice([i for i in plain if i != pos])
                step, walks = {"fly": list(cb.coords[pos])}, 0
            elif moves:
                if rng.random() < greed:
                    best = min(dist[j] for _, j in moves)
                    moves = [m for m in moves if dist[m[1]] == best]
                d, pos = rng.choice(moves)
                step, walks = {"walk": DIRS[d]}, walks + 1
            else:
                break
            if rng.random() < spell_rate:
                spells = [s for s in "KMBI" if left[s]]
                if spells:
                    spell = rng.choice(spells)
                    left[spell] -= 1
                    step["spell"] = spell
                    if spell == "B":
                        step["ban_to"] = list(cb.coords[rng.choice(plain)])
            steps.append(step)
        orders.append({"start": list(cb.coords[start]), "steps": steps})
    return orders
