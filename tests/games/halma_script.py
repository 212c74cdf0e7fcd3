"""Scripted Halma games for tests: both sides march out greedily, then shuffle.

Used to reach positions past move 51 with real moves (the 50-move rule and
remis requests need them).
"""

from __future__ import annotations

from games.rules.halma import HalmaRuleset

RS = HalmaRuleset()
GOAL = {0: (0, 0), 1: (9, 9)}


def _progress(seat: int, action: dict) -> float:
    (r0, c0), (r1, c1) = action["path"][0], action["path"][-1]
    gr, gc = GOAL[seat]
    return (abs(r0 - gr) + abs(c0 - gc)) - (abs(r1 - gr) + abs(c1 - gc))


def march(plies: int) -> tuple[list[tuple[int, dict]], object]:
    """Greedy forward moves for ``plies`` plies; returns (seat, action) pairs and the state."""
    state = RS.setup({}, 2, 1)
    log = []
    for _ in range(plies):
        seat = RS.to_act(state)[0]
        actions = sorted(
            RS.legal_actions(state, seat), key=lambda a: (-_progress(seat, a), a["path"])
        )
        for action in actions:
            after, _ = RS.apply(state, seat, action)
            if RS.outcome(after) is None:
                break
        log.append((seat, action))
        state = after
    return log, state


def _outside(field) -> bool:
    r, c = field
    return r + c > 4 and (9 - r) + (9 - c) > 4


def shuffle_step(state, seat: int) -> list[dict]:
    """A step of ``seat`` outside both houses, and the step back."""
    for action in RS.legal_actions(state, seat):
        path = action["path"]
        step = max(abs(path[0][0] - path[1][0]), abs(path[0][1] - path[1][1])) == 1
        if len(path) == 2 and step and _outside(path[0]) and _outside(path[1]):
            return [action, {"type": "move", "path": [path[1], path[0]]}]
    raise AssertionError("no shuffle step")


def repetition_log(march_plies: int = 104, cycles: int = 2) -> list[tuple[int, dict]]:
    """March, then both sides shuffle back and forth ``cycles`` times (4 plies each)."""
    log, state = march(march_plies)
    white = shuffle_step(state, 0)
    after, _ = RS.apply(state, 0, white[0])
    black = shuffle_step(after, 1)
    for _ in range(cycles):
        for seat, action in ((0, white[0]), (1, black[0]), (0, white[1]), (1, black[1])):
            state, _ = RS.apply(state, seat, action)
            log.append((seat, action))
    return log


def pinned_log(first: dict, plies: int, avoid_endings: bool = True) -> list[tuple[int, dict]]:
    """White opens with ``first`` and never moves that piece again; otherwise
    both sides march greedily (skipping moves that end the game if asked)."""
    state = RS.setup({}, 2, 1)
    pinned = first["path"][-1]
    log = []
    for n in range(plies):
        seat = RS.to_act(state)[0]
        actions = sorted(
            RS.legal_actions(state, seat), key=lambda a: (-_progress(seat, a), a["path"])
        )
        if seat == 0:
            actions = (
                [first] if n == 0 else [a for a in actions if a["path"][0] != pinned] or actions
            )
        for action in actions:
            after, _ = RS.apply(state, seat, action)
            if not avoid_endings or RS.outcome(after) is None:
                break
        log.append((seat, action))
        state = after
        if RS.outcome(state) is not None:
            break
    return log
