"""Swiss rounds on fields over 14 players checked against an exact reference:
networkx's blossom on the FULL graph (every pair that has not met, a bye
node for odd fields), independent of the module's sparse graphs and bounds."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from lobby.pairing import Entrant, NoPairing, pair_swiss, swiss_cost
from lobby.pairing.seats import conflict

from .swiss_sim import after_round, check_round
from .test_pairing import play


def reference_cost(entrants: list[Entrant], seats: bool = False) -> float:
    """The least sum of score differences with no repeat and no second bye
    (``seats``: nor two who must take the same seat); inf when none."""
    graph = nx.Graph()
    big = 1 + 2 * int(max(e.score for e in entrants))
    for i, a in enumerate(entrants):
        for b in entrants[i + 1 :]:
            if b.id not in a.opponents and not (seats and conflict(a, b)):
                graph.add_edge(a.id, b.id, weight=big - int(2 * abs(a.score - b.score)))
        if len(entrants) % 2 and not a.had_bye:
            graph.add_edge(a.id, "bye", weight=big)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(entrants) + len(entrants) % 2:
        return float("inf")
    scores = {e.id: e.score for e in entrants}
    return sum(abs(scores[a] - scores[b]) for a, b in matched if "bye" not in (a, b))


@pytest.mark.parametrize("seed", range(10))
def test_every_round_is_within_a_point_of_the_exact_best(seed):
    rng = random.Random(seed)
    size = rng.randint(15, 120) if seed % 3 else rng.randint(15, 31)  # small: deep rounds
    rounds = min(size - 2, rng.randint(5, 12))
    entrants = [Entrant(id=i, rank=i) for i in range(size)]
    for _ in range(rounds):
        best = reference_cost(entrants)
        if best == float("inf"):
            with pytest.raises(NoPairing):
                pair_swiss(entrants)
            return
        games = pair_swiss(entrants)
        seats_kept = reference_cost(entrants, seats=True) <= best + 1
        check_round(entrants, games, seats=seats_kept)
        assert swiss_cost(games, {e.id: e.score for e in entrants}) <= best + 1
        entrants = after_round(entrants, games, play(games, rng))
