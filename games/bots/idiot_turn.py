"""Das Idiotenspiel bots: the strong level plans its movement turn as a whole.

The unit-by-unit greedy (``IdiotBot._step``) gives each unit its best field
on its own: every unit counts the best fight next to it, though an enemy
defends only once, so three units may all count the same weak enemy, and a
move that only pays once a second unit follows is never made. The planner
takes the few first moves that gain most, plays the turn out from each with
the greedy (a few moves deep) on a copy of the position, and values the
position each plan ends in as a whole: every unit's field without its fight
(ground, line, aura, the enemy's next turn, the scenario's goals) plus this
turn's combat as the mover would pair it (each unit fights once, each enemy
defends once, the best-paying pairings first, by the exact odds with the
real bonuses). It plays the first move of the best plan; the next decision
plans again from the new position (no memory between decisions).

Budgets are counts: CANDIDATES first moves, DEPTH greedy moves after each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.bots.base import check_clock
from games.bots.idiot_board import Board
from games.bots.idiot_fight import attack_worth
from games.bots.idiot_goals import goal_score
from games.rules.idiotenspiel import IdiotenspielRuleset
from games.rules.idiotenspiel.state import RANGED, Pos, Unit
from games.rules.idiotenspiel.work import Work

Action = dict[str, Any]
Step = Callable[[Work, Board], Action | None]
RS = IdiotenspielRuleset()
CANDIDATES = 3  # first moves tried
DEPTH = 3  # greedy moves played after each
TIE = 1e-6
MARGIN = 0.5  # another first move must beat the greedy's plan by this much


def plan_turn(
    w: Work, seat: int, root: Board, step: Step, mover: Callable[[Board, Unit, Pos], Action]
) -> Action | None:
    """The first move of the best plan, or None when no unit gains by moving."""
    greedy = step(w, root)
    if greedy is None:
        return None
    root.threats()  # computed once, shared: the enemy does not move in this phase
    root.near_map()
    firsts = [greedy] + [a for a in _best_moves(w, root, mover) if a != greedy]
    best, best_v = greedy, _play_out(w, seat, root, greedy, step) + MARGIN
    for first in firsts[1:CANDIDATES]:
        check_clock()
        v = _play_out(w, seat, root, first, step)
        if v > best_v + TIE:
            best, best_v = first, v
    return best


def _best_moves(w: Work, board: Board, mover: Callable[[Board, Unit, Pos], Action]) -> list[Action]:
    """Each movable unit's best field, the units that gain most first."""
    found: list[tuple[float, str, Action]] = []
    for u in board.mine:
        if u.moved or u.at is None:
            continue
        stay = board.score(u, u.at) + goal_score(board, u, u.at)
        best, best_v = None, stay + board.p.min_gain
        for to in w.targets(u):
            v = board.score(u, to) + goal_score(board, u, to)
            if v > best_v:
                best, best_v = to, v
        if best is not None:
            found.append((stay - best_v, u.id, mover(board, u, best)))
    found.sort(key=lambda f: (f[0], f[1]))
    return [a for _, _, a in found]


def _play_out(w: Work, seat: int, root: Board, first: Action, step: Step) -> float:
    """Plays ``first`` and up to DEPTH greedy moves after it; the value of the
    position reached."""
    state = RS.apply(w.state, seat, first)[0]
    for _ in range(DEPTH):
        if state.phase not in ("move", "grace") or state.active != seat:
            break
        ww = Work(state)
        act = step(ww, Board(ww, seat, root.p, root.mode, root))
        if act is None:
            break
        state = RS.apply(state, seat, act)[0]
    end = Work(state)
    return evaluate(Board(end, seat, root.p, root.mode, root))


def evaluate(board: Board) -> float:
    """A position at the end of a movement phase, for the side that moved."""
    total = 0.0
    for u in board.mine:
        assert u.at is not None
        total += board.score(u, u.at, now=False) + goal_score(board, u, u.at)
    return total + pairings(board)


def pairings(board: Board) -> float:
    """This turn's combat as the mover pairs it: the best-paying fights first,
    each unit attacking once and each enemy defending once."""
    w, trapped = board.w, board.p.trapped
    options: list[tuple[float, str, str]] = []
    for a in board.mine:
        assert a.at is not None
        near = [e for e in board.foe_near(a.at) if not e.civilian]
        if not near and a.type in RANGED:
            near = [e for e in board.shot_targets(a, a.at) if not e.civilian]
            melee = False
        else:
            melee = True
        for d in near:
            options.append((attack_worth(w, a, d, melee, trapped), a.id, d.id))
    options.sort(key=lambda o: (-o[0], o[1], o[2]))
    fought: set[str] = set()
    total = 0.0
    for v, a_id, d_id in options:
        if a_id in fought or d_id in fought:
            continue
        fought.update((a_id, d_id))
        total += v + (board.p.engage if not w.unit(a_id).leader else 0.0)
    return total
