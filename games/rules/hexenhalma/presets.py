"""Preset boards a GM can pick instead of drawing one (data, with suggested params).

Each preset is ``{"title": msgid, "board": board, "params": params}`` in the
shapes of :func:`games.rules.hexenhalma.resolve_match`. Boards are built by
list comprehensions here only to keep the file short; they are plain data.
"""

from __future__ import annotations

from typing import Any

from ..base import gettext_noop


def _board(
    rows: int, cols: int, fields: list[tuple[int, int]], starts: list[tuple[int, int]]
) -> dict[str, Any]:
    return {
        "rows": rows,
        "cols": cols,
        "fields": [[r, c] for r, c in sorted(fields)],
        "starts": [[r, c] for r, c in sorted(starts)],
    }


def _params(
    witches: int, lo: int, hi: int, tired: int, k: int, m: int, b: int, i: int, z: int
) -> dict[str, Any]:
    return {
        "witches": witches,
        "min_steps": lo,
        "max_steps": hi,
        "tiredness": tired,
        "spells": {"K": k, "M": m, "B": b, "I": i, "Z": z},
    }


# The seed's "deliberately boring" example: a plain rectangle, starts on the
# bottom row, goals on the top row, corners left free (the example bans into
# the bottom-left corner and flies to the top-left one).
RECTANGLE = _board(
    12, 10, [(r, c) for r in range(12) for c in range(10)], [(11, c) for c in range(1, 9)]
)

# A diamond (|r - 7| + |c - 7| <= 7): starts at the bottom tip, goals at the top.
DIAMOND = _board(
    15,
    15,
    [(r, c) for r in range(15) for c in range(15) if abs(r - 7) + abs(c - 7) <= 7],
    [(r, c) for r in range(12, 15) for c in range(15) if abs(r - 7) + abs(c - 7) <= 7],
)

# A cross with arms 7 wide: starts at the foot, goals at the head.
CROSS = _board(
    21,
    21,
    [(r, c) for r in range(21) for c in range(21) if 7 <= r <= 13 or 7 <= c <= 13],
    [(r, c) for r in (19, 20) for c in range(7, 14)],
)

# A 30x30 field for big rounds: 20 starts on the bottom row.
ARENA = _board(
    30, 30, [(r, c) for r in range(30) for c in range(30)], [(29, c) for c in range(5, 25)]
)

PRESETS: dict[str, dict[str, Any]] = {
    "rectangle": {
        "title": gettext_noop("Rectangle (the rule book's example)"),
        "board": RECTANGLE,
        "params": _params(2, 11, 20, 4, 2, 2, 1, 2, 1),
    },
    "diamond": {
        "title": gettext_noop("Diamond"),
        "board": DIAMOND,
        "params": _params(4, 14, 24, 4, 2, 1, 1, 1, 1),
    },
    "cross": {
        "title": gettext_noop("Cross"),
        "board": CROSS,
        "params": _params(6, 19, 30, 5, 2, 2, 1, 2, 1),
    },
    "arena": {
        "title": gettext_noop("Arena (30x30)"),
        "board": ARENA,
        "params": _params(10, 29, 60, 6, 3, 2, 2, 2, 2),
    },
}
