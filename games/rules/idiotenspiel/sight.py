"""Line of sight and facings: pure geometry on field centres."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .maps import SIGHT_BLOCKERS, MapData, as_map
from .movement import xy

FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FACING_VECTORS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


@lru_cache(maxsize=4096)
def crossed(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Offsets of the fields strictly between (0, 0) and (dx, dy) that the line crosses.

    The segment joins the two field centres; a field counts when the segment
    passes through the inside of its square (a corner touch does not). With
    t in (0, 1) along the segment, field (i, j) is crossed when the open
    intervals |t*dx - i| < 1/2 and |t*dy - j| < 1/2 overlap. Exact fractions,
    cached per offset: the geometry does not depend on where the line starts.
    """
    out: list[tuple[int, int]] = []
    for i in range(min(0, dx), max(0, dx) + 1):
        for j in range(min(0, dy), max(0, dy) + 1):
            if (i, j) in ((0, 0), (dx, dy)):
                continue
            lo, hi = Fraction(0), Fraction(1)
            for c, d in ((i, dx), (j, dy)):
                if d == 0:
                    if c != 0:
                        lo, hi = Fraction(1), Fraction(0)
                    continue
                a, b = Fraction(2 * c - 1, 2 * d), Fraction(2 * c + 1, 2 * d)
                if a > b:
                    a, b = b, a
                lo, hi = max(lo, a), min(hi, b)
            if lo < hi:
                out.append((i, j))
    return tuple(out)


def line_of_sight(
    map: MapData | dict[str, Any],
    a: Sequence[int],
    b: Sequence[int],
    units: Iterable[Sequence[int]] | Collection[tuple[int, int]] = (),
) -> bool:
    """Whether a shot from field ``a`` to field ``b`` is unobstructed.

    Every field the straight line between the two centres passes through,
    strictly between them (a corner touch does not count), blocks when it
    holds rock, forest, fortress or hill, or any unit in ``units`` (the fields
    holding units other than civilians). One may shoot into such terrain,
    not through it.

    >>> from games.rules.idiotenspiel.maps import MAPS
    >>> line_of_sight(MAPS["probe"], [0, 0], [3, 0])
    True
    >>> line_of_sight(MAPS["probe"], [1, 0], [4, 2])  # the line crosses the hill at (2, 1)
    False
    >>> line_of_sight(MAPS["probe"], [0, 0], [3, 0], units=[[2, 0]])
    False
    """
    md = as_map(map)
    ax, ay = xy(a)
    bx, by = xy(b)
    if not md.inside(ax, ay) or not md.inside(bx, by):
        raise ValueError("both fields must lie on the map")
    occupied = units if isinstance(units, set | frozenset) else {xy(u) for u in units}
    rows = md.rows
    for ox, oy in crossed(bx - ax, by - ay):
        x, y = ax + ox, ay + oy
        if rows[y][x] in SIGHT_BLOCKERS or (x, y) in occupied:
            return False
    return True


def in_front(facing: str, frm: tuple[int, int], to: tuple[int, int]) -> bool:
    """Whether ``frm`` lies in front or diagonal-front of a unit on ``to`` facing ``facing``.

    The direction from the unit to the attacker is put into one of 8 sectors
    of 45 degrees; front and the two diagonal-front sectors count. An
    attacker in the unit's own field has no direction: no bonus.
    """
    dx, dy = frm[0] - to[0], frm[1] - to[1]
    if dx == 0 and dy == 0:
        return False
    fx, fy = FACING_VECTORS[facing]
    # Within 67.5 degrees of the facing: cos(angle) > cos(67.5°) = 0.38268...
    # Integer test: (f·d)^2 compared with 0.1464... * |f|^2 |d|^2, and f·d > 0.
    dot = fx * dx + fy * dy
    if dot <= 0:
        return False
    f2, d2 = fx * fx + fy * fy, dx * dx + dy * dy
    # cos^2(67.5°) = (1 - cos 135°) / 2 = (2 - sqrt 2) / 4; compare exactly enough:
    # dot^2 * 4 > (2 - sqrt2) * f2 * d2  <=>  4*dot^2 - 2*f2*d2 > -sqrt2 * f2 * d2
    lhs = 4 * dot * dot - 2 * f2 * d2
    if lhs >= 0:
        return True
    # lhs < 0: need lhs^2 < 2 * (f2*d2)^2
    return lhs * lhs < 2 * (f2 * d2) * (f2 * d2)


def facing_towards(home: str) -> str:
    """The facing that looks away from a home edge, towards the enemy."""
    return {"N": "S", "S": "N", "W": "E", "E": "W"}[home]
