"""Issue 9's bars in one run: the site against the bare relay, same machine, same layer.

Starts (on free ports) one Daphne with the bare relay (bench/relay.py) and one
with the site, both on PostgreSQL + Redis, then drives each with
bench/ws_load.py: 200 groups/games of 4 sockets, closed loop (saturation) and
open loop. The open (paced) loop offers a fixed share of the relay's
saturation measured in the same run (``--paced-share``, 10 % by default: one
frame/move per group/game every ``games / (share * relay frames/s)`` seconds),
so on a busy machine it still measures latency, not queueing; ``--interval``
fixes the interval instead (2 s was the old default: 100 moves/s). The paced
phase lasts at least 8 intervals, so every game moves often enough. Prints the
figures and whether the bars hold:

  throughput at saturation >= 50% of the relay's; paced p99 < 25 ms;
  zero lost, doubled or out-of-order moves.

  .venv/bin/python bench/bars.py [--games 200] [--duration 20] [--runs 5]

With ``--runs N`` the whole set runs N times (fresh servers each time) and a
last table gives each run's figures and the medians, with the idle-sockets
bars of issue 54: the median of the site's paced p99 at most 2 times the
median paced p99 of the stock-consumer relay, and the site's saturation at
least 60 % of the relay's.

With ``--variant`` (repeatable) it measures several builds or settings of the
site in the same run instead, against the relay once: each variant is
``LABEL[,dir=CHECKOUT][,NAME=VALUE...]`` (a checkout of another commit to
serve, environment variables such as ``MOVES_ON_LOOP=0`` or
``DB_SERVER_SIDE_BINDING=1``; a checkout whose models differ needs its own
migrated database, ``DATABASE_URL=...``: its own bench/ws_load.py sets the
games up); ``--rounds`` repeats the variants in turn, so a drift of the
machine spreads over all of them. Prints one table.

Needs PostgreSQL and Redis on 127.0.0.1 (creates/uses the database
``bench``). It measures; it never fails a test run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
DAPHNE = str(ROOT / ".venv" / "bin" / "daphne")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30) -> None:
    end = time.time() + timeout
    while time.time() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"server on {port} did not come up")


def start(app: str, port: int, env: dict, cwd: Path = ROOT) -> subprocess.Popen:
    log = open(Path(tempfile.gettempdir()) / f"bars-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [DAPHNE, "-b", "127.0.0.1", "-p", str(port), app], cwd=cwd, env=env, stdout=log, stderr=log
    )
    wait_port(port)
    return proc


def load(port: int, env: dict, extra: list[str], cwd: Path = ROOT) -> dict:
    """bench/ws_load.py of the checkout served (its setup writes that checkout's rows)."""
    out = Path(tempfile.mkstemp(suffix=".json")[1])
    plan = Path(tempfile.gettempdir()) / f"bars-plan-{port}.json"  # not another run's
    url = [f"--url=ws://127.0.0.1:{port}", f"--origin=http://127.0.0.1:{port}", f"--plan={plan}"]
    subprocess.run(
        [PY, "bench/ws_load.py", *url, *extra, f"--json={out}"], cwd=cwd, env=env, check=True
    )
    return json.loads(out.read_text())


def bench_env(prefix: str) -> dict[str, str]:
    """The served site's environment: the bench database and Redis, a channel
    prefix of its own, and no per-address socket cap (every client is 127.0.0.1)."""
    return {
        **os.environ,
        "DATABASE_URL": os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench"
        ),
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
        "CHANNEL_PREFIX": f"{prefix}{os.getpid()}",
        "GAME_SWEEPER": "1",
        "SOCKETS_PER_ADDRESS": "1000000",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--variant", action="append", default=[], help="LABEL[,dir=D][,NAME=VALUE...]")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--runs", type=int, default=1, help="repeat the whole set; print medians")
    p.add_argument(
        "--paced-share",
        type=float,
        default=0.1,
        help="paced phase offers this share of the relay's measured saturation",
    )
    p.add_argument("--interval", type=float, help="fixed paced interval in s (no share)")
    args = p.parse_args()
    env = bench_env("bars")
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-c", "create database bench"],
        capture_output=True,
        check=False,
    )
    subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    if args.variant:
        return compare(args, env)
    runs = []
    for n in range(args.runs):
        if args.runs > 1:
            print(f"# run {n + 1} of {args.runs}", flush=True)
        figures = measure(args, env)
        report(*figures)
        runs.append(figures)
    if args.runs > 1:
        report_medians(runs)


# The paced phase lasts at least this many intervals, so each game moves
# often enough for a p99 (200 games: 1,600 moves) however busy the machine.
PACED_INTERVALS = 8


def paced_args(args: argparse.Namespace, relay_closed: dict) -> list[str]:
    """The paced phase's interval (one move per game each; the paced share of
    the relay's saturation) and duration (after ``common``: it wins)."""
    interval = args.interval or args.games / (args.paced_share * relay_closed["rate"])
    duration = max(args.duration, PACED_INTERVALS * interval)
    return [f"--interval={interval:.3f}", f"--duration={duration:.1f}"]


def measure(args: argparse.Namespace, env: dict) -> tuple[dict, dict, dict, dict, dict]:
    """One set: relay and lean relay closed, relay paced, site closed and paced."""
    relay_port, lean_port, site_port = free_port(), free_port(), free_port()
    procs = [
        start("bench.relay:application", relay_port, env),
        start("bench.relay:lean_application", lean_port, env),
        start("config.asgi:application", site_port, env),
    ]
    pids = {relay_port: procs[0].pid, lean_port: procs[1].pid, site_port: procs[2].pid}
    common = ["--games", str(args.games), "--duration", str(args.duration)]
    try:
        relay_closed, lean_closed = (
            load(
                port,
                env,
                ["--target=relay", "--mode=closed", *common, f"--server-pid={pids[port]}"],
            )
            for port in (relay_port, lean_port)
        )
        paced = paced_args(args, relay_closed)
        relay_open = load(relay_port, env, ["--target=relay", "--mode=open", *common, *paced])
        site = ["--mode=closed", "--spectators=2", *common, f"--server-pid={pids[site_port]}"]
        games_closed = load(site_port, env, ["--setup", *site])
        games_open = load(
            site_port, env, ["--setup", "--mode=open", "--spectators=2", *common, *paced]
        )
    finally:
        for proc in procs:
            stop(proc)
    return relay_closed, lean_closed, relay_open, games_closed, games_open


def report_medians(runs: list[tuple[dict, dict, dict, dict, dict]]) -> None:
    """Each run's paced p99s and rates, their medians, and the paced-tail bar."""
    print()
    print(
        "| run | relay paced p99 | site paced p99 | relay frames/s | site moves/s | paced/s "
        "| lost/doubled |"
    )
    print("|---|---|---|---|---|---|---|")
    for n, (relay_closed, _lean, relay_open, closed, paced) in enumerate(runs, 1):
        bad = sum(closed["violations"].values()) + sum(paced["violations"].values())
        print(
            f"| {n} | {relay_open['p99_ms']:.1f} ms | {paced['p99_ms']:.1f} ms "
            f"| {relay_closed['rate']:.0f} | {closed['moves_per_s']:.0f} "
            f"| {paced['moves_per_s']:.0f} | {bad} |"
        )
    relay_p99 = statistics.median(r[2]["p99_ms"] for r in runs)
    site_p99 = statistics.median(r[4]["p99_ms"] for r in runs)
    share = statistics.median(r[3]["moves_per_s"] / r[0]["rate"] for r in runs)
    ratio = site_p99 / relay_p99
    print(
        f"median paced p99: site {site_p99:.1f} ms, relay {relay_p99:.1f} ms = {ratio:.2f}x "
        f"(bar 2x): {'PASS' if ratio <= 2 else 'FAIL'}"
    )
    print(f"median saturation: {100 * share:.0f}% of the relay (bar 60%)")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def parse_variant(text: str) -> tuple[str, Path, dict]:
    label, *pairs = text.split(",")
    cwd, extra = ROOT, {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name == "dir":
            cwd = Path(value).resolve()
        else:
            extra[name] = value
    return label, cwd, extra


def compare(args: argparse.Namespace, env: dict) -> None:
    """Each variant's site, closed and open loop, against the stock relay (measured once)."""
    common = ["--games", str(args.games), "--duration", str(args.duration)]
    port = free_port()
    relay = start("bench.relay:application", port, env)
    try:
        relay_closed = load(
            port, env, ["--target=relay", "--mode=closed", *common, f"--server-pid={relay.pid}"]
        )
    finally:
        stop(relay)
    pacing = paced_args(args, relay_closed)
    variants = [parse_variant(v) for v in args.variant]
    results: dict[str, list[tuple[dict, dict]]] = {label: [] for label, _, _ in variants}
    for _round in range(args.rounds):
        for label, cwd, extra in variants:
            site_env = {**env, **extra}
            port = free_port()
            site = start("config.asgi:application", port, site_env, cwd)
            try:
                closed = load(
                    port,
                    site_env,
                    [
                        "--setup",
                        "--mode=closed",
                        "--spectators=2",
                        *common,
                        f"--server-pid={site.pid}",
                    ],
                    cwd,
                )
                paced = load(
                    port,
                    site_env,
                    ["--setup", "--mode=open", "--spectators=2", *common, *pacing],
                    cwd,
                )
            finally:
                stop(site)
            results[label].append((closed, paced))
            print(f"# {label}: {closed['moves_per_s']:.0f} moves/s", flush=True)
    print()
    print(f"relay (stock consumer) closed: {relay_closed['rate']:.0f} frames/s")
    print()
    print(
        "| variant | moves/s (closed) | CPU/move | closed p50 / p99 | paced p50 / p90 / p99 "
        "| lost/doubled |"
    )
    print("|---|---|---|---|---|---|")
    for label, runs in results.items():
        rates = " / ".join(f"{c['moves_per_s']:.0f}" for c, _ in runs)
        cpu = " / ".join(
            f"{1000 * c['server_cpu_s'] / c['moves']:.2f}" if c["moves"] else "-" for c, _ in runs
        )
        closed = " / ".join(f"{c['p50_ms']:.0f}, {c['p99_ms']:.0f}" for c, _ in runs)
        paced = " / ".join(
            f"{o['p50_ms']:.1f}, {o['p90_ms']:.1f}, {o['p99_ms']:.1f}" for _, o in runs
        )
        bad = sum(sum(c["violations"].values()) + sum(o["violations"].values()) for c, o in runs)
        print(f"| {label} | {rates} | {cpu} ms | {closed} ms | {paced} ms | {bad} |")


def report(relay_closed, lean_closed, relay_open, games_closed, games_open) -> None:
    ratio = games_closed["moves_per_s"] / relay_closed["rate"]
    lean_ratio = games_closed["moves_per_s"] / lean_closed["rate"]
    print()
    print(
        f"relay  closed: {relay_closed['rate']:.0f} frames/s (stock channels consumer)   "
        f"open: p50 {relay_open['p50_ms']:.1f} ms  p99 {relay_open['p99_ms']:.1f} ms"
    )
    print(
        f"lean relay closed: {lean_closed['rate']:.0f} frames/s "
        "(no thread hop per message, as the site's consumers)"
    )
    print(
        f"site   closed: {games_closed['moves_per_s']:.0f} moves/s   "
        f"open ({games_open['moves_per_s']:.0f} moves/s): p50 {games_open['p50_ms']:.1f} ms  p99 {games_open['p99_ms']:.1f} ms"
    )
    print(
        f"throughput: {100 * ratio:.0f}% of the relay (bar: 50%)   "
        f"{'OK' if ratio >= 0.5 else 'BELOW THE BAR'}   "
        f"({100 * lean_ratio:.0f}% of the lean relay)"
    )
    print(
        f"paced p99: {games_open['p99_ms']:.1f} ms (bar: 25 ms)   "
        f"{'OK' if games_open['p99_ms'] < 25 else 'ABOVE THE BAR'}"
    )
    bad = sum(games_closed["violations"].values()) + sum(games_open["violations"].values())
    print(f"lost/doubled/out of order: {bad}   {'OK' if bad == 0 else 'VIOLATIONS'}")


if __name__ == "__main__":
    sys.exit(main())
