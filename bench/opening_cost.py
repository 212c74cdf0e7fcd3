"""Server CPU per game socket opened and closed (issue 53), from /proc.

For each variant (a checkout and its environment, as bench/bars.py takes
them) a fresh Daphne on PostgreSQL + Redis, then bursts of game sockets: each
burst opens every socket of ``--games`` started games (two players, logged in
by their session cookies, and ``--spectators`` anonymous ones each), waits
for every hello, closes them all and waits for the watcher counts the closes
send (``WATCHERS_BATCH_SECONDS`` and a little). The server's CPU (user +
system, ``/proc/<pid>/stat``) over the burst, divided by its sockets, is the
CPU of one handshake: its opening and its close. The first burst warms the
process and is not counted. ``--rounds`` alternates the variants, so a
machine's drift spreads over all of them:

  .venv/bin/python bench/opening_cost.py \\
      --variant before,dir=/work/wt/before_hp,DATABASE_URL=postgres://.../bench_before \\
      --variant after --rounds 3

Needs PostgreSQL and Redis on 127.0.0.1 (``BENCH_DATABASE_URL``, default the
database ``bench``; a variant's own ``DATABASE_URL`` must be migrated). It
measures; it never fails a test run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bars import PY, bench_env, free_port, parse_variant, start, stop
from bench.ws_load import proc_cpu

SETTLE = 0.5  # seconds past the watcher window: the closes' counts are sent


def setup(cwd: Path, env: dict, games: int) -> list[dict]:
    """The checkout's own ws_load setup: users, started games, session cookies."""
    plan = Path(tempfile.mkstemp(suffix=".json")[1])
    subprocess.run(
        [
            PY,
            "bench/ws_load.py",
            "--setup-only",
            f"--games={games}",
            "--spares=0",
            f"--plan={plan}",
        ],
        cwd=cwd,
        env=env,
        check=True,
    )
    return json.loads(plan.read_text())


async def open_socket(port: int, game: int, cookie: str | None):
    from websockets.asyncio.client import connect

    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/game/{game}/",
        origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": cookie} if cookie else {},
        max_size=None,
        open_timeout=60,
        ping_interval=None,
        compression=None,
    )
    while json.loads(await ws.recv())["type"] != "hello":
        pass
    return ws


async def burst(port: int, plan: list[dict], spectators: int, concurrency: int) -> int:
    """Open every socket of the plan (``concurrency`` at once), then close them all."""
    limit = asyncio.Semaphore(concurrency)
    wanted = [(g["id"], cookie) for g in plan for cookie in [*g["cookies"], *([None] * spectators)]]

    async def one(game: int, cookie: str | None):
        async with limit:
            return await open_socket(port, game, cookie)

    sockets = await asyncio.gather(*(one(game, cookie) for game, cookie in wanted))
    await asyncio.gather(*(ws.close() for ws in sockets))
    return len(sockets)


async def measure(port: int, pid: int, args: argparse.Namespace, plan: list[dict]) -> list[float]:
    """ms of server CPU per handshake in each counted burst (the first warms up)."""
    settle = float(os.environ.get("WATCHERS_BATCH_SECONDS", "1.0")) + SETTLE
    figures = []
    for n in range(args.bursts + 1):
        before = proc_cpu(pid)
        count = await burst(port, plan, args.spectators, args.concurrency)
        await asyncio.sleep(settle)
        if n:
            figures.append(1000 * (proc_cpu(pid) - before) / count)
    return figures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", action="append", default=[], help="LABEL[,dir=D][,NAME=VALUE...]")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=25)
    p.add_argument("--spectators", type=int, default=2)
    p.add_argument("--bursts", type=int, default=5)
    p.add_argument("--concurrency", type=int, default=8, help="handshakes under way at once")
    args = p.parse_args()
    env = bench_env("opening")
    variants = [parse_variant(v) for v in args.variant or ["site"]]
    plans = {}
    for label, cwd, extra in variants:
        plans[label] = setup(cwd, {**env, **extra}, args.games)
    results: dict[str, list[list[float]]] = {label: [] for label, _, _ in variants}
    for _round in range(args.rounds):
        for label, cwd, extra in variants:
            port = free_port()
            server = start("config.asgi:application", port, {**env, **extra}, cwd)
            try:
                time.sleep(1)  # the sweeper's start-up work is not the handshakes'
                figures = asyncio.run(measure(port, server.pid, args, plans[label]))
            finally:
                stop(server)
            results[label].append(figures)
            print(f"# {label}: {statistics.median(figures):.2f} ms per handshake", flush=True)
    sockets = args.games * (2 + args.spectators)
    print()
    print(f"{sockets} sockets a burst, {args.bursts} bursts a round (one more to warm up)")
    print()
    print("| variant | ms server CPU per handshake (median of a round's bursts) | median |")
    print("|---|---|---|")
    for label, rounds in results.items():
        each = " / ".join(f"{statistics.median(r):.2f}" for r in rounds)
        every = statistics.median(x for r in rounds for x in r)
        print(f"| {label} | {each} | {every:.2f} |")


if __name__ == "__main__":
    main()
