"""The values pairings read and return."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    """One player as the next round's pairing sees them.

    ``rank`` is the starting rank (0 = strongest; rating order at the start),
    ``seats`` the seat index played in each earlier game, oldest first (byes
    leave no entry), ``opponents`` everyone met so far.
    """

    id: int
    score: float = 0.0
    rank: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pairing:
    """One game of a round: ``players`` in seat order; a bye has one player."""

    players: tuple[int, ...]
    bye: bool = False
