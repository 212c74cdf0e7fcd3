"""Position pictures under load (issue 47 item 6, issue 54 item 5).

Two figures:

1. CPU per PNG, per game, in this process: the old path (cairosvg) against
   the lean painter (frontend/pictures/raster.py), median of ``--repeat``.
2. A real Daphne (PostgreSQL + Redis, as deployed) answering "other
   requests" (a game page and ``GET /api/games/<id>/``, one at a time) with
   and without 50 clients asking for uncached PNGs at once, each from an
   address of its own (``X-Forwarded-For`` with ``TRUSTED_PROXY_COUNT=1``).
   Prints the other requests' median and p90, the pictures answered (drawn,
   throttled) and the server's CPU per drawn picture. Run once with the
   site's render throttle and once with it lifted (``PICTURE_RENDER_RATE``),
   so the pool alone is measured too.

    .venv/bin/python bench/pictures.py [--duration 15] [--workers 1]
        [--variant LABEL,dir=CHECKOUT,NAME=VALUE ...]

``--variant`` serves another checkout (``dir=``, e.g. an export of the commit
before) or other settings (``PICTURE_WORKERS=2``) in the same run. Needs
PostgreSQL and Redis on 127.0.0.1 (creates/uses the database
``bench_pictures``). It measures; it never fails a test run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import uuid
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_pictures")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DATABASE_URL"] = DB_URL
os.environ["GAME_SWEEPER"] = "false"

import aiohttp  # noqa: E402
import django  # noqa: E402

from bench.bars import DAPHNE, free_port, stop, wait_port  # noqa: E402

SEATS = {"hexenhalma": 3}
GAMES = ("halma", "malefiz", "daschax", "idiotenspiel", "hexenhalma")
CLIENTS = 50


def cpu_per_render(repeat: int) -> None:
    import cairosvg

    from frontend.pictures import PNG_WIDTH, raster, svg_of
    from games.rules import get_ruleset
    from games.selectors.positions import spectator_view
    from tests.factories import started_game

    print(f"CPU per PNG (800 px wide), median of {repeat}, this process:")
    print("| game | cairosvg (before) | painter (after) | PNG bytes before / after |")
    print("| --- | --- | --- | --- |")
    for slug in GAMES:
        game = started_game(slug, players=_players(slug))
        svg = svg_of(slug, spectator_view(game, None), get_ruleset(slug).title)
        old = partial(cairosvg.svg2png, bytestring=svg.encode(), output_width=PNG_WIDTH)
        new = partial(raster.png, svg, PNG_WIDTH)
        (before, old_png), (after, new_png) = _cpu(old, repeat), _cpu(new, repeat)
        print(
            f"| {slug} | {before:.1f} ms | {after:.1f} ms | {len(old_png):,} / {len(new_png):,} |"
        )


def _players(slug: str) -> list:
    from tests.factories import make_user

    return [make_user(f"bp{uuid.uuid4().hex[:12]}") for _ in range(SEATS.get(slug, 2))]


def _cpu(work, repeat: int) -> tuple[float, bytes]:
    out, times = work(), []
    for _ in range(repeat):
        start = time.process_time()
        out = work()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), out


def make_games(count: int) -> tuple[list[int], int]:
    """``count`` running games (copies of one per game, so every picture is
    drawn anew) and one real game for the other requests."""
    from games.models import Game
    from tests.factories import started_game

    templates = [started_game(slug, players=_players(slug)) for slug in GAMES[:4]]
    fields = [f.attname for f in Game._meta.concrete_fields if not f.primary_key]
    copies = []
    for i in range(count):
        template = templates[i % len(templates)]
        values = {f: getattr(template, f) for f in fields if f != "invite_code"}
        copies.append(Game(**values))
    made = Game.objects.bulk_create(copies, batch_size=500)
    return [g.pk for g in made], templates[0].pk


async def other_requests(base: str, game: int, stop_at: float) -> list[float]:
    """A game page and the game's API state in turn, one at a time."""
    times = []
    async with aiohttp.ClientSession() as session:
        urls = [f"{base}/g/{game}/", f"{base}/api/games/{game}/"]
        while time.monotonic() < stop_at:
            start = time.perf_counter()
            async with session.get(urls[len(times) % 2]) as response:
                await response.read()
                assert response.status == 200, response.status
            times.append(time.perf_counter() - start)
    return times


async def pictures(base: str, games: list[int], stop_at: float) -> dict[str, int]:
    """50 clients, each from an address of its own, each asking for one
    uncached PNG after another."""
    counts = {"drawn": 0, "cached": 0, "throttled": 0, "other": 0}
    queue = iter(games)

    async def client(n: int) -> None:
        headers = {"X-Forwarded-For": f"10.7.{n // 250}.{n % 250 + 1}"}
        async with aiohttp.ClientSession(headers=headers) as session:
            while time.monotonic() < stop_at:
                game = next(queue, None)
                if game is None:
                    return
                async with session.get(f"{base}/g/{game}/position.png") as response:
                    await response.read()
                    if response.status == 429:
                        counts["throttled"] += 1
                        await asyncio.sleep(0.5)  # a polite client waits a little
                    elif response.status != 200:
                        counts["other"] += 1
                    elif response.headers.get("X-Picture-Cache") == "hit":
                        counts["cached"] += 1
                    else:
                        counts["drawn"] += 1

    await asyncio.gather(*(client(n) for n in range(CLIENTS)))
    return counts


def process_cpu(pid: int) -> float:
    """CPU seconds of the server and its descendants (the picture workers)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    family, ticks = {pid}, 0
    for _ in range(4):  # server -> forkserver -> worker
        family |= {p for p, (parent, _) in stats.items() if parent in family}
    ticks = sum(stats[p][1] for p in family if p in stats)
    return ticks / os.sysconf("SC_CLK_TCK")


async def measure(base: str, game: int, games: list[int], pid: int, seconds: float) -> dict:
    idle_stop = time.monotonic() + seconds / 2
    idle = await other_requests(base, game, idle_stop)
    cpu = process_cpu(pid)
    busy_stop = time.monotonic() + seconds
    busy, counts = await asyncio.gather(
        other_requests(base, game, busy_stop), pictures(base, games, busy_stop)
    )
    cpu = process_cpu(pid) - cpu
    return {"idle": idle, "busy": busy, "counts": counts, "cpu": cpu}


def serve(label: str, cwd: Path, extra: dict, games: list[int], game: int, seconds: float) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": DB_URL,
        "REDIS_URL": REDIS_URL,
        "REDIS_PREFIX": f"benchpics{uuid.uuid4().hex[:8]}",  # nothing cached yet
        "CHANNEL_PREFIX": f"benchpics{os.getpid()}",
        "TRUSTED_PROXY_COUNT": "1",
        "GAME_SWEEPER": "0",
        "STATIC_ROOT": f"/tmp/bench-pictures-static-{abs(hash(str(cwd))) % 10**8}",
        **extra,
    }
    if not Path(env["STATIC_ROOT"], "staticfiles.json").exists():  # the pages' manifest
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=cwd,
            env=env,
            check=True,
        )
    log = open(f"/tmp/bench-pictures-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [DAPHNE, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=log,
    )
    try:
        wait_port(port)
        result = asyncio.run(measure(f"http://127.0.0.1:{port}", game, games, proc.pid, seconds))
    finally:
        stop(proc)
    idle, busy, counts = result["idle"], result["busy"], result["counts"]
    mid_idle, mid_busy = statistics.median(idle) * 1000, statistics.median(busy) * 1000
    p90 = statistics.quantiles(busy, n=10)[-1] * 1000
    per = result["cpu"] * 1000 / counts["drawn"] if counts["drawn"] else float("nan")
    print(
        f"| {label} | {mid_idle:.1f} ms | {mid_busy:.1f} ms (p90 {p90:.0f}) | "
        f"{mid_busy / mid_idle:.1f}x | {counts['drawn']} / {counts['throttled']} "
        f"/ {counts['other']} | {per:.0f} ms |",
        flush=True,
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=15, help="seconds under load")
    p.add_argument("--workers", type=int, default=1, help="PICTURE_WORKERS of this checkout")
    p.add_argument("--repeat", type=int, default=20, help="renders per game for the CPU table")
    p.add_argument("--variant", action="append", default=[], help="LABEL[,dir=D][,NAME=V...]")
    args = p.parse_args()
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-c", "create database bench_pictures"],
        capture_output=True,
        check=False,
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    django.setup()
    cpu_per_render(args.repeat)
    from bench.bars import parse_variant

    variants = [parse_variant(v) for v in args.variant] or [
        ("throttled", ROOT, {"PICTURE_WORKERS": str(args.workers)}),
        (
            "throttle lifted",
            ROOT,
            {"PICTURE_WORKERS": str(args.workers), "PICTURE_RENDER_RATE": "100000/min"},
        ),
    ]
    print(f"\nOther requests (game page, API state), {CLIENTS} clients drawing PNGs:")
    print("| variant | alone | with 50 drawing | ratio | drawn / 429 / other | CPU per drawn |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, cwd, extra in variants:
        games, game = make_games(int(args.duration * 120))
        serve(label, cwd, extra, games, game, args.duration)


if __name__ == "__main__":
    main()
