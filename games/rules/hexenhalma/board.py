"""Hexenhalma boards and round parameters: validation and the compiled form.

A board is ``{"rows", "cols", "fields": [[r, c], ...], "starts": [[r, c], ...]}``
with row 0 at the top; ``starts`` are side A's start fields, side B's are their
180° rotation, and each side's goal fields are the other side's start fields.
Internally a field is the index ``r * cols + c``; the 180° rotation of index
``i`` is then simply ``rows * cols - 1 - i``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeGuard

from ..base import IllegalAction, gettext_noop

MAX_SIDE = 64  # rows/cols accepted; RULES.md asks for at least 30x30
MAX_STEPS = 200  # longest step limit a GM may set
SPELLS = ("K", "M", "B", "I", "Z")
DIRS = ("N", "E", "S", "W")
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))

# Field kinds in CompiledBoard.kind.
NO_FIELD, PLAIN, START_A, START_B = 0, 1, 2, 3


@dataclass(frozen=True)
class CompiledBoard:
    rows: int
    cols: int
    kind: bytes  # per index: NO_FIELD, PLAIN, START_A or START_B
    nb: tuple[tuple[int, ...], ...]  # nb[d][i]: neighbour of i in direction d, -1 off the board
    coords: tuple[tuple[int, int], ...]  # index -> (r, c)
    starts: tuple[tuple[int, ...], tuple[int, ...]]  # start indices of side A, side B

    def index(self, r: int, c: int) -> int:
        """Index of (r, c), or -1 outside the rectangle."""
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r * self.cols + c
        return -1


def canonical(value: Any) -> str:
    """The JSON text used for storing and caching boards, params and orders."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def is_int(value: object) -> TypeGuard[int]:
    """A whole number from JSON (``True`` is no number here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def coord(value: Any) -> tuple[int, int] | None:
    """``[r, c]`` as a tuple, or None when the value is not two whole numbers."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and is_int(value[0])
        and is_int(value[1])
        and abs(value[0]) < 10**6
        and abs(value[1]) < 10**6
    ):
        return (value[0], value[1])
    return None


def _coord_list(value: Any, what: str) -> list[tuple[int, int]]:
    if not isinstance(value, list):
        raise IllegalAction(
            gettext_noop("The board's %(what)s must be a list of [row, col]."), what=what
        )
    out = []
    for item in value:
        rc = coord(item)
        if rc is None:
            raise IllegalAction(
                gettext_noop("The board's %(what)s must be a list of [row, col]."), what=what
            )
        out.append(rc)
    return out


def validate_board(board: Any) -> dict[str, Any]:
    """Check a GM's board and return it normalised (sorted, as lists).

    Raises IllegalAction naming the broken rule: size, fields inside the
    rectangle, 180° symmetry, starts on fields and not facing each other.
    """
    if not isinstance(board, dict):
        raise IllegalAction(gettext_noop("The board must be a JSON object."))
    rows, cols = board.get("rows"), board.get("cols")
    if not (is_int(rows) and is_int(cols) and 1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise IllegalAction(
            gettext_noop("The board needs rows and cols between 1 and %(max)s."), max=MAX_SIDE
        )
    fields = _coord_list(board.get("fields"), "fields")
    starts = _coord_list(board.get("starts"), "starts")
    field_set = set()
    for r, c in fields:
        if not (0 <= r < rows and 0 <= c < cols):
            raise IllegalAction(gettext_noop("Field %(at)s lies outside the board."), at=[r, c])
        if (r, c) in field_set:
            raise IllegalAction(gettext_noop("Field %(at)s is listed twice."), at=[r, c])
        field_set.add((r, c))
    for r, c in fields:
        other = (rows - 1 - r, cols - 1 - c)
        if other not in field_set:
            raise IllegalAction(
                gettext_noop(
                    "The board must be 180° rotationally symmetric: %(at)s has no counterpart %(other)s."
                ),
                at=[r, c],
                other=list(other),
            )
    if not starts:
        raise IllegalAction(gettext_noop("The board needs at least one start field."))
    start_set = set()
    for r, c in starts:
        if (r, c) not in field_set:
            raise IllegalAction(
                gettext_noop("Start field %(at)s is not a field of the board."), at=[r, c]
            )
        if (r, c) in start_set:
            raise IllegalAction(gettext_noop("Start field %(at)s is listed twice."), at=[r, c])
        start_set.add((r, c))
    for r, c in starts:
        other = (rows - 1 - r, cols - 1 - c)
        if other in start_set:
            raise IllegalAction(
                gettext_noop(
                    "Start field %(at)s is side B's start field too (the 180° rotation of %(other)s): "
                    "a field is never a start and a goal of the same side."
                ),
                at=[r, c],
                other=list(other),
            )
    if len(field_set) == 2 * len(start_set):
        raise IllegalAction(gettext_noop("The board needs fields besides start and goal fields."))
    return {
        "rows": rows,
        "cols": cols,
        "fields": [list(rc) for rc in sorted(field_set)],
        "starts": [list(rc) for rc in sorted(start_set)],
    }


def validate_params(params: Any, board: dict[str, Any]) -> dict[str, Any]:
    """Check a round's parameters against its (validated) board; return them normalised.

    Missing spell counts are 0; the optional flags ``require_all_steps`` and
    ``require_all_spells`` default to false.
    """
    if not isinstance(params, dict):
        raise IllegalAction(gettext_noop("The round parameters must be a JSON object."))
    unknown = sorted(
        set(params)
        - {"witches", "min_steps", "max_steps", "tiredness", "spells"}
        - {"require_all_steps", "require_all_spells"}
    )
    if unknown:
        raise IllegalAction(gettext_noop("Unknown round parameter: %(name)s."), name=unknown[0])
    witches = params.get("witches")
    starts = len(board["starts"])
    if not is_int(witches) or not 1 <= witches <= starts:
        raise IllegalAction(
            gettext_noop("witches must lie between 1 and %(max)s (the board's start fields)."),
            max=starts,
        )
    lo, hi = params.get("min_steps"), params.get("max_steps")
    if not is_int(hi) or not 1 <= hi <= MAX_STEPS:
        raise IllegalAction(
            gettext_noop("max_steps must lie between 1 and %(max)s."), max=MAX_STEPS
        )
    if not is_int(lo) or not 1 <= lo <= hi:
        raise IllegalAction(gettext_noop("min_steps must lie between 1 and max_steps."))
    tired = params.get("tiredness")
    if not is_int(tired) or not 0 <= tired <= MAX_STEPS:
        raise IllegalAction(
            gettext_noop("tiredness (the Müdezauber strength) must lie between 0 and %(max)s."),
            max=MAX_STEPS,
        )
    spells = params.get("spells", {})
    if not isinstance(spells, dict) or set(spells) - set(SPELLS):
        raise IllegalAction(gettext_noop("spells must map K, M, B, I and Z to counts per witch."))
    counts = {}
    for key in SPELLS:
        n = spells.get(key, 0)
        if not is_int(n) or not 0 <= n <= MAX_STEPS:
            raise IllegalAction(
                gettext_noop("The count of spell %(spell)s must lie between 0 and %(max)s."),
                spell=key,
                max=MAX_STEPS,
            )
        counts[key] = n
    flags = {}
    for key in ("require_all_steps", "require_all_spells"):
        flag = params.get(key, False)
        if not isinstance(flag, bool):
            raise IllegalAction(gettext_noop("%(name)s must be true or false."), name=key)
        flags[key] = flag
    if flags["require_all_spells"] and counts["K"] + counts["M"] + counts["B"] + counts["I"] > hi:
        raise IllegalAction(
            gettext_noop(
                "With require_all_spells, K + M + B + I per witch must fit into max_steps."
            )
        )
    return {
        "witches": witches,
        "min_steps": lo,
        "max_steps": hi,
        "tiredness": tired,
        "spells": counts,
        **flags,
    }


def compile_board(board: dict[str, Any]) -> CompiledBoard:
    """The table form of a validated board (cached by its canonical JSON)."""
    return _compile(canonical(board))


@lru_cache(maxsize=64)
def _compile(text: str) -> CompiledBoard:
    board = json.loads(text)
    rows, cols = board["rows"], board["cols"]
    size = rows * cols
    kind = bytearray(size)
    for r, c in board["fields"]:
        kind[r * cols + c] = PLAIN
    starts_a = tuple(sorted(r * cols + c for r, c in board["starts"]))
    starts_b = tuple(sorted(size - 1 - i for i in starts_a))
    for i in starts_a:
        kind[i] = START_A
    for i in starts_b:
        kind[i] = START_B
    nb = tuple(
        tuple(
            (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1
            for r, c in (divmod(i, cols) for i in range(size))
        )
        for dr, dc in DELTAS
    )
    coords = tuple(divmod(i, cols) for i in range(size))
    return CompiledBoard(rows, cols, bytes(kind), nb, coords, (starts_a, starts_b))


def goals_of(board: dict[str, Any]) -> list[list[int]]:
    """Side A's goal fields (= side B's start fields), sorted."""
    rows, cols = board["rows"], board["cols"]
    return sorted([rows - 1 - r, cols - 1 - c] for r, c in board["starts"])
