"""Standings: points, then tie-breaks.

Two seats: Buchholz (the sum of the opponents' points) and Sonneborn-Berger
(each opponent's points times what one scored against them). Tables of 3-4:
the sum of the table opponents' points. A bye adds its point and no opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One finished game (or bye): each player's points in it."""

    points: dict[int, float]


@dataclass(frozen=True)
class Standing:
    rank: int
    id: int
    points: float
    tiebreaks: tuple[float, ...]


def standings(
    ids: Sequence[int], results: Iterable[Result], *, tables: bool = False
) -> list[Standing]:
    """Everyone in ``ids`` ranked; equal points and tie-breaks share a rank;
    otherwise ``ids``' order (the starting rank) decides."""
    games = list(results)
    totals = {i: 0.0 for i in ids}
    for game in games:
        for player, points in game.points.items():
            totals[player] = totals.get(player, 0.0) + points
    buchholz = {i: 0.0 for i in ids}
    sonneborn = {i: 0.0 for i in ids}
    for game in games:
        for player, points in game.points.items():
            others = [o for o in game.points if o != player]
            for other in others:
                buchholz[player] = buchholz.get(player, 0.0) + totals[other]
                sonneborn[player] = sonneborn.get(player, 0.0) + points * totals[other]
    keyed = [(totals[i], (buchholz[i],) if tables else (buchholz[i], sonneborn[i]), i) for i in ids]
    start = {i: n for n, i in enumerate(ids)}
    keyed.sort(key=lambda row: (-row[0], *(-t for t in row[1]), start[row[2]]))
    ranked: list[Standing] = []
    for n, (points, breaks, player) in enumerate(keyed):
        tied = ranked and (ranked[-1].points, ranked[-1].tiebreaks) == (points, breaks)
        rank = ranked[-1].rank if tied else n + 1
        ranked.append(Standing(rank, player, points, breaks))
    return ranked
