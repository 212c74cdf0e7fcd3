"""Time to pair one round of a 1,000-player Swiss (the bar: under 5 s; wall time,
so a loaded machine reads slower).

Plays rounds on paper with random results and times every round's pairing;
prints the figures and never fails. Run: ``.venv/bin/python -m bench.tournaments``.
"""

from __future__ import annotations

import random
import sys
import time

from lobby.pairing import Entrant, Pairing, pair_swiss

PLAYERS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 9


def next_entrants(
    entrants: list[Entrant], games: list[Pairing], rng: random.Random
) -> list[Entrant]:
    by_id = {e.id: e for e in entrants}
    out = []
    for game in games:
        result = 1.0 if game.bye else rng.choice((0.0, 0.5, 1.0))
        for seat, player in enumerate(game.players):
            e = by_id[player]
            points = result if seat == 0 else 1.0 - result
            out.append(
                Entrant(
                    id=e.id,
                    score=e.score + points,
                    rank=e.rank,
                    opponents=e.opponents | {p for p in game.players if p != player},
                    had_bye=e.had_bye or game.bye,
                    seats=e.seats if game.bye else (*e.seats, seat),
                )
            )
    return out


def main() -> None:
    rng = random.Random(1)
    entrants = [Entrant(id=i, rank=i) for i in range(PLAYERS)]
    worst = 0.0
    for number in range(1, ROUNDS + 1):
        started = time.perf_counter()
        games = pair_swiss(entrants)
        took = time.perf_counter() - started
        worst = max(worst, took)
        print(f"round {number}: {len(games)} pairings in {took:.3f} s")
        entrants = next_entrants(entrants, games, rng)
    print(f"{PLAYERS} players: slowest round paired in {worst:.3f} s (bar: < 5 s)")


if __name__ == "__main__":
    main()
