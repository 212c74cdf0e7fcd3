"""What one read of a finished game's replay, records and remis candidates costs.

Run: .venv/bin/python bench/replay_cost.py [--teams 20 --rounds 3] [--long-teams 4 --long-rounds 100]

Builds, in a throwaway test database (SQLite by default; PostgreSQL with
DATABASE_URL and TEST_DATABASE_NAME set), Hexenhalma campaigns through the
services (random valid orders on the arena board, every round resolved by the
sweeper) and a long Halma game played by bots, then times anonymous GETs
through Django's test client: the process CPU (``time.process_time``) and the
bytes of each answer. Paged endpoints are timed per page (the dearest page is
the figure that counts: no single request may cost much) and in total.

Playing the campaigns in this process leaves a heap far larger than a
server's, and a garbage collection is charged to whichever request happens
to trigger it (with the server's thresholds, config/asgi.py, one in a few
hundred requests, 0.1-0.5 s here): so the heap is frozen (``gc.freeze``) and
garbage is collected between the timed requests, not during them. The
figures are each request's own work.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_replay_cost.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402


def build_campaign(teams: int, rounds: int, seed: int) -> int:
    """A finished campaign of ``teams`` teams and ``rounds`` rounds; its id."""
    from games.models import Game
    from tests.factories import hexenhalma_campaign

    game = hexenhalma_campaign(rounds=rounds, teams=teams, board="arena", seed=seed)
    assert game.status == Game.Status.FINISHED, game.status
    return game.pk


def build_halma(plies: int) -> tuple[int, object]:
    """A running Halma game of ``plies`` random moves; its id and the user to move."""
    from games.models import Game
    from games.rules import get_ruleset
    from games.services.play import game_act
    from tests.factories import started_game

    game = started_game("halma")
    users = [s.user for s in game.seats.order_by("index")]
    rs, rng = get_ruleset("halma"), random.Random(plies)
    for _ in range(plies):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.to_act[0]
        action = rng.choice(rs.legal_actions(rs.decode(game.state), seat))
        game_act(game_id=game.pk, user=users[seat], version=game.version, action=action)
    game = Game.objects.get(pk=game.pk)
    return game.pk, users[game.to_act[0]] if game.to_act else users[0]


def timed_get(client: Client, url: str, ok: set[int] = frozenset({200})) -> tuple:
    gc.collect()
    gc.disable()
    start = time.process_time()
    response = client.get(url)
    body = response.content
    cpu = time.process_time() - start
    gc.enable()
    assert response.status_code in ok, (url, response.status_code, body[:300])
    return cpu, len(body), response.json(), response.status_code


def follow(client: Client, url: str, label: str) -> None:
    """GET ``url`` and every page after it; print the dearest page and the total.

    A page answered ``replay_pending`` is asked again once the worker's job
    (run here, as the server's worker would) is done; those are counted."""
    from games.realtime.sweeper import build_replays

    cpus, sizes, pages, pending = [], [], 0, 0
    while url:
        cpu, size, data, status = timed_get(client, url, {200, 503})
        cpus.append(cpu)
        sizes.append(size)
        if status == 503:
            pending += 1
            build_replays()
            continue
        pages += 1
        url = data.get("next") if isinstance(data, dict) else None
        if url and url.startswith("http"):
            url = url.split("testserver", 1)[1]
    print(
        f"  {label:<20} pages {pages:>4}  per page: median {statistics.median(cpus) * 1000:6.1f} ms"
        f", dearest {max(cpus) * 1000:6.1f} ms CPU, {max(sizes) / 1e6:5.2f} MB;"
        f"  all pages {sum(cpus):6.2f} s, {sum(sizes) / 1e6:6.2f} MB"
        + (f"; {pending} answered 'pending' first" if pending else "")
    )


def settle_heap() -> None:
    gc.collect()
    gc.freeze()


def measure_campaign(game_id: int, title: str) -> None:
    from games.models import Event, MatchRecord

    settle_heap()

    print(
        f"{title}: game {game_id}, {Event.objects.filter(game_id=game_id).count()} versions, "
        f"{MatchRecord.objects.filter(game_id=game_id).count()} match records"
    )
    client = Client()
    base = f"/api/games/{game_id}"
    client.get(f"{base}/replay/")  # the first read may build what later reads serve
    follow(client, f"{base}/replay/", "replay/ (spectator)")
    follow(client, f"{base}/replay/?seat=1", "replay/?seat=1")
    follow(client, f"{base}/records/", "records/")
    follow(client, f"{base}/records/?full=1", "records/?full=1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--teams", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--long-teams", type=int, default=4)
    parser.add_argument("--long-rounds", type=int, default=100)
    parser.add_argument("--plies", type=int, default=300)
    args = parser.parse_args()
    setup_test_environment()
    # The bench reads more pages than the read throttle lets one address.
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "reads": "1000000/s"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.ALLOWED_HOSTS = ["*"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:

        def ready(game_id: int) -> str:
            """What the server's worker does when a game ends; its CPU, also
            for a game stored before checkpoints (its rounds resolved again)."""
            try:
                from games.models import ReplayCheckpoint
                from games.services.internal import replay_checkpoints
            except ImportError:  # the code before replays were stored
                return "nothing to prepare"
            start = time.process_time()
            replay_checkpoints.replay_checkpoints_build(game_id)
            live = time.process_time() - start
            # The same game as if stored before checkpoints (the same states result).
            ReplayCheckpoint.objects.filter(game_id=game_id).delete()
            start = time.process_time()
            replay_checkpoints.replay_checkpoints_build(game_id)
            old = time.process_time() - start
            return (
                f"prepared once by the worker in {live:.2f} s CPU "
                f"({old:.2f} s for a game stored before checkpoints)"
            )

        for teams, rounds in ((args.teams, args.rounds), (args.long_teams, args.long_rounds)):
            start = time.process_time()
            game_id = build_campaign(teams, rounds, seed=teams * 1000 + rounds)
            built = time.process_time() - start
            print(f"(played in {built:.1f} s CPU; replay {ready(game_id)})")
            measure_campaign(game_id, f"Hexenhalma, {teams} teams x {rounds} rounds")
        game_id, to_move = build_halma(args.plies)
        settle_heap()
        client = Client()
        client.force_login(to_move)
        url = f"/api/games/{game_id}/remis/candidates/"
        first, again = timed_get(client, url)[0], timed_get(client, url)[0]  # found, cached
        print(
            f"Halma, {args.plies} plies: remis/candidates/ {first * 1000:.1f} ms CPU, "
            f"the same version again {again * 1000:.1f} ms"
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
