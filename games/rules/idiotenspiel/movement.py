"""Movement: the public ``reachable`` helper, home-edge distance and stacking.

``reachable`` is the one place where ranges, impassable terrain, stopping
next to an enemy and leaving an enemy's field are decided; the engine, the
leader aura and the tests all go through it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from .maps import MOVE_KINDS, MapData, as_map

EDGES = ("N", "S", "W", "E")


def home_distance(md: MapData, i: int, home: str) -> int:
    """How many fields field ``i`` lies from the ``home`` edge (0 on the edge)."""
    x, y = i % md.width, i // md.width
    if home == "N":
        return y
    if home == "S":
        return md.height - 1 - y
    if home == "W":
        return x
    return md.width - 1 - x


def reach_fields(
    md: MapData,
    ranges: Sequence[int],
    start: int,
    enemies: Collection[int],
    blocked: Collection[int],
    home: str | None,
) -> set[int]:
    """Field indices a unit with per-field ``ranges`` can end a move on.

    A path is legal when its length is at most the smallest range among the
    fields it enters (RULES.md Decision), it enters no impassable, enemy or
    ``blocked`` field, and it stops in the first field next to an enemy.
    From a field shared with enemies the first step must bring the unit
    nearer its ``home`` edge (no restriction when ``home`` is None).
    """
    neigh = md.neigh
    threatened: set[int] = set()
    for e in enemies:
        threatened.update(neigh[e])
    restrict = home is not None and start in enemies
    start_home = home_distance(md, start, home) if restrict and home else 0
    result: set[int] = set()
    best: dict[int, int] = {start: 99}  # field -> largest min-range reached at a smaller depth
    frontier: list[tuple[int, int]] = [(start, 99)]
    depth = 0
    while frontier:
        depth += 1
        layer: dict[int, int] = {}
        for i, low in frontier:
            for n in neigh[i]:
                r = ranges[n]
                if r < depth or low < depth or n in enemies or n in blocked:
                    continue
                if depth == 1 and restrict and home_distance(md, n, home) >= start_home:  # type: ignore[arg-type]
                    continue
                result.add(n)
                if n in threatened:
                    continue  # a threatened field ends the move
                m = r if r < low else low
                if m > depth and best.get(n, -1) < m and layer.get(n, -1) < m:
                    layer[n] = m
        for n, m in layer.items():
            best[n] = m
        frontier = list(layer.items())
    result.discard(start)
    return result


def _indices(md: MapData, fields: Iterable[Any]) -> set[int]:
    out: set[int] = set()
    for f in fields:
        x, y = xy(f)
        if md.inside(x, y):
            out.add(md.index(x, y))
    return out


def xy(f: Any) -> tuple[int, int]:
    if (
        not isinstance(f, list | tuple)
        or len(f) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in f)
    ):
        raise ValueError("a field is [x, y] with two whole numbers")
    return f[0], f[1]


def reachable(
    map: MapData | dict[str, Any],
    kind: str,
    start: Sequence[int],
    enemies: Iterable[Sequence[int]] = (),
    full: Iterable[Sequence[int]] = (),
    *,
    home: str | None = None,
) -> list[list[int]]:
    """Every field ``[x, y]`` a unit of ``kind`` on ``start`` can end a move on.

    ``kind`` is "infantry", "cavalry" or "chariot"; ``enemies`` are the
    fields holding enemy units (civilians excluded: they neither block nor
    threaten), ``full`` the fields the unit may not enter for stacking.
    ``home`` (an extension: "N", "S", "W" or "E") is the unit's home edge; it
    only matters when ``start`` holds enemies, which the unit may then leave
    only towards that edge. ``start`` itself is never included.

    >>> from games.rules.idiotenspiel.maps import MAPS
    >>> reachable(MAPS["probe"], "infantry", [0, 0])
    [[1, 0], [0, 1], [1, 1]]
    >>> len(reachable(MAPS["probe"], "cavalry", [0, 3], enemies=[[5, 7]]))
    25
    """
    md = as_map(map)
    if kind not in MOVE_KINDS:
        raise ValueError("kind must be infantry, cavalry or chariot")
    if home is not None and home not in EDGES:
        raise ValueError("home must be N, S, W or E")
    sx, sy = xy(start)
    if not md.inside(sx, sy):
        raise ValueError("start lies off the map")
    found = reach_fields(
        md, md.ranges[kind], md.index(sx, sy), _indices(md, enemies), _indices(md, full), home
    )
    w = md.width
    return [[i % w, i // w] for i in sorted(found)]


# -- stacking -----------------------------------------------------------------
# Per side and field: up to 3 infantry, or 2 cavalry, or 1 cavalry + 1 infantry,
# or 1 chariot/elephant. Civilians and prisoners do not count (RULES.md).


def stack_ok(inf: int, cav: int, cha: int) -> bool:
    """Whether one side's infantry/cavalry/chariot counts fit in one field."""
    if cha:
        return cha == 1 and not inf and not cav
    if cav == 0:
        return inf <= 3
    if cav == 1:
        return inf <= 1
    return cav == 2 and inf == 0


def fits(counts: tuple[int, int, int], kind: str) -> bool:
    """Whether a unit of move ``kind`` may join a field with these counts."""
    inf, cav, cha = counts
    if kind == "infantry":
        return stack_ok(inf + 1, cav, cha)
    if kind == "cavalry":
        return stack_ok(inf, cav + 1, cha)
    return stack_ok(inf, cav, cha + 1)
