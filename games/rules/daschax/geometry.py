"""Daschax geometry: the 10 x 10 hex board, facings, piece sizes.

Flat-topped hexes in 10 columns of 10 rows, coordinates ``[col, row]`` with
row 0 at seat 0's side (bottom) and odd columns half a hex higher than even
ones. A field is stored as one int, ``cell = row * 10 + col``. Facings are ints
0..5 clockwise from north: N NE SE S SW NW, so turning right (clockwise) adds
one and the backward direction is ``facing + 3``.

A piece is a tuple ``(seat, points, facing)``; its points (1, 2, 3) are its
size (small, medium, large).
"""

from __future__ import annotations

COLS = 10
ROWS = 10
CELLS = COLS * ROWS
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
FACING_INDEX = {name: i for i, name in enumerate(FACINGS)}
SIZES = ("small", "medium", "large")  # index + 1 = movement points
SIZE_POINTS = {name: i + 1 for i, name in enumerate(SIZES)}
LETTER_POINTS = {"S": 1, "M": 2, "L": 3}
POINTS_LETTER = {1: "S", 2: "M", 3: "L"}
START_COUNTS = (5, 3, 2)  # small, medium, large per side
PIECES_PER_SIDE = sum(START_COUNTS)
START_ROW = (0, ROWS - 1)
START_FACING = (0, 3)  # seat 0 faces N, seat 1 faces S

Piece = tuple[int, int, int]  # (seat, points, facing)
Board = tuple[Piece | None, ...]
Counts = tuple[int, int, int]  # per size: small, medium, large
Taken = tuple[tuple[int, Piece], ...]  # (cell, piece) of captured/removed pieces


def cell_of(col: int, row: int) -> int:
    return row * COLS + col


def xy(cell: int) -> list[int]:
    return [cell % COLS, cell // COLS]


def field_name(cell: int) -> str:
    """A field as the board labels it ("e1": column letter, row from 1)."""
    return f"{'abcdefghij'[cell % COLS]}{cell // COLS + 1}"


def _neighbour(col: int, row: int, facing: int) -> int:
    """The adjacent field in direction ``facing``, or -1 off the board."""
    odd = col & 1
    dc, dr = (
        (0, 1),
        (1, odd),
        (1, odd - 1),
        (0, -1),
        (-1, odd - 1),
        (-1, odd),
    )[facing]
    c, r = col + dc, row + dr
    if 0 <= c < COLS and 0 <= r < ROWS:
        return cell_of(c, r)
    return -1


# NEIGHBOUR[cell][facing] -> cell or -1; built once at import.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(_neighbour(cell % COLS, cell // COLS, f) for f in range(6)) for cell in range(CELLS)
)


def after_step(cell: int, facing: int, step: str) -> tuple[int, int]:
    """Field and facing after one step on an empty board ("L"/"R" turn, "F"/"B"
    move; a step known to stay on the board)."""
    if step == "L":
        return cell, (facing - 1) % 6
    if step == "R":
        return cell, (facing + 1) % 6
    return NEIGHBOUR[cell][facing if step == "F" else (facing + 3) % 6], facing
