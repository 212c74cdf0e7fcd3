"""Idle API streams against idle game sockets, in one run on one server.

Starts one Daphne (the site, on a throwaway SQLite file and the in-memory
channel layer, the embedded default), creates one running Halma game and
token holders, then in turn holds N game sockets open (anonymous spectators
pinging every 10 s with their version, as the game page does) and N game
streams (``GET /api/stream/games/<id>/`` with personal tokens: the server
writes a keep-alive line to each at least every 10 s), each for D seconds.
For each it prints the server's RSS growth per connection and its CPU over
the idle window (% of a core, and per connection per minute), the lines the
streams received per second, and, with ``--postgres``, the database's
transactions per second over the window.

  .venv/bin/python bench/idle_streams.py                 # 1000 each, 30 s
  .venv/bin/python bench/idle_streams.py -n 200 --duration 15
  .venv/bin/python bench/idle_streams.py --kinds events quiet -n 500 \
      --postgres postgres://postgres@127.0.0.1:5432/postgres --redis redis://127.0.0.1:6379/0

``events`` holds N ``/api/stream/events/`` streams; ``quiet`` holds nothing
(the same server's idle baseline, for the transactions its loops cost).
``--processes 4`` starts four servers on the same database and Redis (the
connections go to the first; CPU is all four's): the background loops run
in one of them at a time (their leases), so the database should see what
one process costs.
With ``--postgres`` the site runs on a throwaway database there (and on
Redis with ``--redis``), production-like: every background loop on.

It measures; it never fails a test run. The client shares the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.idle import Transactions, proc_cpu, proc_rss, start_server, stop_server  # noqa: E402

PY = str(ROOT / ".venv" / "bin" / "python")
PER_ACCOUNT = 8  # the product's cap: streams spread over accounts


def database_env(args: argparse.Namespace) -> dict[str, str]:
    """A fresh SQLite file, or a fresh database on ``--postgres``; Redis with ``--redis``."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH"):
        env.pop(name, None)
    if args.postgres:
        import psycopg

        name = f"bench_idle_streams_{os.getpid()}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
        env["DATABASE_URL"] = urlparse(args.postgres)._replace(path=f"/{name}").geturl()
    else:
        env["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "idle_streams.sqlite3")
    if args.redis:
        env.update(REDIS_URL=args.redis, CHANNEL_PREFIX=f"idlestreams{os.getpid()}")
    return env


def prepare(env: dict[str, str], accounts: int) -> dict[str, Any]:
    """Migrate the fresh database; one running game; tokens of ``accounts`` users."""
    subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from accounts.tokens import token_create
    from lobby.services import table_create, table_join

    users = get_user_model().objects
    white, black = users.create_user("white"), users.create_user("black")
    game = table_create(host=white, ruleset="halma", clock={"kind": "none"})
    table_join(game_id=game.pk, user=black)
    secrets = [
        token_create(user=users.create_user(f"reader{i}"), name="bench", scopes=["read"])[1]
        for i in range(accounts)
    ]
    return {"game": game.pk, "secrets": secrets}


async def hold_sockets(port: int, game: int, n: int, stop: asyncio.Event):
    import websockets

    async def one() -> None:
        url = f"ws://127.0.0.1:{port}/ws/game/{game}/"
        async with websockets.connect(
            # No protocol-level pings: the page's own ping every 10 s is the load.
            url,
            origin="http://127.0.0.1",
            max_size=None,
            open_timeout=120,
            ping_interval=None,
        ) as ws:
            version = json.loads(await ws.recv())["state"]["version"]
            opened.append(1)
            while not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), 10)
                except TimeoutError:
                    await ws.send(json.dumps({"type": "ping", "version": version}))

    opened: list[int] = []
    tasks = await paced([one for _ in range(n)], opened)
    return len(opened), tasks


LINES = [0]  # lines the streams received (an empty keep-alive line counts)


async def hold_streams(port: int, path: str, secrets: list[str], n: int, stop: asyncio.Event):
    async def one(secret: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {secret}\r\n\r\n"
            ).encode()
        )
        await reader.readuntil(b"\r\n\r\n")
        opened.append(1)
        while not stop.is_set():
            chunk = asyncio.ensure_future(reader.read(4096))
            done, _ = await asyncio.wait(
                [chunk, asyncio.ensure_future(stop.wait())], return_when=asyncio.FIRST_COMPLETED
            )
            if chunk not in done:
                chunk.cancel()
            elif not chunk.result():
                break
            else:  # chunked encoding: a line is its payload's newline
                LINES[0] += chunk.result().count(b"\n\r\n")
        writer.close()

    opened: list[int] = []
    starts = [lambda i=i: one(secrets[i // PER_ACCOUNT]) for i in range(n)]
    tasks = await paced(starts, opened)
    return len(opened), tasks


BATCH = 50  # connections opened at once: each reads its game in the server's thread pool


async def paced(starts: list, opened: list[int], timeout: float = 300) -> list[asyncio.Task]:
    """Open the connections ``BATCH`` at a time (as pages arrive, not all at
    one instant); the tasks, once each has opened or failed."""
    tasks: list[asyncio.Task] = []
    until = time.monotonic() + timeout
    for first in range(0, len(starts), BATCH):
        batch = [asyncio.create_task(start()) for start in starts[first : first + BATCH]]
        tasks += batch
        goal = min(first + BATCH, len(starts))
        while len(opened) + sum(t.done() for t in tasks) < goal and time.monotonic() < until:
            await asyncio.sleep(0.05)  # the bench's own pacing, not a test's wait
    return tasks


async def hold_nothing(stop: asyncio.Event) -> tuple[int, list[asyncio.Task]]:
    return 0, []


async def measure(
    kind: str, pid: int, hold, duration: float, xacts: Any, others: tuple[int, ...] = ()
) -> dict[str, float]:
    """One kind's window; CPU is the server's plus that of ``others`` (the
    idle processes beside it, ``--processes``)."""
    stop = asyncio.Event()
    rss0 = proc_rss(pid)
    opened, tasks = await hold(stop)
    await asyncio.sleep(12)  # one ping / keep-alive round before the window
    cpu0, t0, lines0 = sum(map(proc_cpu, (pid, *others))), time.monotonic(), LINES[0]
    tx0 = xacts.read() if xacts else 0
    await asyncio.sleep(duration)
    cpu = sum(map(proc_cpu, (pid, *others))) - cpu0
    elapsed = time.monotonic() - t0
    tx = (xacts.read() - tx0) / elapsed if xacts else float("nan")
    lines = (LINES[0] - lines0) / elapsed
    rss = proc_rss(pid)
    stop.set()
    ended = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [repr(e)[:120] for e in ended if isinstance(e, BaseException)]
    if failures:
        print(f"{kind}: {len(failures)} failed to open or hold, e.g. {failures[0]}")
    await asyncio.sleep(3)  # let the server see them go
    return {
        "kind": kind,
        "open": opened,
        "rss_kb_per_conn": (rss - rss0) / 1024 / max(opened, 1),
        "cpu_pct": 100 * cpu / elapsed,
        "cpu_ms_per_conn_min": 1000 * cpu / elapsed * 60 / max(opened, 1),
        "lines_per_s": lines,
        "db_tx_per_s": tx,
    }


async def run(args: argparse.Namespace, env: dict[str, str], plan: dict[str, Any]) -> None:
    env = {
        **env,
        "SOCKETS_PER_ADDRESS": str(10 * args.n),
        "STREAMS_PER_ADDRESS": str(10 * args.n),
    }
    if args.postgres:
        env["DJANGO_DEBUG"] = "false"
    servers = [start_server("config.asgi:application", env) for _ in range(args.processes)]
    (proc, port), extra = servers[0], tuple(p.pid for p, _ in servers[1:])
    xacts = Transactions(env["DATABASE_URL"]) if args.postgres else None
    try:
        pid, game, secrets = proc.pid, plan["game"], plan["secrets"]
        # The loops start with a process's first request (Daphne has no lifespan events).
        for _, each in servers:
            urllib.request.urlopen(f"http://127.0.0.1:{each}/api/rulesets/", timeout=60).read()
        holds = {
            "sockets": lambda s: hold_sockets(port, game, args.n, s),
            "streams": lambda s: hold_streams(
                port, f"/api/stream/games/{game}/", secrets, args.n, s
            ),
            "events": lambda s: hold_streams(port, "/api/stream/events/", secrets, args.n, s),
            "quiet": hold_nothing,
        }
        results = [
            await measure(kind, pid, holds[kind], args.duration, xacts, extra)
            for kind in args.kinds
        ]
    finally:
        for each, _ in servers:
            stop_server(each)
    print(
        f"{'idle':8} {'open':>6} {'RSS/conn':>10} {'CPU %':>7} {'CPU ms/conn/min':>16}"
        f" {'lines/s':>8} {'db tx/s':>8}"
    )
    for r in results:
        print(
            f"{r['kind']:8} {r['open']:>6} {r['rss_kb_per_conn']:>8.1f}kB"
            f" {r['cpu_pct']:>7.2f} {r['cpu_ms_per_conn_min']:>16.3f}"
            f" {r['lines_per_s']:>8.1f} {r['db_tx_per_s']:>8.2f}"
        )
    print(json.dumps(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="connections of each kind")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument(
        "--kinds",
        nargs="+",
        default=["sockets", "streams"],
        choices=["sockets", "streams", "events", "quiet"],
        help="what to hold, in this order (a later kind may reuse memory an earlier freed)",
    )
    parser.add_argument("--postgres", default="", help="a PostgreSQL server's URL")
    parser.add_argument("--redis", default="", help="a Redis URL for the channel layer")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on the same database (with --redis); connections go to "
        "the first, CPU is all of theirs",
    )
    args = parser.parse_args()
    env = database_env(args)
    try:
        plan = prepare(env, -(-args.n // PER_ACCOUNT))  # the ORM, before the loop runs
        asyncio.run(run(args, env, plan))
    finally:
        if args.postgres:
            drop_database(args.postgres, env["DATABASE_URL"])


def drop_database(server: str, url: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {urlparse(url).path.lstrip('/')} WITH (FORCE)")


if __name__ == "__main__":
    main()
