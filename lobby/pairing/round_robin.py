"""Round robin by Berger tables: every pair meets once, or twice with seats swapped."""

from __future__ import annotations

from collections.abc import Sequence

from .types import Pairing

MAX_ROUND_ROBIN_PLAYERS = 30  # 29 rounds already; more belongs in a Swiss


def max_round_robin_players() -> int:
    return MAX_ROUND_ROBIN_PLAYERS


def berger_rounds(ids: Sequence[int], *, double: bool = False) -> list[list[Pairing]]:
    """Every round's games (a bye for the odd one out), in order.

    The circle method of Berger's tables: the last entry stays put, the others
    turn one place a round; the fixed player changes seat every round and on
    the other boards the first named takes the first seat, so nobody's seats
    run more than one apart over the cycle. ``double`` plays the cycle again
    with every game's seats swapped.
    """
    slots: list[int | None] = list(ids)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    fixed, ring = slots[-1], slots[:-1]
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        turned = ring[r:] + ring[:r]
        games = [_game(turned[0], fixed, swap=r % 2 == 1)]
        games += [_game(turned[i], turned[n - 1 - i], swap=False) for i in range(1, n // 2)]
        rounds.append([g for g in games if g is not None])
    if double:
        rounds += [[_swapped(g) for g in games] for games in rounds]
    return rounds


def _game(a: int | None, b: int | None, *, swap: bool) -> Pairing | None:
    if a is None and b is None:
        return None
    if a is None or b is None:
        return Pairing((a if b is None else b,), bye=True)  # type: ignore[arg-type]
    return Pairing((b, a) if swap else (a, b))


def _swapped(game: Pairing) -> Pairing:
    return game if game.bye else Pairing(tuple(reversed(game.players)))
