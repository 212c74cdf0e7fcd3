"""Idle visitors: what open pages cost the server while nobody plays.

Opens L lobby, G game and N notification sockets (notification sockets logged
in) against a server and lets them ping as the pages do (every --ping
seconds) for D seconds, then prints, per server: CPU as % of a core, CPU per
ping, pings answered, bytes per answer, database transactions per ping (from
``pg_stat_database``), RSS per socket, and the lobby fan-out (a table opened
through the API, from the POST to each lobby socket receiving its ``table``
frame). In the same run the same socket mix goes to the floor: a bare
Channels consumer that answers every frame with ``{"type": "pong"}``,
dispatching on the loop (``bench.relay:pong_application``), whose fan-out is
one ``group_send`` to all its lobby sockets.

  .venv/bin/python bench/idle.py                       # 1000/2000/1000, 60 s, site and floor
  .venv/bin/python bench/idle.py --lobby 100 --game 200 --notify 100 --duration 20
  .venv/bin/python bench/idle.py --lobby 2000 --game 4000 --notify 2000   # 8,000 sockets
  .venv/bin/python bench/idle.py --target site --url ws://127.0.0.1:8000 --server-pid 1234

With ``--target both`` (the default) the script starts its own Daphne
processes on free ports, the site (``config.asgi:application``) and the floor,
both on PostgreSQL + Redis (``BENCH_DATABASE_URL``, default database
``bench``; ``--database`` names another, which is wise when other benchmarks
use ``bench`` at the same time, as their transactions would be counted;
``BENCH_REDIS_URL``), one after the other, and migrates first. With ``--url``
it measures a server already running (CPU and RSS only with ``--server-pid``;
the server must use the database the script's ``DATABASE_URL`` names).

Data (created through Django before any socket opens, every run afresh; games
left by earlier runs are aborted): 200 live Malefiz games with 4 seats, their
players, one user per notification socket, session cookies. Game sockets are
spread over the games: the first 4 sockets of a game are its seated players,
the rest anonymous spectators. Lobby sockets are anonymous.

Pings as the pages send them: game ``{"type": "ping", "version": V}`` (V from
the hello, pong, event or sync frame), lobby ``{"type": "ping"}`` plus
``"lobby": LV`` once the server has sent a ``lobby`` field, notifications
``{"type": "ping", "newest": ID}`` (the newest notification id seen, 0 if
none). A ping counts as answered when any frame arrives after it and before
the socket's next ping. Phases: each socket pings --ping seconds after it
connected, then every --ping seconds; ``--spread`` instead draws each
socket's first ping uniformly over one interval once all are connected.

Measuring window: starts once every socket is connected and one ping round
has passed, lasts D seconds; pings sent in it, frames received in answer to
them, server CPU (utime + stime from /proc/<pid>/stat), transactions
(``xact_commit + xact_rollback`` of the database, read from a connection to
the ``postgres`` database, so the script's own reads are not counted, and
the script runs no query during the window; PostgreSQL flushes a backend's
counts up to 10 s late, which evens out over the window). RSS (VmRSS) is read
before the sockets open and at the end of the window; its growth is divided
by the sockets. CPU per ping divides by the pings sent (the bar's figure);
CPU per answered ping is printed too, as an overloaded server answers few.

Fan-out, after the window while the pages go on pinging: 5 rounds, one table
each (site: POST /api/tables/ as a logged-in page; floor: one group_send from
this script), each waiting up to 15 s for every lobby socket; the latencies
of all rounds are pooled, and sockets that never got the frame are reported.

Prints a table, each bar with PASS/FAIL, and a JSON line. It measures; it
never fails a test run. The load generator shares the machine: its own CPU
is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bars import free_port, wait_port  # noqa: E402

PY = str(ROOT / ".venv" / "bin" / "python")
DAPHNE = str(ROOT / ".venv" / "bin" / "daphne")
PREFIX = "idlebench"
GAMES = 200
SEATS = 4
FANOUT_ROUNDS = 5

# -- servers and counters -----------------------------------------------------------


def start_server(app: str, env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    port = free_port()
    log = open(Path(tempfile.gettempdir()) / f"idle-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [DAPHNE, "-b", "127.0.0.1", "-p", str(port), app],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    wait_port(port, timeout=60)
    return proc, port


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def proc_cpu(pid: int | None) -> float:
    if not pid:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss(pid: int | None) -> float:
    """Resident set size in bytes."""
    if not pid:
        return float("nan")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return float("nan")


class Transactions:
    """xact_commit + xact_rollback of one database, read from the ``postgres`` one."""

    def __init__(self, database_url: str) -> None:
        url = urlparse(database_url)
        self.name = url.path.lstrip("/")
        self.dsn = url._replace(path="/postgres").geturl()

    def read(self) -> int:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            row = conn.execute(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
                (self.name,),
            ).fetchone()
        return int(row[0])


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))]


# -- data through Django -------------------------------------------------------------


def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def create_plan(notify: int, hosts: int) -> dict[str, Any]:
    """200 started 4-seat games, users for the notification sockets, cookies."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from bench.ws_load import session_cookie
    from games.models import Game
    from lobby.services import table_create, table_join, table_start

    Game.objects.filter(
        host__username__startswith=PREFIX, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    ).update(status=Game.Status.ABORTED, ended=timezone.now())
    User = get_user_model()
    count = max(GAMES * SEATS, notify) + hosts
    names = [f"{PREFIX}{i:05d}" for i in range(count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    missing = []
    for name in names:
        if name not in existing:
            user = User(username=name)
            user.set_unusable_password()
            missing.append(user)
    User.objects.bulk_create(missing)
    by_name = {u.username: u for u in User.objects.filter(username__in=names)}
    users = [by_name[n] for n in names]
    cookies = [session_cookie(u) for u in users]
    games = []
    for g in range(GAMES):
        seated = users[SEATS * g : SEATS * (g + 1)]
        game = table_create(host=seated[0], ruleset="malefiz", seat_count=SEATS)
        for user in seated[1:]:
            table_join(game_id=game.pk, user=user)
        table_start(game_id=game.pk, user=seated[0])
        games.append({"id": game.pk, "cookies": cookies[SEATS * g : SEATS * (g + 1)]})
    return {
        "games": games,
        "notify": cookies[: max(GAMES * SEATS, notify)],
        "hosts": cookies[count - hosts :],
    }


# -- sockets ---------------------------------------------------------------------------


class Sock:
    __slots__ = (
        "answered",
        "bytes",
        "connected_at",
        "cookie",
        "first",
        "in_window",
        "kind",
        "lobby",
        "newest",
        "path",
        "pending",
        "sent",
        "tables",
        "tasks",
        "version",
        "ws",
    )  # fmt: skip

    def __init__(self, kind: str, path: str, cookie: str | None) -> None:
        self.kind = kind
        self.path = path
        self.cookie = cookie
        self.ws: Any = None
        self.version = 0
        self.lobby: Any = None
        self.newest = 0
        self.pending = False
        self.in_window = False
        self.sent = 0
        self.answered = 0
        self.bytes = 0
        self.first = asyncio.Event()
        self.tables: dict[int, float] = {}  # table id -> first time its frame arrived
        self.tasks: list[asyncio.Task] = []
        self.connected_at = 0.0

    def ping_frame(self) -> str:
        if self.kind == "game":
            return json.dumps({"type": "ping", "version": self.version})
        if self.kind == "lobby":
            if self.lobby is None:
                return '{"type": "ping"}'
            return json.dumps({"type": "ping", "lobby": self.lobby})
        return json.dumps({"type": "ping", "newest": self.newest})

    def on_frame(self, text: str | bytes, now: float) -> None:
        if self.in_window:
            self.bytes += len(text.encode() if isinstance(text, str) else text)
        if self.pending:
            self.pending = False
            if self.in_window:
                self.answered += 1
        self.first.set()
        frame = json.loads(text)
        if not isinstance(frame, dict):
            return
        kind = frame.get("type")
        if self.kind == "game":
            state = frame.get("state")
            v = state.get("version") if isinstance(state, dict) else frame.get("version")
            if isinstance(v, int) and kind in ("hello", "sync", "pong", "event"):
                self.version = v if kind in ("hello", "sync") else max(self.version, v)
        elif self.kind == "lobby":
            if "lobby" in frame:
                self.lobby = frame["lobby"]
            if kind == "table" and isinstance(frame.get("table"), dict):
                self.tables.setdefault(frame["table"].get("id"), now)
        else:
            items = frame.get("items") or []
            if kind == "notify" and isinstance(frame.get("notification"), dict):
                items = [frame["notification"]]
            for item in items:
                if isinstance(item, dict) and isinstance(item.get("id"), int):
                    self.newest = max(self.newest, item["id"])


class Run:
    def __init__(self, args: argparse.Namespace, name: str, url: str, pid: int | None) -> None:
        self.args = args
        self.name = name
        self.url = url
        self.origin = "http" + url[2:] if url.startswith("ws") else url
        self.pid = pid
        self.window = False
        self.stop = False
        self.failed = 0
        self.errors: list[str] = []

    def sockets(self, plan: dict[str, Any]) -> list[Sock]:
        args = self.args
        socks = [Sock("lobby", "/ws/lobby/", None) for _ in range(args.lobby)]
        games = plan["games"]
        for i in range(args.game):
            game, slot = games[i % len(games)], i // len(games)
            cookie = game["cookies"][slot] if slot < SEATS else None
            socks.append(Sock("game", f"/ws/game/{game['id']}/", cookie))
        notify = plan["notify"]
        socks += [
            Sock("notify", "/ws/notify/", notify[i % len(notify)]) for i in range(args.notify)
        ]
        random.shuffle(socks)  # pages of every kind open at once
        return socks

    async def open(self, s: Sock, sem: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect

        async with sem:
            try:
                s.ws = await connect(
                    self.url + s.path,
                    origin=self.origin,
                    additional_headers={"Cookie": s.cookie} if s.cookie else {},
                    max_size=None,
                    open_timeout=120,
                    ping_interval=None,
                    close_timeout=5,
                    compression=None,
                )
            except Exception as exc:
                self.failed += 1
                self.errors.append(f"{s.path}: {exc!r}")
                return
            s.connected_at = time.perf_counter()
            s.tasks.append(asyncio.create_task(self.read(s)))
            if self.name == "site":  # the site greets; wait so that pings carry its version
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(s.first.wait(), 60)

    async def read(self, s: Sock) -> None:
        try:
            async for text in s.ws:
                s.on_frame(text, time.perf_counter())
        except Exception as exc:
            if not self.stop:
                self.errors.append(f"{s.path}: {exc!r}")
        if not self.stop:
            self.errors.append(f"{s.path}: closed by the server ({s.ws.close_code})")

    async def ping(self, s: Sock, first_at: float) -> None:
        interval = self.args.ping
        next_at = first_at
        while True:
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            if self.stop:
                return
            s.in_window = self.window
            s.pending = True
            if s.in_window:
                s.sent += 1
            try:
                await s.ws.send(s.ping_frame())
            except Exception:
                return
            next_at += interval

    async def measure(self, plan: dict[str, Any], xacts: Transactions | None) -> dict[str, Any]:
        args = self.args
        rss0 = proc_rss(self.pid)
        socks = self.sockets(plan)
        sem = asyncio.Semaphore(args.connect_concurrency)
        t = time.perf_counter()
        await asyncio.gather(*(self.open(s, sem) for s in socks))
        socks = [s for s in socks if s.ws is not None]
        connected = time.perf_counter()
        print(
            f"{self.name}: {len(socks)} sockets open in {connected - t:.1f} s "
            f"({self.failed} failed)",
            file=sys.stderr,
        )
        for s in socks:
            first = (
                connected + random.uniform(0, args.ping)
                if args.spread
                else s.connected_at + args.ping
            )
            s.tasks.append(asyncio.create_task(self.ping(s, first)))
        await asyncio.sleep(args.ping)  # one round passes before the window opens
        x0 = xacts.read() if xacts else None
        cpu0, client0, w0 = proc_cpu(self.pid), time.process_time(), time.perf_counter()
        self.window = True
        await asyncio.sleep(args.duration)
        self.window = False  # pings go on, uncounted: a socket's next ping closes its count
        cpu1, client1, w1 = proc_cpu(self.pid), time.process_time(), time.perf_counter()
        rss1 = proc_rss(self.pid)
        x1 = xacts.read() if xacts else None
        await asyncio.sleep(max(0.0, w1 + args.ping - time.perf_counter()))
        for s in socks:
            s.in_window = False
        # The fan-out is measured while the pages keep pinging, as in life.
        fanout = await self.fanout(socks, plan)
        await self.close(socks)
        return self.figures(
            socks, w1 - w0, cpu1 - cpu0, client1 - client0, x0, x1, rss0, rss1, fanout
        )

    async def fanout(self, socks: list[Sock], plan: dict[str, Any]) -> list[float]:
        """Latency from a table's creation to each lobby socket receiving it."""
        lobby = [s for s in socks if s.kind == "lobby"]
        latencies: list[float] = []
        if not lobby:
            return latencies
        layer = None
        if self.name != "site":
            from channels.layers import get_channel_layer

            layer = get_channel_layer()
        for r in range(FANOUT_ROUNDS):
            await asyncio.sleep(1.0)
            t0 = time.perf_counter()
            if layer is None:
                table_id = await asyncio.to_thread(self.create_table, plan["hosts"][r])
            else:
                from bench.relay import FLOOR_LOBBY_GROUP

                table_id = -1 - r
                text = json.dumps({"type": "table", "table": {"id": table_id}})
                await layer.group_send(FLOOR_LOBBY_GROUP, {"type": "floor.frame", "text": text})
            if table_id is None:
                continue
            end = time.perf_counter() + 15
            while time.perf_counter() < end and any(table_id not in s.tables for s in lobby):
                await asyncio.sleep(0.05)
            got = [s.tables[table_id] - t0 for s in lobby if table_id in s.tables]
            latencies += got
            if len(got) < len(lobby):
                self.errors.append(f"fan-out round {r}: {len(lobby) - len(got)} sockets missed it")
        return latencies

    def create_table(self, cookie: str) -> int | None:
        """POST /api/tables/ as a logged-in page does (session cookie, CSRF header)."""
        token = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret
        req = urllib.request.Request(
            self.origin + "/api/tables/",
            data=json.dumps({"ruleset": "halma", "seat_count": 2}).encode(),
            headers={
                "Content-Type": "application/json",
                "Cookie": f"{cookie}; csrftoken={token}",
                "X-CSRFToken": token,
            },
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=20) as resp:
                return json.loads(resp.read())["id"]
        except urllib.error.HTTPError as exc:
            self.errors.append(f"create table: {exc.code} {exc.read()[:200]!r}")
        except (OSError, ValueError, KeyError) as exc:  # timeouts of a drowning server too
            self.errors.append(f"create table: {exc!r}")
        return None

    async def close(self, socks: list[Sock]) -> None:
        self.stop = True
        sem = asyncio.Semaphore(200)

        async def close_one(s: Sock) -> None:
            async with sem:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(s.ws.close(), 10)
            for task in s.tasks:
                task.cancel()

        await asyncio.gather(*(close_one(s) for s in socks))

    def figures(self, socks, elapsed, cpu, client, x0, x1, rss0, rss1, fanout) -> dict[str, Any]:
        sent = sum(s.sent for s in socks)
        answered = sum(s.answered for s in socks)
        received = sum(s.bytes for s in socks)
        per_kind = {
            kind: {
                "sockets": sum(1 for s in socks if s.kind == kind),
                "pings": sum(s.sent for s in socks if s.kind == kind),
                "answered": sum(s.answered for s in socks if s.kind == kind),
                "bytes": sum(s.bytes for s in socks if s.kind == kind),
            }
            for kind in ("lobby", "game", "notify")
        }
        xact = (x1 - x0) if x0 is not None and x1 is not None else None
        return {
            "target": self.name,
            "sockets": len(socks),
            "failed": self.failed,
            "window_s": elapsed,
            "server_cpu_s": cpu,
            "cpu_pct": 100 * cpu / elapsed,
            "pings": sent,
            "answered": answered,
            "answered_pct": 100 * answered / sent if sent else float("nan"),
            "cpu_per_ping_ms": 1000 * cpu / sent if sent else float("nan"),
            "cpu_per_answer_ms": 1000 * cpu / answered if answered else float("nan"),
            "bytes_per_answer": received / answered if answered else float("nan"),
            "xacts": xact,
            "xacts_per_ping": xact / sent if xact is not None and sent else None,
            "xacts_per_answer": xact / answered if xact is not None and answered else None,
            "rss_before_mb": rss0 / 2**20,
            "rss_after_mb": rss1 / 2**20,
            "rss_per_socket_kb": (rss1 - rss0) / len(socks) / 1024 if socks else float("nan"),
            "fanout_n": len(fanout),
            "fanout_p50_ms": 1000 * pct(fanout, 50),
            "fanout_p99_ms": 1000 * pct(fanout, 99),
            "client_cpu_pct": 100 * client / elapsed,
            "per_kind": per_kind,
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
        }


# -- the run -------------------------------------------------------------------------


async def measure(args, name, url, pid, plan, xacts) -> dict[str, Any]:
    return await Run(args, name, url, pid).measure(plan, xacts)


def report(args: argparse.Namespace, results: dict[str, dict[str, Any]]) -> None:
    rows = [
        ("sockets open (failed)", lambda r: f"{r['sockets']} ({r['failed']})"),
        ("window", lambda r: f"{r['window_s']:.1f} s"),
        ("server CPU, % of a core", lambda r: f"{r['cpu_pct']:.1f} %"),
        ("CPU per ping", lambda r: f"{r['cpu_per_ping_ms']:.3f} ms"),
        ("CPU per answered ping", lambda r: f"{r['cpu_per_answer_ms']:.3f} ms"),
        ("pings answered", lambda r: f"{r['answered']}/{r['pings']} ({r['answered_pct']:.1f} %)"),
        ("bytes per answer", lambda r: f"{r['bytes_per_answer']:.0f}"),
        ("  lobby / game / notify", per_kind_bytes),
        ("DB transactions", xact_cell),
        (
            "RSS before -> after",
            lambda r: f"{r['rss_before_mb']:.0f} -> {r['rss_after_mb']:.0f} MB",
        ),
        ("RSS per socket", lambda r: f"{r['rss_per_socket_kb']:.1f} kB"),
        ("lobby fan-out p50 / p99", fanout_cell),
        ("client CPU (this script)", lambda r: f"{r['client_cpu_pct']:.0f} % of a core"),
        ("socket errors", lambda r: str(r["errors"])),
    ]
    names = list(results)
    print()
    print(
        f"idle sockets: {args.lobby} lobby + {args.game} game + {args.notify} notification, "
        f"ping every {args.ping:g} s{' (spread)' if args.spread else ''}, window {args.duration:g} s"
    )
    print(f"{'':28}" + "".join(f"{n:>34}" for n in names))
    for label, cell in rows:
        print(f"{label:28}" + "".join(f"{cell(results[n]):>34}" for n in names))
    for n in names:
        for e in results[n]["error_samples"]:
            print(f"  {n}: {e[:200]}")
    site, floor = results.get("site"), results.get("floor")
    if site:
        print()
        total = args.lobby + args.game + args.notify
        print(
            "bars (1,000 lobby + 2,000 game + 1,000 notification sockets; RSS: 8,000 sockets; "
            "fan-out: 2,000 lobby sockets):"
        )
        if total not in (4000, 8000):
            print(f"  (this run has {total} sockets: the figures only indicate)")
        if floor:
            bar(
                "CPU per ping <= 2x floor",
                f"{site['cpu_per_ping_ms']:.3f} ms vs floor {floor['cpu_per_ping_ms']:.3f} ms "
                f"= {site['cpu_per_ping_ms'] / floor['cpu_per_ping_ms']:.2f}x",
                "2x",
                site["cpu_per_ping_ms"] <= 2 * floor["cpu_per_ping_ms"],
            )
        bar(
            "pings answered >= 98 %",
            f"{site['answered_pct']:.1f} %",
            "98 %",
            site["answered_pct"] >= 98,
        )
        bar(
            "bytes per answer <= 2 KB",
            f"{site['bytes_per_answer']:.0f} B",
            "2048 B",
            site["bytes_per_answer"] <= 2048,
        )
        if site["xacts_per_ping"] is not None:
            bar(
                "DB transactions per ping <= 0.05",
                f"{site['xacts_per_ping']:.3f}",
                "0.05",
                site["xacts_per_ping"] <= 0.05,
            )
        bar(
            "RSS per socket <= 40 kB",
            f"{site['rss_per_socket_kb']:.1f} kB",
            "40 kB",
            site["rss_per_socket_kb"] <= 40,
        )
        if floor and floor["fanout_n"] and not site["fanout_n"]:
            bar("lobby fan-out p99 <= 2x floor", "no table frame arrived in time", "2x", False)
        if floor and site["fanout_n"] and floor["fanout_n"]:
            bar(
                "lobby fan-out p99 <= 2x floor",
                f"{site['fanout_p99_ms']:.1f} ms vs floor {floor['fanout_p99_ms']:.1f} ms "
                f"= {site['fanout_p99_ms'] / floor['fanout_p99_ms']:.2f}x",
                "2x",
                site["fanout_p99_ms"] <= 2 * floor["fanout_p99_ms"],
            )
    print(f"load average {os.getloadavg()[0]:.2f} (1 min; the machine is shared)")
    print(json.dumps({"idle": vars(args), "results": results}, default=str))


def bar(label: str, measured: str, limit: str, ok: bool) -> None:
    print(f"  {label:34} {measured:44} bar {limit:8} {'PASS' if ok else 'FAIL'}")


def per_kind_bytes(r: dict[str, Any]) -> str:
    out = []
    for kind in ("lobby", "game", "notify"):
        k = r["per_kind"][kind]
        out.append(f"{k['bytes'] / k['answered']:.0f}" if k["answered"] else "-")
    return " / ".join(out)


def xact_cell(r: dict[str, Any]) -> str:
    if r["xacts"] is None or r["xacts_per_ping"] is None:  # no ping in the window
        return "n/a" if r["xacts"] is None else str(r["xacts"])
    per_answer = r["xacts_per_answer"]
    tail = f"; {per_answer:.2f}/answer" if per_answer is not None else ""
    return f"{r['xacts']} ({r['xacts_per_ping']:.3f}/ping{tail})"


def fanout_cell(r: dict[str, Any]) -> str:
    if not r["fanout_n"]:
        return "-"
    return f"{r['fanout_p50_ms']:.1f} / {r['fanout_p99_ms']:.1f} ms"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lobby", type=int, default=1000)
    p.add_argument("--game", type=int, default=2000)
    p.add_argument("--notify", type=int, default=1000)
    p.add_argument("--duration", type=float, default=60)
    p.add_argument("--ping", type=float, default=10, help="seconds between a page's pings")
    p.add_argument("--spread", action="store_true", help="spread first pings over an interval")
    p.add_argument("--target", choices=["site", "floor", "both"], default="both")
    p.add_argument("--url", help="measure this running server (ws://host:port) instead")
    p.add_argument("--server-pid", type=int, help="with --url: the server's pid (CPU, RSS)")
    p.add_argument("--database", help="database name (default: from BENCH_DATABASE_URL, bench)")
    p.add_argument("--connect-concurrency", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    random.seed(args.seed)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    if args.url:
        database_url = os.environ.get("DATABASE_URL", "")
    else:
        database_url = os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench"
        )
        if args.database:
            database_url = urlparse(database_url)._replace(path="/" + args.database).geturl()
        os.environ.update(
            DATABASE_URL=database_url,
            REDIS_URL=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
            CHANNEL_PREFIX=f"idle{os.getpid()}",
        )
        name = urlparse(database_url).path.lstrip("/")
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-c", f"create database {name}"],
            capture_output=True,
            check=False,
        )
        subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    env = dict(os.environ)
    env.setdefault("SOCKETS_PER_ADDRESS", "1000000")  # every client is 127.0.0.1
    xacts = Transactions(database_url) if database_url.startswith("postgres") else None
    django_setup()
    t = time.perf_counter()
    plan = create_plan(args.notify, FANOUT_ROUNDS)
    print(
        f"setup: {GAMES} games, users and sessions in {time.perf_counter() - t:.1f} s",
        file=sys.stderr,
    )
    from django.db import connections

    connections.close_all()  # the script runs no query while it measures
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)

    results: dict[str, dict[str, Any]] = {}
    if args.url:
        name = "site" if args.target != "floor" else "floor"
        results[name] = asyncio.run(measure(args, name, args.url, args.server_pid, plan, xacts))
    else:
        targets = {"site": "config.asgi:application", "floor": "bench.relay:pong_application"}
        for name, app in targets.items():
            if args.target not in (name, "both"):
                continue
            proc, port = start_server(app, env)
            try:
                time.sleep(2)  # let it settle before its RSS is read
                results[name] = asyncio.run(
                    measure(args, name, f"ws://127.0.0.1:{port}", proc.pid, plan, xacts)
                )
            finally:
                stop_server(proc)
    report(args, results)


if __name__ == "__main__":
    main()
