"""Idle API streams against idle game sockets, in one run on one server.

Starts one Daphne (the site, on a throwaway SQLite file and the in-memory
channel layer, the embedded default), creates one running Halma game and
token holders, then in turn holds N game sockets open (anonymous spectators
pinging every 10 s with their version, as the game page does) and N game
streams (``GET /api/stream/games/<id>/`` with personal tokens: the server
writes a keep-alive line to each at least every 10 s), each for D seconds.
For each it prints the server's RSS growth per connection and its CPU over
the idle window (% of a core, and per connection per minute).

  .venv/bin/python bench/idle_streams.py                 # 1000 each, 30 s
  .venv/bin/python bench/idle_streams.py -n 200 --duration 15

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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.idle import proc_cpu, proc_rss, start_server, stop_server  # noqa: E402

PY = str(ROOT / ".venv" / "bin" / "python")
PER_ACCOUNT = 8  # the product's cap: streams spread over accounts


def prepare(db: str, accounts: int) -> dict[str, Any]:
    """Migrate a fresh SQLite file; one running game; tokens of ``accounts`` users."""
    env = {**os.environ, "SQLITE_PATH": db, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    os.environ.update({"SQLITE_PATH": db, "DJANGO_SETTINGS_MODULE": "config.settings"})
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
    return {"game": game.pk, "secrets": secrets, "env": env}


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


async def hold_streams(port: int, game: int, secrets: list[str], n: int, stop: asyncio.Event):
    async def one(secret: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            (
                f"GET /api/stream/games/{game}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {secret}\r\n\r\n"
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


async def measure(kind: str, pid: int, hold, duration: float) -> dict[str, float]:
    stop = asyncio.Event()
    rss0 = proc_rss(pid)
    opened, tasks = await hold(stop)
    await asyncio.sleep(12)  # one ping / keep-alive round before the window
    cpu0, t0 = proc_cpu(pid), time.monotonic()
    await asyncio.sleep(duration)
    cpu, elapsed = proc_cpu(pid) - cpu0, time.monotonic() - t0
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
    }


async def run(args: argparse.Namespace, plan: dict[str, Any]) -> None:
    env = {
        **plan["env"],
        "SOCKETS_PER_ADDRESS": str(10 * args.n),
        "STREAMS_PER_ADDRESS": str(10 * args.n),
    }
    proc, port = start_server("config.asgi:application", env)
    try:
        pid, game = proc.pid, plan["game"]
        holds = {
            "sockets": lambda s: hold_sockets(port, game, args.n, s),
            "streams": lambda s: hold_streams(port, game, plan["secrets"], args.n, s),
        }
        order = ["streams", "sockets"] if args.streams_first else ["sockets", "streams"]
        results = [await measure(kind, pid, holds[kind], args.duration) for kind in order]
    finally:
        stop_server(proc)
    print(f"{'idle':8} {'open':>6} {'RSS/conn':>10} {'CPU %':>7} {'CPU ms/conn/min':>16}")
    for r in results:
        print(
            f"{r['kind']:8} {r['open']:>6} {r['rss_kb_per_conn']:>8.1f}kB"
            f" {r['cpu_pct']:>7.2f} {r['cpu_ms_per_conn_min']:>16.3f}"
        )
    print(json.dumps(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="connections of each kind")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument(
        "--streams-first",
        action="store_true",
        help="measure the streams first (the second kind may reuse memory the first freed)",
    )
    args = parser.parse_args()
    db = str(Path(tempfile.mkdtemp()) / "idle_streams.sqlite3")
    plan = prepare(db, -(-args.n // PER_ACCOUNT))  # the ORM, before the loop runs
    asyncio.run(run(args, plan))


if __name__ == "__main__":
    main()
