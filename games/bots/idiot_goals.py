"""Das Idiotenspiel bots: the goals of "Rettet Maid Marian!".

The Sheriff's guard of Maid Marian heads for the castle in the lower third;
Robin's units close in on her guard, an escort takes her towards the island
castle or the great forest, and after a Sheriff turn she walks there herself,
away from his units.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

from games.bots.idiot_board import Board, cheb
from games.rules.idiotenspiel import flow
from games.rules.idiotenspiel.maps import MapData
from games.rules.idiotenspiel.scenarios import (
    MARIAN_ID,
    ROBIN,
    inner_forest,
    island_castle,
    lower_castle,
)
from games.rules.idiotenspiel.state import Pos, Unit
from games.rules.idiotenspiel.work import Work

GOAL_WEIGHT = 0.6
GUARD_CONTACT = 15.0  # the guard keeps off the enemy (next to one it must fight)
ESCORT = 1.5  # foot joining Maid Marian's field


@lru_cache(maxsize=4)
def robin_goals(md: MapData) -> frozenset[int]:
    return island_castle(md) | inner_forest(md)


def cheb_to(md: MapData, p: Pos, fields: frozenset[int]) -> int:
    return min((cheb(p, (i % md.width, i // md.width)) for i in fields), default=99)


@lru_cache(maxsize=16)
def goal_distance(md: MapData, kind: str, robin: bool) -> tuple[int, ...]:
    """Steps for a unit of ``kind`` to the nearest field next to or in a goal."""
    goals = (island_castle(md) | inner_forest(md)) if robin else lower_castle(md)
    far = md.width * md.height
    out = [far] * far
    ranges = md.ranges[kind]
    todo: deque[int] = deque()
    for g in goals:
        for i in (g, *md.neigh[g]):
            if ranges[i] and out[i] == far:
                out[i] = 0 if i in goals else 1
                todo.append(i)
    while todo:
        i = todo.popleft()
        for n in md.neigh[i]:
            if ranges[n] and out[n] > out[i] + 1:
                out[n] = out[i] + 1
                todo.append(n)
    return tuple(out)


def _marian(w: Work) -> Unit | None:
    if w.state.scenario != "marian" or MARIAN_ID not in w.idx:
        return None
    m = w.unit(MARIAN_ID)
    return m if m.on_board else None


def goal_score(board: Board, u: Unit, at: Pos) -> float:
    """The scenario's pull on a unit standing on ``at`` (0 in the Grundspiel)."""
    w = board.w
    m = _marian(w)
    if m is None or m.at is None or u.leader:
        return 0.0
    robin = board.seat == m.side
    if not robin and sheriff_cannot_win(w):  # no march to a castle he cannot enter
        return 0.0
    if not robin:
        if m.guard is None:  # free: run her down (ending a move on her alone takes her)
            alone = not any(v.side == m.side and v.combatant and v.at == m.at for v in w.units)
            return (10.0 if at == m.at and alone else 0.0) - 0.6 * cheb(at, m.at)
        if m.guard == u.id:  # the guard carries the game: towards the castle, out of reach
            dist = goal_distance(w.md, u.kind, False)[w.fi(at)]
            pressed = board.dist("infantry")[w.fi(u.at)] <= 4 if u.at else False
            pull = 0.2 if pressed else GOAL_WEIGHT * 2  # march when the way is clear
            risky = cheb_to(w.md, at, robin_goals(w.md)) <= 1  # freed there, Robin wins
            contact = board.p.plans and bool(board.foe_near(at))  # a guard that fights may lose her
            return (
                -pull * dist
                + 12.0 * board.threat_ev(u, at)
                - board.progress(u, at)  # the guard does not seek the enemy
                - (20.0 if risky else 0.0)
                - (GUARD_CONTACT if contact and board.mode != "lost" else 0.0)
            )
        guard = w.unit(m.guard) if m.guard else None
        if u.kind == "infantry" and guard is not None and guard.kind != "infantry":
            return -GOAL_WEIGHT * 2 * goal_distance(w.md, u.kind, False)[w.fi(at)]
        escort = 0.0
        if board.p.plans and u.kind == "infantry" and at == m.at and u.at != m.at:
            # a stack keeps her: her guard's loss alone does not free her
            foot = sum(1 for v in w.here(w.fi(at)) if v.side == u.side and v.kind == "infantry")
            escort = ESCORT if foot < 3 else 0.0
        return escort - 0.4 * cheb(at, m.at)  # escort her
    if m.guard is None and u.at == m.at:  # the escort takes her along (with)
        return -GOAL_WEIGHT * 2 * goal_distance(w.md, "infantry", True)[w.fi(at)]
    return -(0.6 if board.mode != "even" else 0.25) * cheb(at, m.at)


def marian_target(w: Work) -> Pos:
    """Where Robin walks a free Maid Marian: nearer a goal, never next to the Sheriff."""
    fields = flow.marian_fields(w)
    dist = goal_distance(w.md, "infantry", True)
    foes = [u.at for u in w.units if u.side != 0 and u.combatant and u.at is not None]

    def key(p: Pos) -> tuple[int, int, int, int]:
        near = sum(1 for f in foes if cheb(f, p) <= 1)
        goal = 0 if w.fi(p) in island_castle(w.md) | inner_forest(w.md) else 1
        return (goal, near, dist[w.fi(p)], p[1] * w.md.width + p[0])

    return min(fields, key=key)


def followers(board: Board, u: Unit, to: Pos) -> list[str]:
    """Who goes along with ``u``'s move: Robin takes a free Maid Marian only
    towards a goal; the Sheriff hands her from a rider to his foot (only foot
    may carry her into the castle). Own prisoners follow by themselves."""
    w = board.w
    m = _marian(w)
    if m is None or m.at is None or u.at != m.at or m.guard == u.id:
        return []
    if m.id not in {v.id for v in flow.takeable(w, u)}:
        return []
    if m.side == u.side:
        dist = goal_distance(w.md, "infantry", True)
        return [m.id] if dist[w.fi(to)] < dist[w.fi(m.at)] else []
    guard = w.unit(m.guard) if m.guard else None
    if u.kind == "infantry" and guard is not None and guard.kind != "infantry":
        return [m.id]
    return []


def winning_move(w: Work, seat: int) -> dict[str, Any] | None:
    """A move that wins at once: a unit that may take Maid Marian along into its
    side's goal (Robin's escort with her free, the Sheriff's foot with his prisoner)."""
    m = _marian(w)
    if m is None or m.at is None or (m.guard is None) != (seat == ROBIN):
        return None
    goals = robin_goals(w.md) if seat == ROBIN else lower_castle(w.md)
    for u in flow.movable(w, seat):
        if u.at != m.at or (m.guard != u.id and m.id not in {v.id for v in flow.takeable(w, u)}):
            continue
        for to in w.targets(u):
            if w.fi(to) in goals:
                act: dict[str, Any] = {"type": "move", "unit": u.id, "to": [to[0], to[1]]}
                if m.guard != u.id:
                    act["with"] = [m.id]
                return act
    return None


def sheriff_cannot_win(w: Work) -> bool:
    """Rettet Maid Marian! with no Sheriff foot left: only foot may take her into
    the castle (a fortress), so the Sheriff can no longer win."""
    if _marian(w) is None:
        return False
    return not any(u.side != ROBIN and u.combatant and u.kind == "infantry" for u in w.units)
