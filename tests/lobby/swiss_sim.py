"""A Swiss played on paper: the pairing module's properties checked every round.

Shared by the pure pairing tests and the end-to-end tournament test.
"""

from __future__ import annotations

from collections.abc import Sequence

from lobby.pairing import Entrant, Pairing
from lobby.pairing.seats import conflict


def check_round(entrants: Sequence[Entrant], games: Sequence[Pairing], seats: bool = True) -> None:
    """No repeat, everyone once, at most one bye each to the lowest ranked
    without one, seats never three in a row and counts within two."""
    by_id = {e.id: e for e in entrants}
    seen = [p for g in games for p in g.players]
    assert sorted(seen) == sorted(by_id), "everyone plays exactly once"
    byes = [g for g in games if g.bye]
    assert len(byes) == len(entrants) % 2
    for bye in byes:
        assert not by_id[bye.players[0]].had_bye, "a second bye"
    for game in games:
        if game.bye:
            continue
        a, b = game.players
        assert b not in by_id[a].opponents, f"{a} and {b} meet again"
        for seat, player in enumerate(game.players if seats else ()):
            history = (*by_id[player].seats, seat)
            assert abs(history.count(0) - history.count(1)) <= 2, f"{player}: {history}"
            assert history[-3:] not in ((0, 0, 0), (1, 1, 1)), f"{player}: {history}"


def best_cost(entrants: Sequence[Entrant], seats: bool = False) -> float:
    """The least sum of score differences of any pairing with no repeat and no
    second bye (brute force: small fields only); ``seats``: nor two players
    who both must take the same seat."""
    players = list(entrants)
    best = float("inf")

    def pair(rest: list[Entrant], cost: float) -> None:
        nonlocal best
        if cost >= best:
            return
        if not rest:
            best = cost
            return
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if other.id not in first.opponents and not (seats and conflict(first, other)):
                pair(others[:i] + others[i + 1 :], cost + abs(first.score - other.score))

    if len(players) % 2 == 0:
        pair(players, 0.0)
    else:
        for bye in players:
            if not bye.had_bye:
                pair([e for e in players if e.id != bye.id], 0.0)
    return best


def after_round(
    entrants: Sequence[Entrant], games: Sequence[Pairing], points: dict[int, float]
) -> list[Entrant]:
    """The entrants with this round's games and ``points`` added."""
    by_id = {e.id: e for e in entrants}
    out = []
    for game in games:
        for seat, player in enumerate(game.players):
            e = by_id[player]
            others = frozenset(p for p in game.players if p != player)
            out.append(
                Entrant(
                    id=e.id,
                    score=e.score + points[player],
                    rank=e.rank,
                    opponents=e.opponents | others,
                    had_bye=e.had_bye or game.bye,
                    seats=e.seats if game.bye else (*e.seats, seat),
                )
            )
    return out
