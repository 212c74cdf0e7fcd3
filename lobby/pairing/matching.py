"""The cheapest pairing of a Swiss field: least sum of score differences,
then fewest seat conflicts, then nearest the Dutch partner, then fewest
unwanted seats.

Scores are points on a line, so a pairing costs the sum, over the gaps
between neighbouring scores in standings order, of gap x games across it;
a gap with an odd number of players above it is crossed at least once. That
sum is a lower bound, and the greedy first pairing usually meets it: then it
is proven cheapest and no matching runs. Otherwise networkx's blossom
(``max_weight_matching``, exact) pairs a sparse graph: each player with the
``window`` nearest in standings order, doubled until the result is proven
cheapest (it meets the bound, or no left-out edge costs less than it, or the
graph is full). Fields over ``FULL_GRAPH_UP_TO`` stop widening once the result
is within a point of the bound (so of the best), which keeps 1,000 players
fast; blossom is cubic in pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from .greedy import Pairs, Rules, first_pairing
from .seats import conflict, unwanted
from .types import Entrant

FULL_GRAPH_UP_TO = 160  # players: widened to the full graph when the bound is not met
REPAIR_UP_TO = 600  # players: longer greedy stretches are left as they are
FIRST_WINDOW = 8  # standings places each side a first sparse graph reaches
POINT = 2  # costs are in half points


def half_points(score: float) -> int:
    doubled = score * 2
    if doubled != int(doubled):
        raise ValueError(f"a Swiss score is a multiple of half a point, not {score}")
    return int(doubled)


def pairs_cost(pairs: Pairs) -> int:
    """The sum of score differences, in half points."""
    return sum(abs(half_points(a.score) - half_points(b.score)) for a, b in pairs)


def _gaps(order: Sequence[Entrant]) -> list[int]:
    """Half points between each player and the next in standings order."""
    h = [half_points(e.score) for e in order]
    return [h[i] - h[i + 1] for i in range(len(h) - 1)]


def lower_bound(order: Sequence[Entrant]) -> int:
    """Gaps with an odd number of players above: each is crossed by a game."""
    return sum(gap for i, gap in enumerate(_gaps(order)) if (i + 1) % 2)


def bye_bounds(order: Sequence[Entrant]) -> list[int]:
    """``lower_bound`` of the field without player ``j``, for every ``j``: the
    gaps below ``j`` lose a player above them, so their parity turns."""
    gaps = _gaps(order)
    odd = [gap if (c + 1) % 2 else 0 for c, gap in enumerate(gaps)]
    even = [gap - o for gap, o in zip(gaps, odd, strict=True)]
    above = [0, *accumulate(odd)]  # odd gaps before cut j
    below = [*reversed([*accumulate(reversed(even))]), 0]  # even gaps from cut j on
    return [above[j] + below[j] for j in range(len(order))]


def cheapest(order: list[Entrant], rules: Rules) -> Pairs | None:
    """The cheapest pairing of ``order`` (standings order) under ``rules``;
    None when there is none."""
    bound = lower_bound(order)
    fast = first_pairing(order, rules)
    if fast is not None and pairs_cost(fast) == bound:
        return fast
    if fast is not None and len(order) > FULL_GRAPH_UP_TO:
        fast = _repair(order, rules, fast)
        if pairs_cost(fast) <= bound + POINT:
            return fast
    return _widening(order, rules, bound)


def _repair(order: list[Entrant], rules: Rules, fast: Pairs) -> Pairs:
    """Large fields: the greedy pairing cut where no game crosses from one
    place to the next, and each stretch costing more than its own bound
    re-paired (up to ``REPAIR_UP_TO`` players; exactly up to ``FULL_GRAPH_UP_TO``)."""
    place = {e.id: i for i, e in enumerate(order)}
    crossing = [0] * len(order)
    for a, b in fast:
        i, j = sorted((place[a.id], place[b.id]))
        crossing[i] += 1
        crossing[j] -= 1
    repaired: Pairs = []
    start = 0
    for end, games in enumerate(accumulate(crossing)):
        if games:
            continue
        stretch = order[start : end + 1]
        ids = {e.id for e in stretch}
        mine = [(a, b) for a, b in fast if a.id in ids]
        bound = lower_bound(stretch)
        if pairs_cost(mine) > bound and len(stretch) <= REPAIR_UP_TO:
            mine = _widening(stretch, rules, bound) or mine
        repaired += mine
        start = end + 1
    return sorted(repaired, key=lambda pair: place[pair[0].id])


def _widening(order: list[Entrant], rules: Rules, bound: int) -> Pairs | None:
    n = len(order)
    window = FIRST_WINDOW
    while True:
        found = _blossom(order, rules, window)
        full = window >= n - 1
        if found is not None:
            cost = pairs_cost(found)
            if full or cost <= max(bound, _left_out(order, window)):
                return found
            if n > FULL_GRAPH_UP_TO and cost <= bound + POINT:
                return found
        elif full:
            return None
        window *= 2


def least_cost_with_bye(order: list[Entrant], rules: Rules, bound: int) -> int | None:
    """The cheapest cost over every bye choice (a player without a bye sits
    out), exact; None when no bye choice leaves a pairing."""
    window = FIRST_WINDOW
    while True:
        found = _blossom(order, rules, window, byes=True)
        full = window >= len(order) - 1
        if found is not None:
            cost = pairs_cost(found)
            if full or cost <= max(bound, _left_out(order, window)):
                return cost
        elif full:
            return None
        window *= 2


def _left_out(order: Sequence[Entrant], window: int) -> int:
    """The least score difference of two players more than ``window`` places
    apart: a pairing using an edge the sparse graph left out costs that much."""
    h = [half_points(e.score) for e in order]
    far = [h[i] - h[i + window + 1] for i in range(len(h) - window - 1)]
    return min(far, default=0)


def _blossom(order: list[Entrant], rules: Rules, window: int, byes: bool = False) -> Pairs | None:
    """The cheapest perfect pairing on the sparse graph (None: it has none).
    ``byes``: one more node pairs with any player without a bye."""
    import networkx as nx  # here, not at the start (tests/test_start_cost.py)

    n = len(order)
    weigh = _Weights(order)
    graph = nx.Graph()
    for i in range(n):
        for j in range(i + 1, min(n, i + window + 1)):
            if rules.allows(order[i], order[j]):
                graph.add_edge(i, j, weight=weigh(i, j))
    if byes:
        graph.add_weighted_edges_from((i, n, weigh.big) for i in range(n) if not order[i].had_bye)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != n + byes:
        return None
    pairs = sorted((min(a, b), max(a, b)) for a, b in matched)
    return [(order[a], order[b]) for a, b in pairs if b < n]


class _Weights:
    """Integer edge weights: a larger weight is a cheaper game. Each term
    outweighs every later one summed over a whole round, so a half point of
    score difference always counts more than any number of tie-breaks."""

    def __init__(self, order: Sequence[Entrant]) -> None:
        n = len(order)
        self.order = order
        self.h = [half_points(e.score) for e in order]
        self.place: list[int] = []  # place inside the score group
        self.size: list[int] = []  # the score group's size
        start = 0
        for i in range(n + 1):
            if i == n or self.h[i] != self.h[start]:
                self.place += range(i - start)
                self.size += [i - start] * (i - start)
                start = i
        self.seat = n + 1  # > every unwanted seat of a round summed
        self.conflict = self.seat * (n + 1) * (n + 1)  # > every Dutch distance summed
        self.point = self.conflict * (n + 1)  # > every seat conflict summed
        self.big = self.point * (max(self.h, default=0) - min(self.h, default=0) + 1)

    def __call__(self, i: int, j: int) -> int:
        a, b = self.order[i], self.order[j]
        if self.h[i] == self.h[j]:  # the Dutch partner is half a group below
            dutch = abs(self.place[j] - self.place[i] - self.size[i] // 2)
        else:
            dutch = j - i
        cost = abs(self.h[i] - self.h[j]) * self.point + dutch * self.seat
        cost += self.conflict * conflict(a, b) + unwanted(a, b)
        return self.big - cost
