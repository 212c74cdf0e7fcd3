"""The Daschax state (a value: apply returns a new one) and its storage format."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .geometry import PIECES_PER_SIDE, Board, Counts, Piece, Taken

# The site's house rule (RULES.md section 2): this many movement turns in a row
# without a capture end the game drawn; a table may set 0 (off) to STALL_MAX.
STALL_TURNS = 150
STALL_MAX = 10_000
# The page warns once at most this many capture-free turns are left (100 of 150),
# as Halma warns from move 40 of 50.
STALL_WARNING = 50


@dataclass(frozen=True, slots=True)
class Variants:
    """The table options, normalised."""

    formation: str = ""  # "" = placement phase, else 10 letters S/M/L for row 0
    move_on: bool = False  # moving on after a capture
    removal: bool = False  # voluntarily removing own pieces before moving
    backward: bool = False  # "B" steps
    place_first: str = "coin"  # "coin" | "white" | "black"
    move_first: str = "coin"
    stall_turns: int = STALL_TURNS  # the house rule's limit; 0: off


@dataclass(frozen=True, slots=True)
class Last:
    """What happened in the last completed placement or turn (for display)."""

    kind: str  # "place" | "turn"
    seat: int
    at: int  # placed field, or the moving piece's start field
    piece: Piece  # the placed piece, or the mover as it started
    steps: tuple[str, ...] = ()
    captures: Taken = ()
    removed: Taken = ()


@dataclass(frozen=True, slots=True)
class DaschaxState:
    """One position; a value (apply returns a new one). Seed and counter stay server-side."""

    board: Board  # CELLS entries, index row * 10 + col
    to_move: int
    to_place: tuple[Counts, Counts]  # per seat: pieces still to place
    captured: tuple[Counts, Counts]  # per seat: enemy pieces it has captured
    removed: tuple[Counts, Counts]  # per seat: own pieces removed voluntarily
    first_mover: int  # who moves first once placement is over
    tosses: tuple[tuple[str, int, str], ...]  # (decision, seat, "coin" | "creator")
    variants: Variants
    turns: int  # completed turns of the play phase
    last: Last | None
    pending: Taken  # pieces removed so far in the turn under way
    seed: int
    counter: int
    # Digests of the boards after the last RECENT turns (board_digest): what
    # a player (or a bot, made fresh for every move) needs to see repetition.
    recent: tuple[int, ...] = ()
    # Movement turns in a row without a capture (the house rule's count):
    # placements leave it alone, a turn with any capture sets it to 0.
    since_capture: int = 0


RECENT = 12


def stalled(state: DaschaxState) -> bool:
    """Whether the house rule ends the game: the table's limit of capture-free turns reached."""
    limit = state.variants.stall_turns
    return 0 < limit <= state.since_capture


def board_digest(board: Board | list[Piece | None]) -> int:
    """A 48-bit digest of a board, the same in every process (unlike ``hash``,
    whose value for None changes between runs); small enough for JSON numbers."""
    data = bytes(0 if p is None else 1 + (p[0] * 3 + p[1] - 1) * 6 + p[2] for p in board)
    return int.from_bytes(hashlib.blake2b(data, digest_size=6).digest(), "big")


def replace_state(state: DaschaxState, **changes: Any) -> DaschaxState:
    """A copy of ``state`` with ``changes`` (cheaper than ``dataclasses.replace``)."""
    fields = {name: getattr(state, name) for name in DaschaxState.__slots__}
    fields.update(changes)
    return DaschaxState(**fields)


def total(counts: Counts) -> int:
    return counts[0] + counts[1] + counts[2]


def plus_one(counts: Counts, points: int) -> Counts:
    out = list(counts)
    out[points - 1] += 1
    return (out[0], out[1], out[2])


def on_board(state: DaschaxState, seat: int) -> int:
    """A seat's pieces on the board, from the counters (O(1))."""
    return (
        PIECES_PER_SIDE
        - total(state.to_place[seat])
        - total(state.captured[1 - seat])
        - total(state.removed[seat])
    )


def placing(state: DaschaxState) -> bool:
    return total(state.to_place[0]) + total(state.to_place[1]) > 0


def pair_with(counts: tuple[Counts, Counts], seat: int, value: Counts) -> tuple[Counts, Counts]:
    return (value, counts[1]) if seat == 0 else (counts[0], value)


def encode_taken(taken: Taken) -> list[list[int]]:
    return [[cell, *piece] for cell, piece in taken]


def decode_taken(data: list[list[int]]) -> Taken:
    return tuple((cell, (s, points, facing)) for cell, s, points, facing in data)


def encode_last(last: Last) -> dict[str, Any]:
    return {
        "kind": last.kind,
        "seat": last.seat,
        "at": last.at,
        "piece": list(last.piece),
        "steps": list(last.steps),
        "captures": encode_taken(last.captures),
        "removed": encode_taken(last.removed),
    }


def decode_last(data: dict[str, Any]) -> Last:
    s, points, facing = data["piece"]
    return Last(
        kind=data["kind"],
        seat=data["seat"],
        at=data["at"],
        piece=(s, points, facing),
        steps=tuple(data["steps"]),
        captures=decode_taken(data["captures"]),
        removed=decode_taken(data["removed"]),
    )


def counts_pair(data: list[list[int]]) -> tuple[Counts, Counts]:
    (a0, a1, a2), (b0, b1, b2) = data
    return (a0, a1, a2), (b0, b1, b2)
