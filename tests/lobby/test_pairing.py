"""The pure pairing module: Swiss properties and quality against brute force,
Berger tables, tables of 3-4, tie-breaks."""

from __future__ import annotations

import os
import random
from itertools import combinations

import pytest

from lobby.pairing import (
    Entrant,
    NoPairing,
    Result,
    berger_rounds,
    pair_swiss,
    pair_tables,
    standings,
    swiss_cost,
    table_points,
    table_sizes,
)

from .swiss_sim import after_round, best_cost, check_round


def play(games, rng: random.Random) -> dict[int, float]:
    points: dict[int, float] = {}
    for game in games:
        if game.bye:
            points[game.players[0]] = 1.0
            continue
        a, b = game.players
        outcome = rng.choice((0.0, 0.5, 1.0, 1.0, 0.0))
        points[a], points[b] = outcome, 1.0 - outcome
    return points


@pytest.mark.parametrize("seed", range(int(os.environ.get("PAIRING_SEEDS", "60"))))
def test_swiss_rounds_keep_the_rules_and_are_near_the_best_pairing(seed):
    rng = random.Random(seed)
    size = rng.randint(3, 11)
    rounds = rng.randint(1, min(size - 1, 6))
    entrants = [Entrant(id=i, rank=i) for i in range(size)]
    for _ in range(rounds):
        best = best_cost(entrants)
        if best == float("inf"):  # a dead end: the tournament stops there
            with pytest.raises(NoPairing):
                pair_swiss(entrants)
            return
        games = pair_swiss(entrants)
        # seats are kept whenever a pairing within the point keeps them
        check_round(entrants, games, seats=best_cost(entrants, seats=True) <= best + 1)
        scores = {e.id: e.score for e in entrants}
        assert swiss_cost(games, scores) <= best + 1
        entrants = after_round(entrants, games, play(games, rng))


def test_round_one_pairs_top_half_against_bottom_half():
    games = pair_swiss([Entrant(id=i, rank=i) for i in range(8)])
    assert [sorted(g.players) for g in games] == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert [g.players[0] for g in games] == [0, 5, 2, 7]  # first seats alternate by board


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    entrants = [Entrant(id=i, rank=i, score=1.0 if i < 2 else 0.0) for i in range(5)]
    entrants[4] = Entrant(id=4, rank=4, had_bye=True, score=1.0)
    games = pair_swiss(entrants)
    assert [g.players for g in games if g.bye] == [(3,)]


def test_a_large_swiss_keeps_the_rules_every_round():
    rng = random.Random(7)
    entrants = [Entrant(id=i, rank=i) for i in range(101)]
    for _ in range(7):
        games = pair_swiss(entrants)
        check_round(entrants, games)
        entrants = after_round(entrants, games, play(games, rng))


@pytest.mark.parametrize("size", [2, 3, 4, 7, 10])
@pytest.mark.parametrize("double", [False, True])
def test_berger_rounds_meet_everyone_once_or_twice_with_seats_swapped(size, double):
    rounds = berger_rounds(list(range(size)), double=double)
    assert len(rounds) == (size - 1 + size % 2) * (2 if double else 1)
    met: dict[tuple[int, int], int] = {}
    firsts = dict.fromkeys(range(size), 0)
    for games in rounds:
        assert sorted(p for g in games for p in g.players) == list(range(size))
        for game in games:
            if not game.bye:
                met[game.players] = met.get(game.players, 0) + 1
                firsts[game.players[0]] += 1
    for a, b in combinations(range(size), 2):
        if double:
            assert met.get((a, b)) == 1 and met.get((b, a)) == 1
        else:
            assert met.get((a, b), 0) + met.get((b, a), 0) == 1
    games_each = size - 1
    if not double:
        assert all(abs(2 * f - games_each) <= 2 for f in firsts.values())


def test_tables_are_even_largest_first_and_nobody_sits_out():
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(9, 3) == [3, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    with pytest.raises(ValueError):
        table_sizes(1, 4)


def test_tables_group_leaders_avoid_repeats_and_rotate_seats():
    entrants = [Entrant(id=i, rank=i, score=float(10 - i)) for i in range(8)]
    tables = pair_tables(entrants, 4)
    assert [sorted(t.players) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # 0-3 met already: the second place at table 1 goes to someone new if near
    met = [
        Entrant(id=i, rank=i, score=float(10 - i), opponents=frozenset({0, 1, 2, 3} - {i}))
        for i in range(4)
    ] + [Entrant(id=i, rank=i, score=float(10 - i)) for i in range(4, 8)]
    first = pair_tables(met, 4)[0]
    assert 0 in first.players and sum(1 for p in first.players if p >= 4) >= 2
    rotated = [Entrant(id=i, rank=i, seats=(i,)) for i in range(4)]
    assert pair_tables(rotated, 4)[0].players == (3, 2, 1, 0)


def test_table_points_follow_the_finishing_order_and_ties_share():
    assert table_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert table_points([2, 1, 3]) == [1, 2, 0]
    assert table_points([1, 1, 3, 4]) == [2.5, 2.5, 1, 0]
    assert table_points([1, 2, 3], scheme=[5, 2]) == [5, 2, 0]


def test_standings_break_ties_by_buchholz_then_sonneborn_berger():
    results = [
        Result({0: 1.0, 1: 0.0}),
        Result({2: 1.0, 3: 0.0}),
        Result({0: 0.0, 2: 1.0}),
        Result({1: 1.0, 3: 0.0}),
    ]
    rows = standings([0, 1, 2, 3], results)
    assert [(r.id, r.points) for r in rows] == [(2, 2.0), (0, 1.0), (1, 1.0), (3, 0.0)]
    assert rows[1].tiebreaks == (3.0, 1.0)  # 0 met 1 (1 pt) and 2 (2 pts); beat 1
    assert rows[2].tiebreaks == (1.0, 0.0)
