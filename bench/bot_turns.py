"""How long a person waits for a bot's turn (issue 29, item 4), per game.

Run: .venv/bin/python bench/bot_turns.py [--turns 12] [--games malefiz,idiotenspiel] [--per-action]

In a throwaway test database (SQLite by default): a staff bot match per game
(one bot per seat, levels easy, medium, strong; the site's default
BOT_DELAY_MIN/MAX and BOT_POLL_SECONDS unless set in the environment), played
by the site's own bot worker (games/realtime/bot_worker.py) with its poll,
its process pool and its human-like pause, until ``--turns`` turns were
played. A turn is a run of actions by one seat; what a person waits for it is
the time from the end of the previous turn to the turn's last action (the
pause, the thinking and the turn's other actions). ``--per-action`` replays
the old worker: every action is found by a poll and pays its own pause.

It measures; it never fails (the exit code is 0 either way).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_bot_turns.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

import itertools  # noqa: E402

from asgiref.sync import sync_to_async  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

GAMES = {  # name: (ruleset, options)
    "halma": ("halma", {}),
    "malefiz": ("malefiz", {}),
    "daschax": ("daschax", {}),
    "idiotenspiel": ("idiotenspiel", {}),
    "idiotenspiel-marian": ("idiotenspiel", {"scenario": "marian", "map": "die_burg"}),
}
LEVELS = ["easy", "medium", "strong"]


def start_match(name: str) -> int:
    from games.rules import get_ruleset
    from lobby.services import table_create
    from tests.factories import make_user

    slug, options = GAMES[name]
    seats = get_ruleset(slug).min_seats
    host = make_user(f"staff-{name}", staff=True)
    game = table_create(
        host=host, ruleset=slug, options=options, seat_count=seats, bot={"levels": LEVELS[:seats]}
    )
    return game.pk


def turns_of(game_id: int) -> list[tuple[int, float]]:
    """(actions, seconds waited) per turn: runs of one seat's events."""
    from games.models import Event

    rows = list(
        Event.objects.filter(game_id=game_id, seat__isnull=False)
        .order_by("version")
        .values_list("seat", "created")
    )
    runs: list[list] = []
    for seat, created in rows:
        if runs and runs[-1][0] == seat:
            runs[-1][2], runs[-1][3] = created, runs[-1][3] + 1
        else:
            runs.append([seat, created, created, 1])
    return [
        (count, (end - prev[2]).total_seconds())
        for prev, (_, _, end, count) in itertools.pairwise(runs)
    ]


async def play(name: str, turns: int, stall: float = 60.0) -> list[tuple[int, float]]:
    from games.realtime.bot_worker import BotWorker

    game_id = await sync_to_async(start_match, thread_sensitive=False)(name)
    worker = BotWorker()
    worker.ensure_started()
    seen, quiet = 0, 0.0
    while quiet < stall:
        await asyncio.sleep(0.5)
        done = await sync_to_async(turns_of, thread_sensitive=False)(game_id)
        quiet = 0.0 if len(done) > seen else quiet + 0.5
        seen = len(done)
        if seen >= turns:
            break
    await worker.stop()
    return (await sync_to_async(turns_of, thread_sensitive=False)(game_id))[:turns]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--per-action", action="store_true", help="the old worker")
    args = parser.parse_args()
    setup_test_environment()
    if args.per_action:
        from games.services import bots

        bots.bot_turn_after = lambda game_id: None  # every action waits for a poll and pauses
    name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    from django.conf import settings

    print(
        f"pause {settings.BOT_DELAY_MIN}-{settings.BOT_DELAY_MAX} s, poll"
        f" {settings.BOT_POLL_SECONDS} s, {'per action (old)' if args.per_action else 'per turn'}"
    )
    try:
        for slug in args.games.split(","):
            turns = asyncio.run(play(slug, args.turns))
            if not turns:
                print(f"{slug:13} no turns played")
                continue
            waits = [w for _, w in turns]
            multi = [w for n, w in turns if n > 1]
            print(
                f"{slug:13} {len(turns)} turns, {statistics.mean(n for n, _ in turns):.1f}"
                f" actions a turn (most {max(n for n, _ in turns)}): wait median"
                f" {statistics.median(waits):.2f} s, max {max(waits):.2f} s"
                + (
                    f"; turns of several actions median {statistics.median(multi):.2f} s"
                    if multi
                    else ""
                )
            )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
