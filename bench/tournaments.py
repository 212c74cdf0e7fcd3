"""Time to pair one round of a 1,000-player Swiss (the bar: under 5 s; wall time,
so a loaded machine reads slower).

Plays rounds on paper with random results and times every round's pairing;
prints the figures and never fails. Run: ``.venv/bin/python -m bench.tournaments``.

With ``--db`` it also starts a real tournament of that many players in a
throwaway test database of its own (PostgreSQL with ``DATABASE_URL`` and
``TEST_DATABASE_NAME``): the time ``tournament_start`` takes to answer, and
the time the sweeper's round takes to pair round 1 and create and start its
games (seats, first events, clocks, notices), with the statements each sent.
"""

from __future__ import annotations

import random
import sys
import time

from lobby.pairing import Entrant, Pairing, pair_swiss

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
PLAYERS = int(ARGS[0]) if ARGS else 1000
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 9


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
    if "--db" in sys.argv:
        start_in_database(PLAYERS)


def start_in_database(players: int) -> None:
    """Round 1 of a real ``players``-player Swiss: pairing, games, notices."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["GAME_SWEEPER"] = "false"
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        _start(players, connection, CaptureQueriesContext)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _start(players: int, connection: object, capture: type) -> None:
    import os

    from django.contrib.auth import get_user_model

    from games.models import Game
    from lobby import tournaments as svc
    from lobby.models import TournamentPlayer

    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"t{n}", password="!") for n in range(players))
    creator = users[0]
    clock = {"kind": "realtime", "minutes": 10, "increment": 5}
    t = svc.tournament_create(
        creator=creator, name="Big", ruleset="halma", system="swiss", rounds=9, clock=clock
    )
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=t, user=u) for u in users if u.pk != creator.pk
    )
    with capture(connection) as answered:
        began = time.perf_counter()
        svc.tournament_start(tournament_id=t.pk, user=creator)
        answer = time.perf_counter() - began
    # A field of more than 200 is paired by the sweeper's tournament thread:
    # its round is what this times (nothing when the start paired it).
    with capture(connection) as queries:
        began = time.perf_counter()
        if os.environ.get("BENCH_PROFILE"):
            import cProfile

            cProfile.runctx(
                "svc.tournament_rounds_pair_due()", globals(), {"svc": svc}, sort="cumulative"
            )
        else:
            svc.tournament_rounds_pair_due()
        took = time.perf_counter() - began
    games = Game.objects.filter(status=Game.Status.ACTIVE).count()
    print(
        f"{players} players on {connection.vendor}: the start answered in {answer:.2f} s "
        f"({len(answered)} statements); round 1 created by the sweeper in {took:.2f} s "
        f"({games} games, {len(queries)} statements)"
    )


if __name__ == "__main__":
    main()
