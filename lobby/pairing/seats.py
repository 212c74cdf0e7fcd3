"""First-seat balance, like colours in chess: never the same seat three games
running, and the counts of first and second seats differ by at most two."""

from __future__ import annotations

from collections.abc import Sequence

from .types import Entrant


def required_seat(history: Sequence[int]) -> int | None:
    """The seat (0 or 1) a two-seat player must take next, or None if either is fine."""
    firsts = history.count(0)
    seconds = len(history) - firsts
    if len(history) >= 2 and history[-1] == history[-2]:
        return 1 - history[-1]
    if firsts - seconds >= 2:
        return 1
    if seconds - firsts >= 2:
        return 0
    return None


def preferred_seat(history: Sequence[int]) -> tuple[int | None, int]:
    """The seat a player would rather have next and how much (0: no wish)."""
    must = required_seat(history)
    if must is not None:
        return must, 3
    firsts = history.count(0)
    seconds = len(history) - firsts
    if firsts != seconds:
        return (0 if firsts < seconds else 1), 2
    if history:
        return 1 - history[-1], 1
    return None, 0


def conflict(a: Entrant, b: Entrant) -> bool:
    """Both must have the same seat: they cannot meet this round."""
    need_a, need_b = required_seat(a.seats), required_seat(b.seats)
    return need_a is not None and need_a == need_b


def unwanted(a: Entrant, b: Entrant) -> bool:
    """Pairing them leaves one with a seat it would rather not have."""
    want_a, strength_a = preferred_seat(a.seats)
    want_b, strength_b = preferred_seat(b.seats)
    return strength_a > 0 and strength_b > 0 and want_a == want_b


def seat_order(a: Entrant, b: Entrant, board: int) -> tuple[int, int]:
    """The two ids in seat order: the stronger wish for the first seat wins;
    with no wishes (round 1) the higher-ranked player starts on even boards."""
    want_a, strength_a = preferred_seat(a.seats)
    want_b, strength_b = preferred_seat(b.seats)
    if strength_a == strength_b == 0:
        top, other = (a, b) if a.rank <= b.rank else (b, a)
        return (top.id, other.id) if board % 2 == 0 else (other.id, top.id)
    if (strength_a, -a.rank) >= (strength_b, -b.rank):
        return (a.id, b.id) if want_a == 0 else (b.id, a.id)
    return (b.id, a.id) if want_b == 0 else (a.id, b.id)
