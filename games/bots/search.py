"""What the alpha-beta bots (halma.py, daschax.py) share: iterative deepening
at the root under a node budget, and the bounds kept in the transposition table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

M = TypeVar("M")

# A transposition-table entry: (depth, score, flag, best move); the flag says
# what the score is: -1 an upper bound, 0 exact, 1 a lower bound.
Entry = tuple[int, int, int, M | None]


class OutOfNodes(Exception):
    """The iteration under way passed the hard node cap; the last one stands."""


def deepen(
    first: M,
    max_depth: int,
    budget_spent: Callable[[], bool],
    iteration: Callable[[int, M, list[tuple[int, M]]], None],
) -> M:
    """Iterative deepening at the root, from ``first``.

    ``iteration(depth, best, scored)`` searches the root moves ``depth`` plies
    deep, the last iteration's ``best`` first, appending (score, move) to
    ``scored``; it raises ``OutOfNodes`` past the hard cap. No iteration after
    the first starts once ``budget_spent()``. Returns the best-scored move
    (the first of equals) of the last iteration.
    """
    best = first
    for depth in range(1, max_depth + 1):
        if depth > 1 and budget_spent():
            break
        scored: list[tuple[int, M]] = []
        try:
            iteration(depth, best, scored)
        except OutOfNodes:
            # The previous best was searched first: a move that beat it
            # in this deeper iteration is the better-informed choice.
            if scored:
                best = max(scored, key=lambda sm: sm[0])[1]
            break
        best = max(scored, key=lambda sm: sm[0])[1]
    return best


def probe(entry: Entry[M] | None, depth: int, alpha: int, beta: int) -> tuple[int | None, M | None]:
    """What the table knows of a node: its stored score when that settles the
    node at ``depth`` within (``alpha``, ``beta``), else None; and the stored
    best move, to be tried first."""
    if entry is None:
        return None, None
    e_depth, e_score, e_flag, first = entry
    if e_depth >= depth and (
        e_flag == 0 or (e_flag < 0 and e_score <= alpha) or (e_flag > 0 and e_score >= beta)
    ):
        return e_score, first
    return None, first


def bound(best: int, alpha: int, beta: int) -> int:
    """The flag to store with ``best``, searched within (``alpha``, ``beta``)."""
    return -1 if best <= alpha else (1 if best >= beta else 0)
