"""Terrain maps: loading, the terrain table and per-map look-up tables.

A map is the fixed JSON shape ``{"name", "width", "height", "rows"}`` with
``rows[y][x]`` a terrain letter and y = 0 the north edge. Internally a field
is the index ``y * width + x``; every per-field table is built once per map
(at import for the shipped maps) so the hot loops are plain look-ups.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

Pos = tuple[int, int]

TERRAIN_LETTERS = ".=hfs~oFcr"
TERRAIN_NAMES = {
    ".": "plain",
    "=": "road",
    "h": "hill",
    "f": "forest",
    "s": "swamp",
    "~": "river",
    "o": "ford",
    "F": "fortress",
    "c": "camp",
    "r": "rock",
}

MOVE_KINDS = ("infantry", "cavalry", "chariot")

# The terrain table of RULES.md §5: (range, melee bonus) per movement kind;
# None: the kind may not enter. Hill's extra +1 against plain/road is HILL_EXTRA.
TERRAIN_TABLE: dict[str, dict[str, tuple[int, int] | None]] = {
    "infantry": {
        ".": (1, 0),
        "=": (1, 0),
        "h": (1, 0),
        "f": (1, 1),
        "s": (1, -1),
        "~": None,
        "o": (1, -1),
        "F": (1, 1),
        "c": (1, 1),
        "r": None,
    },
    "cavalry": {
        ".": (3, 1),
        "=": (3, 1),
        "h": (3, 1),
        "f": None,
        "s": None,
        "~": None,
        "o": (3, 0),
        "F": None,
        "c": (2, -1),
        "r": None,
    },
    "chariot": {
        ".": (2, 2),
        "=": (2, 2),
        "h": None,
        "f": None,
        "s": None,
        "~": None,
        "o": (1, 0),
        "F": None,
        "c": None,
        "r": None,
    },
}
HILL_EXTRA = 1  # the table's "*": a further +1 on a hill against a foe on plain or road
LOW_GROUND = frozenset(".=")
SIGHT_BLOCKERS = frozenset("rfFh")

DIRECTIONS: tuple[Pos, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))

MAP_DIR = Path(__file__).resolve().parent / "maps"
MAP_FILES = {"die_burg": "die_burg.json", "die_huegelkette": "die_huegelkette.json"}
TEST_MAP = "probe"  # a small map with every terrain, for tests; not offered at tables


@dataclass(frozen=True, slots=True, eq=False)
class MapData:
    """One map with its look-up tables (identity-compared: one object per map)."""

    key: str
    name: str
    width: int
    height: int
    rows: tuple[str, ...]
    terrain: str  # row-major terrain letters, index y * width + x
    neigh: tuple[tuple[int, ...], ...]  # the up to 8 neighbours of each field
    ranges: dict[str, tuple[int, ...]]  # per move kind: range per field, 0 = impassable

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def pos(self, i: int) -> Pos:
        return (i % self.width, i // self.width)

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def at(self, x: int, y: int) -> str:
        return self.rows[y][x]

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "rows": list(self.rows),
        }


def terrain_range(kind: str, letter: str) -> int:
    """How far a unit of movement ``kind`` may go on ``letter``; 0: it may not enter."""
    entry = TERRAIN_TABLE[kind][letter]
    return 0 if entry is None else entry[0]


def build_map(data: dict[str, Any], key: str = "") -> MapData:
    """Check a map's JSON shape and build its tables; ValueError if malformed."""
    if not isinstance(data, dict):
        raise ValueError("a map must be a JSON object")
    width, height, rows = data.get("width"), data.get("height"), data.get("rows")
    if not isinstance(width, int) or not isinstance(height, int) or width < 1 or height < 1:
        raise ValueError("a map needs a positive width and height")
    if not isinstance(rows, list | tuple) or len(rows) != height:
        raise ValueError("a map needs one row per line of its height")
    for row in rows:
        if (
            not isinstance(row, str)
            or len(row) != width
            or any(c not in TERRAIN_LETTERS for c in row)
        ):
            raise ValueError("every row must hold width terrain letters")
    terrain = "".join(rows)
    neigh = []
    for i in range(width * height):
        x, y = i % width, i // width
        neigh.append(
            tuple(
                (y + dy) * width + x + dx
                for dx, dy in DIRECTIONS
                if 0 <= x + dx < width and 0 <= y + dy < height
            )
        )
    ranges = {kind: tuple(terrain_range(kind, c) for c in terrain) for kind in MOVE_KINDS}
    return MapData(
        key=key or str(data.get("name", "")),
        name=str(data.get("name", "")),
        width=width,
        height=height,
        rows=tuple(rows),
        terrain=terrain,
        neigh=tuple(neigh),
        ranges=ranges,
    )


def _load(key: str, filename: str) -> MapData:
    with (MAP_DIR / filename).open(encoding="utf-8") as fh:
        return build_map(json.load(fh), key)


MAPS: dict[str, MapData] = {key: _load(key, f) for key, f in MAP_FILES.items()}
MAPS[TEST_MAP] = _load(TEST_MAP, "probe.json")


@lru_cache(maxsize=64)
def _map_from_rows(name: str, width: int, height: int, rows: tuple[str, ...]) -> MapData:
    return build_map({"name": name, "width": width, "height": height, "rows": list(rows)})


def as_map(map_: MapData | dict[str, Any]) -> MapData:
    """A MapData for a map given as MapData or as its JSON dict (cached)."""
    if isinstance(map_, MapData):
        return map_
    if not isinstance(map_, dict) or not isinstance(map_.get("rows"), list | tuple):
        raise ValueError("a map must be a JSON object with rows")
    if not isinstance(map_.get("width"), int) or not isinstance(map_.get("height"), int):
        raise ValueError("a map needs a positive width and height")
    if not all(isinstance(r, str) for r in map_["rows"]):
        raise ValueError("every row must hold width terrain letters")
    return _map_from_rows(
        str(map_.get("name", "")), map_.get("width"), map_.get("height"), tuple(map_["rows"])
    )


def melee_terrain_bonus(kind: str, own: str, foe: str) -> int:
    """The terrain bonus of a unit of move ``kind`` on ``own`` against a foe on ``foe``."""
    entry = TERRAIN_TABLE[kind][own]
    if entry is None:  # cannot happen for a unit standing legally; keep it harmless
        return 0
    bonus = entry[1]
    if own == "h" and foe in LOW_GROUND:
        bonus += HILL_EXTRA
    return bonus
