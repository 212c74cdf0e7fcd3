"""Daschax (Ursula Balzer): chess-like capture on a 10 x 10 hex board.

RULES.md section 2 is the specification; docs/rules/daschax.md documents the
actions, views and events. Pure Python, no Django. Modules by concern:
:mod:`.geometry` (board, facings, sizes), :mod:`.state` (the state and its
storage), :mod:`.tree` (move generation), :mod:`.actions` (applying actions),
:mod:`.views` and :mod:`.ruleset`.
"""

from .geometry import (
    CELLS,
    COLS,
    FACING_INDEX,
    FACINGS,
    LETTER_POINTS,
    NEIGHBOUR,
    PIECES_PER_SIDE,
    POINTS_LETTER,
    ROWS,
    SIZE_POINTS,
    SIZES,
    START_COUNTS,
    START_FACING,
    START_ROW,
    Board,
    Counts,
    Piece,
    Taken,
)
from .ruleset import DaschaxRuleset
from .state import DaschaxState, Last, Variants

__all__ = [
    "CELLS",
    "COLS",
    "FACINGS",
    "FACING_INDEX",
    "LETTER_POINTS",
    "NEIGHBOUR",
    "PIECES_PER_SIDE",
    "POINTS_LETTER",
    "ROWS",
    "SIZES",
    "SIZE_POINTS",
    "START_COUNTS",
    "START_FACING",
    "START_ROW",
    "Board",
    "Counts",
    "DaschaxRuleset",
    "DaschaxState",
    "Last",
    "Piece",
    "Taken",
    "Variants",
]
