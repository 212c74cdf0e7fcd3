"""Malefiz positions for search: move generation, barricade-aware costs, evaluation.

A search position is ``Pos(pieces, home, bars)``: exactly the public parts of a
``MalefizState``. The dice's seed and counter never enter it, so nothing built
on it can peek at the next roll.
"""

from __future__ import annotations

import heapq
from typing import NamedTuple

from games.rules.malefiz import (
    FIELDS,
    GOAL,
    HOUSE,
    HOUSE_PATHS,
    HOUSES_FOR,
    NEIGHBOURS,
    PLACEABLE,
    MalefizState,
    bits,
    move_pairs,
)

# Houses' entry fields, left to right (HOUSE_PATHS is keyed by them).
ENTRIES_LTR: tuple[int, ...] = tuple(sorted(HOUSE_PATHS[1], key=lambda f: FIELDS[f][0]))
ENTRY_OF: dict[int, tuple[int, ...]] = {
    n: tuple(ENTRIES_LTR[h] for h in houses) for n, houses in HOUSES_FOR.items()
}
FIELD_COUNT = len(FIELDS)


class Pos(NamedTuple):
    pieces: tuple[int, ...]
    home: tuple[int, ...]
    bars: int


Move = tuple[int, int]  # (from field or HOUSE, to field)


def pos_of(state: MalefizState) -> Pos:
    return Pos(state.pieces, state.home, state.bars)


def moves(pos: Pos, seats: int, seat: int, roll: int) -> list[Move]:
    """Distinct legal (from, to) pairs, as the ruleset enumerates them."""
    return move_pairs(pos.pieces[seat], pos.home[seat], pos.bars, ENTRY_OF[seats][seat], roll)


def play(pos: Pos, seat: int, move: Move) -> tuple[Pos, bool]:
    """The position after ``move``; True when it took a barricade (to be placed)."""
    start, to = move
    tobit = 1 << to
    pieces = list(pos.pieces)
    home = pos.home
    own = pieces[seat]
    if start == HOUSE:
        home = (*home[:seat], home[seat] - 1, *home[seat + 1 :])
    else:
        own ^= 1 << start
    pieces[seat] = own | tobit
    for other, mask in enumerate(pieces):
        if other != seat and mask & tobit:
            pieces[other] = mask ^ tobit
            home = (*home[:other], home[other] + 1, *home[other + 1 :])
            break
    taken = bool(pos.bars & tobit)
    return Pos(tuple(pieces), home, pos.bars ^ tobit if taken else pos.bars), taken


def free_placeable(pos: Pos) -> int:
    occupied = pos.bars
    for mask in pos.pieces:
        occupied |= mask
    return PLACEABLE & ~occupied


def place(pos: Pos, field: int) -> Pos:
    return Pos(pos.pieces, pos.home, pos.bars | 1 << field)


# -- costs ---------------------------------------------------------------------

_cost_cache: dict[tuple[int, int], tuple[int, ...]] = {}


def costs(bars: int, penalty: int) -> tuple[int, ...]:
    """Per field: fields to walk to the goal, each barricade on the way costing
    ``penalty`` more (it must be hit exactly, or walked round). Cached per layout."""
    key = (bars, penalty)
    found = _cost_cache.get(key)
    if found is not None:
        return found
    if len(_cost_cache) > 4096:
        _cost_cache.clear()
    dist = [1 << 20] * FIELD_COUNT
    dist[GOAL] = 0
    heap = [(0, GOAL)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        step = d + 1 + (penalty if bars >> u & 1 else 0)
        for v in NEIGHBOURS[u]:
            if step < dist[v]:
                dist[v] = step
                heapq.heappush(heap, (step, v))
    out = tuple(dist)
    _cost_cache[key] = out
    return out


class Weights(NamedTuple):
    """How an evaluation weighs a seat's pieces (lower score = better placed)."""

    penalty: int  # extra fields per barricade on a route
    second: float  # weight of the second-best piece
    rest: float  # weight of the others
    home_extra: int  # extra cost of a piece still in the house


def seat_cost(pos: Pos, seats: int, seat: int, dist: tuple[int, ...], w: Weights) -> float:
    """How far ``seat`` is from winning: its best piece, a little of the others."""
    cs = [dist[f] for f in bits(pos.pieces[seat])]
    if pos.home[seat]:
        entry = dist[ENTRY_OF[seats][seat]] + 1 + w.home_extra
        cs.extend([entry] * pos.home[seat])
    if not cs:
        return 1e6
    cs.sort()
    score = float(cs[0])
    if len(cs) > 1:
        score += w.second * cs[1]
        score += w.rest * sum(cs[2:])
    return score


def evaluate(pos: Pos, seats: int, seat: int, alive: tuple[int, ...], w: Weights) -> float:
    """``seat``'s standing: the strongest rival's cost minus its own (higher = better)."""
    if pos.pieces[seat] >> GOAL & 1:
        return 1e6
    dist = costs(pos.bars, w.penalty)
    mine = seat_cost(pos, seats, seat, dist, w)
    rival = 1e6
    rivals = 0.0
    for other in alive:
        if other != seat:
            if pos.pieces[other] >> GOAL & 1:
                return -1e6
            c = seat_cost(pos, seats, other, dist, w)
            rivals += c
            rival = min(rival, c)
    if len(alive) > 2:
        rival = 0.8 * rival + 0.2 * rivals / (len(alive) - 1)
    return rival - mine


def leader_route(pos: Pos, seat: int, seats: int, dist: tuple[int, ...]) -> list[int]:
    """The fields ahead of ``seat``'s best piece on its cheapest way to the goal."""
    best, start = 1 << 30, -1
    for f in bits(pos.pieces[seat]):
        if dist[f] < best:
            best, start = dist[f], f
    if start < 0:
        if not pos.home[seat]:
            return []
        start = ENTRY_OF[seats][seat]
    route = [] if start in bits(pos.pieces[seat]) else [start]
    here = start
    while here != GOAL:
        here = min(NEIGHBOURS[here], key=lambda v: (dist[v], v))
        route.append(here)
        if len(route) > FIELD_COUNT:
            break
    return route


def quick_place(pos: Pos, seats: int, seat: int, alive: tuple[int, ...], penalty: int) -> int:
    """A cheap placement for searching: right ahead of the leading rival's best piece."""
    dist = costs(pos.bars, 0)
    free = free_placeable(pos)
    leader, lead_cost = -1, 1 << 30
    for other in alive:
        if other != seat:
            c = min((dist[f] for f in bits(pos.pieces[other])), default=1 << 20)
            if pos.home[other]:
                c = min(c, dist[ENTRY_OF[seats][other]] + 1)
            if c < lead_cost:
                leader, lead_cost = other, c
    if leader >= 0:
        for f in leader_route(pos, leader, seats, costs(pos.bars, penalty)):
            if free >> f & 1:
                return f
    return (free & -free).bit_length() - 1
