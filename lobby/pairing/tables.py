"""Swiss by tables for 3-4 seat games (Malefiz): leaders together at table 1,
repeat tables avoided where the next few candidates allow, seats rotated."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .swiss import standings_order
from .types import Entrant, Pairing

LOOK_AHEAD = 2  # candidates per free place a table may reach down the standings


def table_sizes(players: int, seats: int, min_seats: int = 2) -> list[int]:
    """Tables as even as can be, largest first, so nobody sits out: 10 by 4 is 4-3-3."""
    if players < min_seats:
        raise ValueError("too few players for one table")
    count = math.ceil(players / seats)
    base, extra = divmod(players, count)
    if base < min_seats:
        raise ValueError("too few players for tables of this size")
    return [base + 1] * extra + [base] * (count - extra)


def pair_tables(entrants: Sequence[Entrant], seats: int, min_seats: int = 2) -> list[Pairing]:
    """One round's tables, best scores first, each in seat order."""
    rest = standings_order(entrants)
    found: list[Pairing] = []
    for size in table_sizes(len(rest), seats, min_seats):
        table = [rest.pop(0)]
        while len(table) < size:
            reach = rest[: LOOK_AHEAD * (size - len(table))]
            pick = min(range(len(reach)), key=lambda i: (_met(reach[i], table), i))
            table.append(rest.pop(pick))
        found.append(Pairing(tuple(e.id for e in _rotated(table))))
    return found


def _met(candidate: Entrant, table: list[Entrant]) -> int:
    return sum(1 for e in table if e.id in candidate.opponents)


def _rotated(table: list[Entrant]) -> list[Entrant]:
    """Who sat late so far sits early now (the mean seat index, higher first)."""
    return sorted(table, key=lambda e: (-sum(e.seats) / len(e.seats) if e.seats else 0, e.rank))


def table_points(places: Sequence[int], scheme: Sequence[float] | None = None) -> list[float]:
    """Each seat's points from its finishing place (1 = first); tied places
    share the points of the places they span. Default 3-2-1-0, 2-1-0."""
    size = len(places)
    points = list(scheme) if scheme is not None else [float(size - 1 - i) for i in range(size)]
    points += [0.0] * (size - len(points))
    shared = []
    for place in places:
        tied = sum(1 for p in places if p == place)
        span = points[place - 1 : place - 1 + tied]
        shared.append(sum(span) / tied)
    return shared
