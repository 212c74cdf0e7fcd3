"""Swiss pairing, Dutch style: score groups from the top, top half against
bottom half inside a group, no repeat pairings, at most one bye each.

Each round is the cheapest pairing (``matching``: least sum of score
differences, the Dutch partner and seat wishes as tie-breaks). Seat balance
is kept while a pairing keeping it costs at most a point over the best one
without that rule; the bye goes to the lowest-ranked player without one for
whom the rest pairs within a point of the best over all bye choices. When no
pairing avoids a repeat or a second bye, ``NoPairing`` is raised (the
tournament ends there, as lichess's Swiss does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .greedy import Pairs, Rules
from .matching import (
    FULL_GRAPH_UP_TO,
    POINT,
    bye_bounds,
    cheapest,
    least_cost_with_bye,
    lower_bound,
    pairs_cost,
)
from .seats import seat_order
from .types import Entrant, Pairing

BYE_TRIES = 4  # large fields: bye choices tried when none is proven within a point


class NoPairing(ValueError):
    """Every pairing of the field repeats a game or gives someone a second bye."""


@dataclass(frozen=True)
class Try:
    cost: int  # half points
    pairs: Pairs
    bye: Entrant | None


def standings_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))


def pair_swiss(entrants: Sequence[Entrant]) -> list[Pairing]:
    """One Swiss round: the games in board order (best scores first), then the bye."""
    order = standings_order(entrants)
    if len(order) < 2:
        return [Pairing((e.id,), bye=True) for e in order]
    field = _Field(order)
    strict, loose = Rules(), Rules(seat_conflicts=True)
    chosen = field.lowest_bye(strict, field.floor + POINT)
    if chosen is None:
        best = field.least_cost(loose)
        if best is None:
            raise NoPairing("no pairing without a repeat or a second bye")
        chosen = field.lowest_bye(strict, best + POINT) or field.lowest_bye(loose, best + POINT)
    assert chosen is not None  # the least cost is some pairing's
    return _round(chosen)


class _Field:
    """One round's field in standings order; each bye choice's cheapest
    pairing is computed once."""

    def __init__(self, order: list[Entrant]) -> None:
        self.order = order
        self.odd = len(order) % 2 == 1
        self.large = len(order) > FULL_GRAPH_UP_TO
        self.byes = [i for i in reversed(range(len(order))) if not order[i].had_bye]
        self.own = bye_bounds(order) if self.odd else [lower_bound(order)]
        # A lower bound on every pairing (over all bye choices).
        self.floor = min((self.own[i] for i in self.byes), default=0) if self.odd else self.own[0]
        self.tries: dict[tuple[int | None, Rules], Try | None] = {}

    def lowest_bye(self, rules: Rules, limit: int) -> Try | None:
        """The pairing costing at most ``limit`` with the lowest-ranked bye."""
        for index in self.byes if self.odd else [None]:
            tried = self.pairing(index, rules)
            if tried is not None and tried.cost <= limit:
                return tried
            if self.large and tried is not None and tried.cost <= self.own[index or 0] + POINT:
                return tried  # large fields: within a point of the best with this bye
            if self.large and index is not None and self.byes.index(index) + 1 >= BYE_TRIES:
                break
        return None

    def least_cost(self, rules: Rules) -> int | None:
        """The least cost over all bye choices: exact up to ``FULL_GRAPH_UP_TO``
        players, on larger fields the best of the first few bye choices."""
        if not self.odd:
            tried = self.pairing(None, rules)
            return None if tried is None else tried.cost
        if not self.large:
            return least_cost_with_bye(self.order, rules, self.floor)
        found = [self.pairing(i, rules) for i in self.byes[:BYE_TRIES]]
        return min((t.cost for t in found if t is not None), default=None)

    def pairing(self, index: int | None, rules: Rules) -> Try | None:
        """The cheapest pairing with ``order[index]`` on the bye (None: no bye)."""
        key = (index, rules)
        if key not in self.tries:
            rest = self.order if index is None else self.order[:index] + self.order[index + 1 :]
            pairs = cheapest(rest, rules)
            bye = None if index is None else self.order[index]
            self.tries[key] = None if pairs is None else Try(pairs_cost(pairs), pairs, bye)
        return self.tries[key]


def _round(chosen: Try) -> list[Pairing]:
    games = [Pairing(seat_order(a, b, board)) for board, (a, b) in enumerate(chosen.pairs)]
    return games if chosen.bye is None else [*games, Pairing((chosen.bye.id,), bye=True)]


def swiss_cost(pairings: Sequence[Pairing], scores: dict[int, float]) -> float:
    """The sum of score differences over a round's games (byes cost nothing)."""
    return sum(abs(scores[p.players[0]] - scores[p.players[1]]) for p in pairings if not p.bye)
