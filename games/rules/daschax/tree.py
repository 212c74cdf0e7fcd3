"""Daschax move generation: one turn action per distinct end result.

What a turn can do depends only on the piece's field, facing and points, and
on which of the fields it would enter are occupied. So for each (field,
facing, points, backward) we build once, lazily, a trie of the step
sequences worth trying, in preorder, each node knowing where its subtree
ends. legal_actions walks it against the board and skips a blocked subtree
in one jump: no geometry and no step simulation in the hot loop.
"""

from __future__ import annotations

from typing import TypeVar

from ..base import Action
from .geometry import NEIGHBOUR, Board, after_step, xy

# A node: (depth, target cell or -1 for a turn, end key = cell * 6 + facing,
#          index after the subtree, emits an action?, ends as it began?, steps)
Node = tuple[int, int, int, int, bool, bool, tuple[str, ...]]

# A tree: its nodes and whether two emitting nodes share an end key (then the
# walker must deduplicate results at run time).
Tree = tuple[tuple[Node, ...], bool]

K = TypeVar("K")  # what tells two turn results apart

_STEP_ORDER = {"F": 0, "L": 1, "R": 2, "B": 3}

_TREES: dict[tuple[int, int, int, bool], Tree] = {}


def _sequences(
    cell: int, facing: int, points: int, backward: bool
) -> list[tuple[tuple[str, ...], tuple[int, ...], int, int]]:
    """Every step sequence of 1..points steps that stays on the board.

    A turn right after its inverse is skipped: "LR" changes nothing, so any
    sequence holding it gives the same result as the one without.
    Returns (steps, fields entered, end cell, end facing).
    """
    out: list[tuple[tuple[str, ...], tuple[int, ...], int, int]] = []
    moves = ("F", "L", "R", "B") if backward else ("F", "L", "R")

    def grow(steps: tuple[str, ...], entered: tuple[int, ...], at: int, face: int) -> None:
        if len(steps) == points:
            return
        for step in moves:
            if steps and {steps[-1], step} == {"L", "R"}:
                continue
            if step == "L":
                nxt_at, nxt_face, nxt_entered = at, (face - 1) % 6, entered
            elif step == "R":
                nxt_at, nxt_face, nxt_entered = at, (face + 1) % 6, entered
            else:
                nxt_at = NEIGHBOUR[at][face if step == "F" else (face + 3) % 6]
                if nxt_at < 0:
                    continue
                nxt_face, nxt_entered = face, (*entered, nxt_at)
            seq = (*steps, step)
            out.append((seq, nxt_entered, nxt_at, nxt_face))
            grow(seq, nxt_entered, nxt_at, nxt_face)

    grow((), (), cell, facing)
    return out


def _tree(cell: int, facing: int, points: int, backward: bool) -> Tree:
    """The (cached) movement trie for one piece situation."""
    key = (cell, facing, points, backward)
    tree = _TREES.get(key)
    if tree is None:
        tree = _TREES[key] = _build_tree(cell, facing, points, backward)
    return tree


def _build_tree(cell: int, facing: int, points: int, backward: bool) -> Tree:
    # Sequences entering the same fields in the same order and ending with the
    # same facing behave alike on every board (captures and blocks happen on
    # the fields entered), so only the shortest of each such group is kept.
    best: dict[tuple[int, int, tuple[int, ...]], tuple[str, ...]] = {}
    for steps, entered, end, face in _sequences(cell, facing, points, backward):
        sig = (end, face, entered)
        old = best.get(sig)
        if old is None or _rank(steps) < _rank(old):
            best[sig] = steps
    kept = {steps: (end * 6 + face) for (end, face, _), steps in best.items()}
    # The trie holds every prefix of a kept sequence; prefixes that are not
    # kept themselves still test their fields but emit nothing.
    prefixes: set[tuple[str, ...]] = set()
    for steps in kept:
        for i in range(1, len(steps) + 1):
            prefixes.add(steps[:i])
    order = sorted(prefixes, key=lambda s: [_STEP_ORDER[x] for x in s])  # preorder
    depths = [len(steps) for steps in order]
    nodes: list[Node] = []
    for i, steps in enumerate(order):
        at, face = _follow(cell, facing, steps)
        target = at if steps[-1] in ("F", "B") else -1
        # Preorder: a subtree ends at the first later node that is not deeper.
        end = i + 1
        while end < len(order) and depths[end] > depths[i]:
            end += 1
        noop = at == cell and face == facing
        nodes.append((depths[i], target, at * 6 + face, end, steps in kept, noop, steps))
    keys = [n[2] for n in nodes if n[4]]
    return tuple(nodes), len(keys) != len(set(keys))


def _rank(steps: tuple[str, ...]) -> tuple[int, list[int]]:
    return len(steps), [_STEP_ORDER[s] for s in steps]


def _follow(cell: int, facing: int, steps: tuple[str, ...]) -> tuple[int, int]:
    """Where a step sequence ends on an empty board (steps known to stay on it)."""
    for step in steps:
        cell, facing = after_step(cell, facing, step)
    return cell, facing


def turn_actions(board: Board, seat: int, move_on: bool, backward: bool) -> list[Action]:
    """One turn action per distinct end result, for every piece of ``seat``."""
    out: list[Action] = []
    append = out.append
    stops = [False, False, False, False]
    caps: list[tuple[int, ...]] = [(), (), (), ()]
    for start, piece in enumerate(board):
        if piece is None or piece[0] != seat:
            continue
        nodes, dupes = _tree(start, piece[2], piece[1], backward)
        at = xy(start)
        if move_on:
            _walk_move_on(board, seat, start, nodes, at, caps, out)
            continue
        # Where two step lists can end alike (backward steps), the shortest
        # working one is kept: ["L"], not ["F", "B", "L"].
        best: dict[int, tuple[str, ...]] | None = {} if dupes else None
        i, n = 0, len(nodes)
        while i < n:
            depth, target, key, skip, emit, noop, steps = nodes[i]
            stopped = stops[depth - 1]
            if target >= 0:
                if stopped:
                    i = skip
                    continue
                occ = board[target]
                if occ is not None and target != start:
                    if occ[0] == seat:
                        i = skip
                        continue
                    stopped = True
            stops[depth] = stopped
            i += 1
            # Without moving on, a capture can only be the end field, so the
            # end field and facing alone tell two results apart.
            if emit and not noop:
                if best is None:
                    append({"type": "turn", "at": [at[0], at[1]], "steps": list(steps)})
                else:
                    _keep_shortest(best, key, steps)
        if best:
            out.extend(
                {"type": "turn", "at": [at[0], at[1]], "steps": list(s)} for s in best.values()
            )
    return out


def _keep_shortest(best: dict[K, tuple[str, ...]], result: K, steps: tuple[str, ...]) -> None:
    old = best.get(result)
    if old is None or len(steps) < len(old):
        best[result] = steps


def _walk_move_on(
    board: Board,
    seat: int,
    start: int,
    nodes: tuple[Node, ...],
    at: list[int],
    caps: list[tuple[int, ...]],
    out: list[Action],
) -> None:
    """The tree walk of the "move on after a capture" variant: several captures."""
    best: dict[tuple[int, frozenset[int]], tuple[str, ...]] = {}
    i, n = 0, len(nodes)
    while i < n:
        depth, target, key, skip, emit, noop, steps = nodes[i]
        cap = caps[depth - 1]
        if target >= 0:
            occ = board[target]
            if occ is not None and target != start and target not in cap:
                if occ[0] == seat:
                    i = skip
                    continue
                cap = (*cap, target)
        caps[depth] = cap
        i += 1
        if emit and not (noop and not cap):
            _keep_shortest(best, (key, frozenset(cap)), steps)
    out.extend({"type": "turn", "at": [at[0], at[1]], "steps": list(s)} for s in best.values())
