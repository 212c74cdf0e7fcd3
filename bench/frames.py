"""What a game's frames weigh: the first frame (hello, GET) and each event.

Run: .venv/bin/python bench/frames.py [--halma-plies 1000 --plies 40]

Plays one game of every ruleset through the services (random legal moves,
``services.play.game_act``) in a throwaway test database (SQLite by default;
PostgreSQL with DATABASE_URL and TEST_DATABASE_NAME set), capturing every
group message the publisher builds. Prints, per game: the bytes of the event
frames sent per event (every seat's and the spectators' frames together, the
spectators' frame alone, and the largest single frame: a seat to act gets its
legal actions), the server CPU the publisher spent per event
(``publish_game_event``: views, deltas, encoding), and the bytes and CPU of
the hello (websocket first frame) and of ``GET /api/games/<id>/`` at the end.
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
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_frames.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

SEATS = {"halma": 2, "daschax": 2, "malefiz": 2, "idiotenspiel": 2}


class Capture:
    """The publisher's group messages and its CPU per event."""

    def __init__(self) -> None:
        self.bytes: list[int] = []
        self.largest: list[int] = []
        self.spectator: list[int] = []
        self.cpu: list[float] = []
        self._sizes: list[int] = []

    def install(self) -> None:
        from games import publish

        original = publish.publish_game_event

        def send(group: str, message: dict) -> None:
            frames = dict(message.get("frames", {}))
            if "frame" in message:
                frames["s"] = message["frame"]
            if "s" in frames:
                self.spectator.append(len(frames["s"].encode()))
            self._sizes.extend(len(t.encode()) for t in frames.values())

        def timed(*args: object) -> None:
            self._sizes = []
            start = time.thread_time()
            original(*args)
            self.cpu.append(time.thread_time() - start)
            if self._sizes:
                self.bytes.append(sum(self._sizes))
                self.largest.append(max(self._sizes))

        publish._send = send
        publish.publish_game_event = timed


def play(ruleset: str, plies: int, seed: int) -> tuple[int, object]:
    """A running game of ``plies`` random moves; its id and a seated user."""
    from games.models import Game
    from games.rules import get_ruleset
    from games.services.play import game_act
    from tests.factories import make_user, started_game

    players = [make_user() for _ in range(SEATS[ruleset])]
    game = started_game(ruleset, players=players)
    rs, rng = get_ruleset(ruleset), random.Random(seed)
    script = halma_moves(plies) if ruleset == "halma" else None
    for ply in range(plies):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.to_act[0]
        if script is not None:
            action = script[ply][1]
        else:
            action = rs.random_action(rs.decode(game.state), seat, rng)
        game_act(game_id=game.pk, user=players[seat], version=game.version, action=action)
    return game.pk, players[0]


def halma_moves(plies: int) -> list[tuple[int, dict]]:
    """A Halma game that lasts: both sides march out, then shuffle back and
    forth (random play ends at move 50 with pieces left at home)."""
    from tests.games.halma_script import repetition_log

    return repetition_log(104, max(0, (plies - 104 + 3) // 4))


def first_frames(game_id: int, user: object) -> tuple[int, float, int, float]:
    from games.selectors.frames import dumps, hello_frame

    gc.collect()
    start = time.process_time()
    hello = dumps(hello_frame(game_id, user))
    hello_cpu = time.process_time() - start
    client = Client()
    client.force_login(user)
    client.get(f"/api/games/{game_id}/")  # the first request of a process imports and warms up
    start = time.process_time()
    body = client.get(f"/api/games/{game_id}/").content
    get_cpu = time.process_time() - start
    return len(hello.encode()), hello_cpu, len(body), get_cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--halma-plies", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=40)
    args = parser.parse_args()
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    old = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        print(
            f"{'game':<13}{'events':>7}{'B/event':>9}{'spect. B':>9}{'max frame':>10}{'CPU/event':>11}"
            f"{'hello B':>9}{'hello ms':>9}{'GET B':>8}{'GET ms':>8}"
        )
        capture = Capture()
        capture.install()
        for ruleset in SEATS:
            capture.__init__()
            plies = args.halma_plies if ruleset == "halma" else args.plies
            game_id, user = play(ruleset, plies, seed=1)
            hello, hello_cpu, got, get_cpu = first_frames(game_id, user)
            print(
                f"{ruleset:<13}{len(capture.bytes):>7}{statistics.mean(capture.bytes):>9.0f}"
                f"{statistics.mean(capture.spectator):>9.0f}"
                f"{max(capture.largest):>10}{statistics.mean(capture.cpu) * 1000:>9.2f}ms"
                f"{hello:>9}{hello_cpu * 1000:>9.1f}{got:>8}{get_cpu * 1000:>8.1f}"
            )
    finally:
        connection.creation.destroy_test_db(old, verbosity=0)


if __name__ == "__main__":
    main()
