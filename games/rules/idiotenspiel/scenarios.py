"""Scenarios: forces, set-up zones and the map features victory depends on.

Map features are derived from the terrain letters, so the map files keep the
fixed four-key shape: a fortress group is a set of 8-connected ``F`` fields;
the castle in the lower third is the group lying wholly in the southern
third, the island castle the group in the western third; the great forest's
inside is every field of the largest forest whose 8 neighbours are all
forest.
"""

from __future__ import annotations

from functools import lru_cache

from .maps import MapData
from .movement import home_distance

ROBIN, SHERIFF = 0, 1
SCENARIOS = ("grundspiel", "marian")
SETUP_BAND = 10  # Grundspiel: set up within 10 fields of the chosen edge or fortress
OPPOSITE = {"N": "S", "S": "N", "W": "E", "E": "W"}

# (id, type, leader, name); the ids are stable and appear in actions.
Force = tuple[tuple[str, str, bool, str], ...]


def _force(prefix: str, leader_type: str, name: str, parts: list[tuple[str, int]]) -> Force:
    out = [(f"{prefix}0", leader_type, True, name)]
    for unit_type, count in parts:
        out.extend((f"{prefix}{len(out)}", unit_type, False, "") for _ in range(count))
    return tuple(out)


ROBIN_NAME = "Robin Hood"
SHERIFF_NAME = "Sheriff of Nottingham"
MARIAN_ID = "m"
MARIAN_NAME = "Maid Marian"

FORCES: dict[str, tuple[Force, Force]] = {
    "grundspiel": (
        _force("r", "archer", ROBIN_NAME, [("infantry", 12), ("archer", 10)]),
        _force("s", "cavalry", SHERIFF_NAME, [("infantry", 12), ("cavalry", 5)]),
    ),
    "marian": (
        _force("r", "archer", ROBIN_NAME, [("infantry", 12), ("archer", 6)]),
        _force("s", "cavalry", SHERIFF_NAME, [("infantry", 6), ("cavalry", 5)]),
    ),
}


def short_sides(md: MapData) -> tuple[str, str]:
    """The map's two short sides (home edges in Grundspiel)."""
    return ("W", "E") if md.width >= md.height else ("N", "S")


@lru_cache(maxsize=64)
def fortress_groups(md: MapData) -> tuple[frozenset[int], ...]:
    """The map's fortresses: 8-connected groups of fortress fields."""
    return tuple(frozenset(g) for g in _groups(md, "F"))


def edge_band(md: MapData, edge: str) -> frozenset[int]:
    """The fields within SETUP_BAND fields of an edge (the nearest 10 lines)."""
    return frozenset(
        i for i in range(md.width * md.height) if home_distance(md, i, edge) < SETUP_BAND
    )


@lru_cache(maxsize=64)
def near_fortress(md: MapData, edge: str) -> frozenset[int]:
    """Fortress fields of the groups near an edge (any field inside its band)."""
    band = edge_band(md, edge)
    out: set[int] = set()
    for g in fortress_groups(md):
        if g & band:
            out |= g
    return frozenset(out)


def chebyshev(md: MapData, i: int, j: int) -> int:
    return max(abs(i % md.width - j % md.width), abs(i // md.width - j // md.width))


def distance_to(md: MapData, i: int, fields: frozenset[int]) -> int:
    return min(chebyshev(md, i, f) for f in fields)


@lru_cache(maxsize=64)
def setup_zone(md: MapData, scenario: str, seat: int, edge: str, zone: str) -> frozenset[int]:
    """The fields a seat may set up on."""
    if scenario == "marian":
        letter = "c" if seat == SHERIFF else "f"
        return frozenset(i for i, c in enumerate(md.terrain) if c == letter)
    if zone == "fortress":
        forts = near_fortress(md, edge)
        return frozenset(
            i for i in range(md.width * md.height) if distance_to(md, i, forts) <= SETUP_BAND
        )
    return edge_band(md, edge)


@lru_cache(maxsize=64)
def lower_castle(md: MapData) -> frozenset[int]:
    """The castle in the lower third: fortress groups wholly in the southern third."""
    limit = md.height * 2 / 3
    out: set[int] = set()
    for g in fortress_groups(md):
        if all(i // md.width >= limit for i in g):
            out |= g
    return frozenset(out)


@lru_cache(maxsize=64)
def island_castle(md: MapData) -> frozenset[int]:
    """The island castle: fortress groups wholly in the western third."""
    limit = md.width / 3
    out: set[int] = set()
    for g in fortress_groups(md):
        if all(i % md.width < limit for i in g):
            out |= g
    return frozenset(out)


def _groups(md: MapData, letter: str) -> list[set[int]]:
    """8-connected groups of fields with one terrain letter."""
    seen: set[int] = set()
    groups: list[set[int]] = []
    for i, c in enumerate(md.terrain):
        if c != letter or i in seen:
            continue
        group, todo = {i}, [i]
        while todo:
            for n in md.neigh[todo.pop()]:
                if md.terrain[n] == letter and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        groups.append(group)
    return groups


@lru_cache(maxsize=64)
def inner_forest(md: MapData) -> frozenset[int]:
    """The inside of the great forest: fields of the largest forest whose 8
    neighbours all lie on the map and are forest."""
    groups = _groups(md, "f")
    if not groups:
        return frozenset()
    great = max(groups, key=len)
    return frozenset(
        i for i in great if len(md.neigh[i]) == 8 and all(md.terrain[n] == "f" for n in md.neigh[i])
    )
