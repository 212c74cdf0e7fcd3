"""What a move answered by a conditional line costs, against a move without.

Run: .venv/bin/python bench/reply_cost.py [--games 40] [--other-lines 10000] [--path loop]

In a throwaway test database (SQLite by default; PostgreSQL with
DATABASE_URL and TEST_DATABASE_NAME set): ``--games`` Halma games where
White moved and holds a line answering Black's next move, as many without
lines, and ``--other-lines`` lines stored in other games. Black's move is
then made through ``play.game_act`` (the thread path's whole transaction:
lock, decision, the reply's decision, writes, commit and publishing), the
two kinds alternating; prints the wall time per move (median, mean), this
process's CPU time per move (median: steadier on a busy machine) and the
statements each sends. Compare two checkouts by running it in each.

``--path loop`` (PostgreSQL) makes Black's move as a socket's act does
(``realtime.acts.act``: on the event loop where it can be, else in a
thread): the CPU time counts every thread of the process, and it prints how
many moves of each kind went to the thread path (``play.game_act``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_reply_cost.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

WHITE = {"type": "move", "path": [[5, 9], [4, 9]]}


def waiting_game(plan: bool) -> tuple[int, object, dict]:
    """White moved; Black is to move; with ``plan`` White holds a line
    answering Black's first legal move. The game, Black, Black's move."""
    from games.rules import get_ruleset
    from games.services.conditional import conditional_save
    from games.services.play import game_act
    from tests.factories import make_user, started_game

    halma = get_ruleset("halma")
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    game_act(game_id=game.pk, user=white, version=1, action=WHITE)
    game.refresh_from_db()
    state = halma.decode(game.state)
    move = halma.legal_actions(state, 1)[0]
    after, _ = halma.apply(state, 1, move)
    if plan:
        reply = halma.legal_actions(after, 0)[0]
        conditional_save(game_id=game.pk, user=white, lines=[[move, reply]])
    return game.pk, black, move


def other_lines(count: int, game_id: int) -> None:
    from games.models import ConditionalPlan, Game

    fields = Game.objects.filter(pk=game_id).values().get()
    fields.pop("id")
    games = Game.objects.bulk_create(
        [Game(**{**fields, "invite_code": f"bench{i}"}) for i in range(-(-count // 100))]
    )
    line = [WHITE, WHITE]
    rows = [ConditionalPlan(game=g, seat=s, lines=[line]) for g in games for s in range(100)]
    ConditionalPlan.objects.bulk_create(rows[:count], batch_size=1000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--other-lines", type=int, default=10_000)
    parser.add_argument("--path", choices=["thread", "loop"], default="thread")
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from games.models import Game
        from games.services.play import game_act

        pairs = [(waiting_game(True), waiting_game(False)) for _ in range(args.games)]
        other_lines(args.other_lines, pairs[0][0][0])
        times: dict[str, list[float]] = {"answered": [], "plain": []}
        cpu: dict[str, list[float]] = {"answered": [], "plain": []}
        statements: dict[str, int | str] = {}
        redone: dict[str, int] = {"answered": 0, "plain": 0}
        if args.path == "loop":
            _on_the_loop(pairs, times, cpu, redone)
            statements = {"answered": "-", "plain": "-"}
        for answered, plain in pairs:
            for kind, (game_id, black, move) in (("answered", answered), ("plain", plain)):
                if args.path == "thread":
                    with CaptureQueriesContext(connection) as queries:
                        start, start_cpu = time.perf_counter(), time.process_time()
                        game_act(game_id=game_id, user=black, version=2, action=move)
                        cpu[kind].append((time.process_time() - start_cpu) * 1000)
                        times[kind].append((time.perf_counter() - start) * 1000)
                    statements[kind] = len(queries.captured_queries)
                expected = 4 if kind == "answered" else 3
                assert Game.objects.get(pk=game_id).version == expected, kind
        print(
            f"{connection.vendor}, {args.path} path, {args.games} moves each,"
            f" {args.other_lines} other lines"
        )
        for kind, ms in times.items():
            print(
                f"{kind:9} wall median {statistics.median(ms):6.2f} ms  mean {statistics.mean(ms):6.2f}"
                f"  CPU median {statistics.median(cpu[kind]):6.2f} ms"
                f"  mean {statistics.mean(cpu[kind]):6.2f}  statements {statements[kind]}"
                + (f"  redone in a thread {redone[kind]}" if args.path == "loop" else "")
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _on_the_loop(pairs: list, times: dict, cpu: dict, redone: dict) -> None:
    """Black's moves through ``acts.act``, on one event loop (as Daphne's)."""
    import asyncio

    from games.realtime import acts
    from games.services import play
    from games.store import loop_pool

    usual = play.game_act
    kind_now = ["plain"]

    def counted(**kwargs: object) -> int:
        redone[kind_now[0]] += 1
        return usual(**kwargs)

    play.game_act = counted

    async def moves() -> None:
        await (await loop_pool.pool_for_this_loop()).wait()
        for answered, plain in pairs:
            for kind, (game_id, black, move) in (("answered", answered), ("plain", plain)):
                kind_now[0] = kind
                start, start_cpu = time.perf_counter(), time.process_time()
                await acts.act(game_id=game_id, user=black, version=2, action=move)
                cpu[kind].append((time.process_time() - start_cpu) * 1000)
                times[kind].append((time.perf_counter() - start) * 1000)
        await loop_pool.close_this_loop()

    try:
        asyncio.run(moves())
    finally:
        play.game_act = usual


if __name__ == "__main__":
    main()
