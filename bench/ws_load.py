"""Websocket load test: N concurrent Halma games, 2 players + S spectators each.

Every client is a real websocket to a running server (/ws/game/<id>/). Players
pick a legal move from the "legal" list of the latest state they received
(mostly the move that advances furthest towards the goal, so games last) and
send {"type": "act", ...}. The figure is, per move, the time from the player
sending the act to the LAST spectator of that game (the opponent if S=0)
receiving that version's event. Every client also checks that it saw every
version exactly once and in order; on a gap it sends {"type": "sync"} (as the
page does) and the gap is counted and reported.

Modes:
  --mode closed            each player moves as soon as it is its turn
  --mode open --interval 2 one move per game every 2 s, each game with a random
                           phase (a move whose player is not ready yet is sent
                           as soon as it is, and counted as "late")

Setup (--setup) creates users, started games and session cookies directly
through Django (same settings and environment as the server: DATABASE_URL /
SQLITE_PATH / REDIS_URL) and writes them to --plan; without --setup the plan
file from an earlier --setup is reused (a finished game stays finished). Only
moves actually played count; a game that ends closes its sockets and a spare
started game (--spares) takes its place, so N games stay in play.

Every client comes from 127.0.0.1: lift the cap on sockets per address
(SOCKETS_PER_ADDRESS, 50 by default) for the server.

Embedded default (SQLite + in-memory layer), from the repository root:

  export SQLITE_PATH=/tmp/bench.sqlite3 SOCKETS_PER_ADDRESS=1000000
  .venv/bin/python manage.py migrate
  .venv/bin/daphne -p 8000 config.asgi:application &
  .venv/bin/python bench/ws_load.py --setup --games 50 --spectators 2 --mode closed --duration 20

PostgreSQL + Redis (channels_redis pub/sub layer):

  psql -h 127.0.0.1 -U postgres -c 'create database bench'
  export DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/0
  export SOCKETS_PER_ADDRESS=1000000
  .venv/bin/python manage.py migrate
  .venv/bin/daphne -p 8000 config.asgi:application &
  .venv/bin/python bench/ws_load.py --setup --games 50 --spectators 2 --mode closed --duration 20
  .venv/bin/python bench/ws_load.py --setup --games 200 --spectators 2 --mode open --interval 2 --duration 60

Where the server's time goes (py-spy in the venv, not a project requirement):

  .venv/bin/py-spy record -o /tmp/daphne.svg --pid <daphne pid> --duration 20 --idle --threads
  .venv/bin/py-spy top --pid <daphne pid>

Other options: --url (ws://127.0.0.1:8000), --origin (http://127.0.0.1:8000; the
server checks it against ALLOWED_HOSTS), --moves (cap per game), --spares (games
that replace games ending mid-run; default --games in closed mode),
--server-pid (report the server's CPU per move from /proc), --timeline (latency
per second of the run), --connect-concurrency, --seed, --json (figures to a file).

Notes: Redis pub/sub channels ignore the database number, so on a Redis shared
with other test runs set the same CHANNEL_PREFIX (e.g. wsbench) for the server
and for --setup. A closed loop saturates the server, so its latency is mostly
queueing (about games / moves per second); the open loop shows the latency at a
given rate. The load generator shares the machine with the server: its own CPU
use is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PLAN = "/tmp/ws_load_plan.json"
USER_PREFIX = "wsbench"


# -- setup through Django ------------------------------------------------------


def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def session_cookie(user: Any) -> str:
    """A session as django.contrib.auth.login() leaves it; the cookie header value."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def create_plan(games: int) -> list[dict[str, Any]]:
    """Users (two per game, reused between runs), started Halma games, cookies."""
    django_setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from lobby.services import table_create, table_join, table_start

    db = connection.settings_dict
    print(f"setup: database {db['ENGINE'].rsplit('.', 1)[-1]} {db['NAME']}", file=sys.stderr)
    User = get_user_model()
    names = [f"{USER_PREFIX}{i:05d}" for i in range(2 * games)]
    existing = {u.username: u for u in User.objects.filter(username__in=names)}
    missing = []
    for name in names:
        if name not in existing:
            user = User(username=name)
            user.set_unusable_password()  # no PBKDF2 per user: setup stays fast
            missing.append(user)
    if missing:
        User.objects.bulk_create(missing)
        existing = {u.username: u for u in User.objects.filter(username__in=names)}
    users = [existing[n] for n in names]
    cookies = {u.pk: session_cookie(u) for u in users}
    plan = []
    for g in range(games):
        host, guest = users[2 * g], users[2 * g + 1]
        game = table_create(
            host=host, ruleset="halma", clock={"kind": "realtime", "minutes": 180, "increment": 0}
        )
        table_join(game_id=game.pk, user=guest)
        table_start(game_id=game.pk, user=host)
        plan.append({"id": game.pk, "cookies": [cookies[host.pk], cookies[guest.pk]]})
    return plan


# -- statistics ------------------------------------------------------------------


def proc_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) a local process has used so far; 0 if unknown."""
    if not pid:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    if not ms:
        return "n=0"
    return (
        f"p50 {pct(ms, 50):.1f}  p90 {pct(ms, 90):.1f}  p99 {pct(ms, 99):.1f}  "
        f"max {max(ms):.1f} ms  (n={len(ms)})"
    )


# -- clients ---------------------------------------------------------------------


class Game:
    def __init__(self, run: Run, gid: int, cookies: list[str], spectators: int) -> None:
        self.run = run
        self.id = gid
        self.players = [Client(run, self, seat, cookies[seat]) for seat in (0, 1)]
        self.spectators = [Client(run, self, None, None) for _ in range(spectators)]
        self.sent_at: dict[int, float] = {}  # new version -> time the act was sent
        self.mover: dict[int, int] = {}  # new version -> seat that sent it
        self.recv: dict[int, list[float]] = {}  # version -> receive times of the measured receivers
        self.other_recv: dict[int, float] = {}  # version -> when the opponent got it
        self.moves = 0  # acts sent
        self.acked = 0
        self.finished = False
        self.retired = False  # sockets closed after it ended
        self.max_version = 0  # highest version any client of this game has seen
        self.ready = asyncio.Event()  # open loop: some player can move
        self.late = 0

    @property
    def clients(self) -> list[Client]:
        return [*self.players, *self.spectators]

    def measured(self, client: Client) -> bool:
        """Whether ``client`` is one of the receivers the move latency waits for."""
        return client.seat is None if self.spectators else client.seat is not None

    def may_move(self) -> bool:
        run = self.run
        if self.finished or run.stopping or not run.started:
            return False
        return not (run.args.moves and self.moves >= run.args.moves)

    async def pace(self) -> None:
        """Open loop: one move every interval, random phase."""
        interval = self.run.args.interval
        next_at = self.run.t0 + random.uniform(0, interval)
        while self.may_move():
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if not self.may_move():
                return
            mover = next((p for p in self.players if p.can_move()), None)
            if mover is None:
                self.late += 1
                self.ready.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.ready.wait(), timeout=interval * 5)
                if not self.may_move():
                    return
                mover = next((p for p in self.players if p.can_move()), None)
            if mover is not None:
                await mover.move()
            next_at += interval
            # Fell far behind (an overloaded server): do not burst to catch up.
            next_at = max(next_at, time.perf_counter() - interval)


class Client:
    def __init__(self, run: Run, game: Game, seat: int | None, cookie: str | None) -> None:
        self.run = run
        self.game = game
        self.seat = seat
        self.cookie = cookie
        self.ws: Any = None
        self.last = -1  # highest version applied in order
        self.state: dict[str, Any] | None = None
        self.acted_on = -1  # the state version this player last acted on
        self.act_sent = 0.0
        self.outstanding = False  # an act sent, no ack or error yet
        self.sync_pending = False
        self.synced_to = -1  # versions up to here may arrive again after a resync
        self.buffer: list[dict[str, Any]] = []
        self.connected = asyncio.Event()
        self.closing = False
        self.frames = Counter()
        self.name = (
            f"g{game.id}/{'spectator' if seat is None else f'seat{seat}'}#{id(self) % 10000}"
        )

    # -- connection
    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        args = self.run.args
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.ws = await connect(
            f"{args.url}/ws/game/{self.game.id}/",
            origin=args.origin,
            additional_headers=headers,
            max_size=None,
            open_timeout=60,
            ping_interval=None,
            compression=None,
        )

    async def read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                self.handle(json.loads(text), now)
                if self.run.closed_mode and self.can_move() and self.game.may_move():
                    await self.move()
        except Exception as exc:  # report, do not crash the run
            if not (self.run.closing or self.closing):
                self.run.violation(self, f"socket ended: {exc!r}")
        else:
            if not (self.run.closing or self.closing):
                self.run.violation(self, f"socket closed by server: {self.ws.close_code}")

    # -- frames
    def handle(self, frame: dict[str, Any], now: float) -> None:
        kind = frame.get("type")
        self.frames[kind] += 1
        if kind == "hello":
            if self.seat is not None and frame.get("seat") != self.seat:
                self.run.violation(
                    self, f"hello says seat {frame.get('seat')}, expected {self.seat}"
                )
            self.set_state(frame["state"])
            self.last = frame["state"]["version"]
            self.game.max_version = max(self.game.max_version, self.last)
            self.connected.set()
        elif kind == "event":
            if self.sync_pending:
                self.buffer.append(frame)
            else:
                self.on_event(frame, now)
        elif kind == "sync":
            self.on_sync(frame, now)
        elif kind == "ack":
            self.on_ack(frame, now)
        elif kind == "error":
            self.on_error(frame)
        elif kind not in ("watchers", "table", "pong"):
            self.run.violation(self, f"unexpected frame type {kind!r}")

    def on_event(self, frame: dict[str, Any], now: float) -> None:
        v = frame["version"]
        game = self.game
        if v == self.last + 1:
            self.last = v
            self.set_state(frame["state"])
            game.max_version = max(game.max_version, v)
            self.record(v, now)
        elif v <= self.last:
            if v <= self.synced_to:
                self.run.redelivered += 1  # already had it from a resync
            else:
                self.run.violation(
                    self, f"version {v} again or out of order (had {self.last})", kind="order"
                )
        else:
            self.run.violation(
                self, f"gap: got version {v} after {self.last}; sending sync", kind="gap"
            )
            self.run.resyncs += 1
            self.sync_pending = True
            self.buffer.append(frame)
            self.run.spawn(self.send({"type": "sync", "game": game.id, "version": self.last}))

    def on_sync(self, frame: dict[str, Any], now: float) -> None:
        versions = [e["version"] for e in frame.get("events", [])]
        expected = list(range(self.last + 1, frame["version"] + 1))
        if versions != expected:
            self.run.violation(self, f"sync events {versions[:5]}... expected {expected[:5]}...")
        for v in versions:
            if v > self.last:
                self.record(v, now, resynced=True)
        self.last = max(self.last, frame["version"])
        self.synced_to = self.last
        self.game.max_version = max(self.game.max_version, self.last)
        self.set_state(frame["state"])
        self.sync_pending = False
        pending, self.buffer = sorted(self.buffer, key=lambda f: f["version"]), []
        for f in pending:
            self.on_event(f, now)

    def on_ack(self, frame: dict[str, Any], now: float) -> None:
        game = self.game
        v = frame.get("version")
        if v != self.acted_on + 1:
            self.run.violation(self, f"ack for version {v}, acted on {self.acted_on}")
        game.acked += 1
        self.outstanding = False
        if isinstance(v, int):
            game.max_version = max(game.max_version, v)
        if self.run.measuring(self.act_sent):
            self.run.ack_lat.append(now - self.act_sent)

    def on_error(self, frame: dict[str, Any]) -> None:
        code = frame.get("code")
        self.outstanding = False
        self.run.errors[code] += 1
        if len(self.run.error_samples) < 10:
            self.run.error_samples.append(f"{self.name}: {frame}")
        if code == "game_over":
            self.game.finished = True
            self.run.on_finished(self.game)
        elif self.seat is not None and not self.sync_pending:
            # Refresh the view (as the page does) so the player can go on.
            self.sync_pending = True
            self.run.spawn(self.send({"type": "sync", "game": self.game.id, "version": self.last}))

    def set_state(self, state: dict[str, Any]) -> None:
        self.state = state
        if state.get("status") != "active":
            self.game.finished = True
            self.run.on_finished(self.game)
        if self.seat is not None and self.can_move():
            self.game.ready.set()

    def record(self, v: int, now: float, resynced: bool = False) -> None:
        game = self.game
        if game.measured(self):
            game.recv.setdefault(v, []).append(now)
        if self.seat is not None and game.mover.get(v) not in (None, self.seat):
            game.other_recv[v] = now

    # -- moving
    def can_move(self) -> bool:
        s = self.state
        return (
            self.seat is not None
            and s is not None
            and not self.sync_pending
            and s.get("status") == "active"
            and self.seat in s.get("to_act", ())
            and bool(s.get("legal"))
            and s["version"] > self.acted_on
            and s["version"] == self.last
        )

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Mostly the move that gains most towards the goal corner; some randomness."""
        rng = self.run.rng
        sign = 1 if self.seat == 0 else -1  # seat 0 heads for row+col 0, seat 1 for 18

        def gain(a: dict[str, Any]) -> int:
            (r0, c0), (r1, c1) = a["path"][0], a["path"][-1]
            return sign * ((r0 + c0) - (r1 + c1))

        scored = [(gain(a), a) for a in legal]
        best = max(g for g, _ in scored)
        if best > 0 and rng.random() < 0.85:
            return rng.choice([a for g, a in scored if g == best])
        forward = [a for g, a in scored if g > 0]
        if forward:
            return rng.choice(forward)
        sideways = [a for g, a in scored if g == 0]
        return rng.choice(sideways or legal)

    async def move(self) -> None:
        s = self.state
        assert s is not None
        game = self.game
        action = self.choose(s["legal"])
        self.acted_on = s["version"]
        game.moves += 1
        now = time.perf_counter()
        self.act_sent = now
        self.outstanding = True
        game.sent_at[s["version"] + 1] = now
        game.mover[s["version"] + 1] = self.seat
        await self.send(
            {
                "type": "act",
                "game": game.id,
                "version": s["version"],
                "action": action,
                "ref": str(game.moves),
            }
        )

    async def send(self, frame: dict[str, Any]) -> None:
        try:
            await self.ws.send(json.dumps(frame, separators=(",", ":")))
        except Exception as exc:
            if not (self.run.closing or self.closing):
                self.run.violation(self, f"send failed: {exc!r}")


class Run:
    def __init__(self, args: argparse.Namespace, plan: list[dict[str, Any]]) -> None:
        self.args = args
        self.closed_mode = args.mode == "closed"
        self.rng = random.Random(args.seed)
        self.plan = plan[: args.games]
        self.spares = list(plan[args.games :])  # started games that replace finished ones
        self.games: list[Game] = []  # every game played, replaced ones included
        self.live = 0  # games being played now
        self.replacing = 0
        self.replaced = 0
        self.sem = asyncio.Semaphore(args.connect_concurrency)
        self.readers: list[asyncio.Future[None]] = []
        self.t0 = 0.0
        self.started = False
        self.cpu = 0.0
        self.server_cpu = 0.0
        self.t_end = float("inf")
        self.stopping = False
        self.pacers: list[asyncio.Future[None]] = []
        self.closing = False
        self.errors: Counter[str] = Counter()
        self.error_samples: list[str] = []
        self.violations: list[str] = []
        self.violation_kinds: Counter[str] = Counter()
        self.resyncs = 0
        self.tasks: set[asyncio.Future[None]] = set()
        self.redelivered = 0
        self.ack_lat: list[float] = []

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def violation(self, client: Client, text: str, kind: str = "other") -> None:
        self.violation_kinds[kind] += 1
        if len(self.violations) < 30:
            self.violations.append(f"{client.name}: {text}")

    def measuring(self, sent: float) -> bool:
        return self.t0 <= sent <= self.t_end

    async def open_game(self, entry: dict[str, Any]) -> Game:
        game = Game(self, entry["id"], entry["cookies"], self.args.spectators)
        self.games.append(game)
        self.live += 1

        async def one(c: Client) -> None:
            async with self.sem:
                await c.connect()
                self.readers.append(asyncio.ensure_future(c.read()))
                await asyncio.wait_for(c.connected.wait(), 60)

        await asyncio.gather(*(one(c) for c in game.clients))
        return game

    async def start(self) -> None:
        t = time.perf_counter()
        await asyncio.gather(*(self.open_game(entry) for entry in self.plan))
        print(
            f"connected {sum(len(g.clients) for g in self.games)} sockets "
            f"in {time.perf_counter() - t:.1f}s",
            file=sys.stderr,
            flush=True,
        )
        done = [g for g in self.games if g.finished]
        if done:
            print(f"note: {len(done)} of the games are already over", file=sys.stderr)

    def on_finished(self, game: Game) -> None:
        """A game ended during the run: close its sockets, play a spare game instead."""
        if game.retired or not self.started or self.stopping:
            return
        game.retired = True
        self.replacing += 1
        self.spawn(self.replace(game))

    async def replace(self, game: Game) -> None:
        try:
            until = time.perf_counter() + 10
            while time.perf_counter() < until and any(
                c.last < game.max_version or c.sync_pending or c.outstanding for c in game.clients
            ):
                await asyncio.sleep(0.02)
            for c in game.clients:
                c.closing = True
            await asyncio.gather(*(c.ws.close() for c in game.clients), return_exceptions=True)
            self.live -= 1
            if self.spares and not self.stopping:
                new = await self.open_game(self.spares.pop(0))
                self.replaced += 1
                if self.closed_mode:
                    for p in new.players:
                        if p.can_move() and new.may_move():
                            await p.move()
                else:
                    self.pacers.append(asyncio.ensure_future(new.pace()))
        finally:
            self.replacing -= 1

    async def drive(self) -> float:
        args = self.args
        self.t0 = time.perf_counter()
        self.started = True
        cpu0 = time.process_time()
        server0 = proc_cpu(args.server_pid)
        pacers = self.pacers
        if self.closed_mode:
            for g in self.games:
                for p in g.players:
                    if p.can_move() and g.may_move():
                        await p.move()
        else:
            pacers.extend(asyncio.ensure_future(g.pace()) for g in self.games)
        deadline = self.t0 + args.duration
        while time.perf_counter() < deadline:
            if self.replacing == 0 and all(not g.may_move() for g in self.games):
                break  # every game is over (and no spare left) or at its --moves cap
            await asyncio.sleep(0.05)
        self.stopping = True
        self.t_end = time.perf_counter()
        for g in self.games:
            g.ready.set()
        for f in pacers:
            f.cancel()
        # Drain: every client should reach its game's last version.
        drain_until = time.perf_counter() + 15
        while time.perf_counter() < drain_until:
            if all(
                c.last >= g.max_version and not c.sync_pending and not c.outstanding
                for g in self.games
                for c in g.clients
            ):
                break
            await asyncio.sleep(0.05)
        self.cpu = time.process_time() - cpu0
        self.server_cpu = proc_cpu(args.server_pid) - server0
        return self.t_end - self.t0

    async def close(self) -> None:
        self.closing = True
        await asyncio.gather(
            *(c.ws.close() for g in self.games for c in g.clients if c.ws is not None),
            return_exceptions=True,
        )
        for r in self.readers:
            r.cancel()

    def report(self, elapsed: float) -> dict[str, Any]:
        args = self.args
        lat, other, all_lat = [], [], []
        per_second: dict[int, list[float]] = {}
        incomplete = 0
        moves = 0
        for g in self.games:
            want = len(g.spectators) or 1
            for v, sent in g.sent_at.items():
                if not self.measuring(sent):
                    continue
                got = g.recv.get(v, [])
                if v > g.max_version:
                    continue  # the act failed (an error is reported separately)
                moves += 1
                if len(got) >= want:
                    lat.append(max(got) - sent)
                    per_second.setdefault(int(sent - self.t0), []).append(max(got) - sent)
                    all_lat.extend(t - sent for t in got)
                else:
                    incomplete += 1
                if v in g.other_recv:
                    other.append(g.other_recv[v] - sent)
            for c in g.clients:
                if c.last < g.max_version:
                    self.violation(
                        c, f"ended at version {c.last}, game reached {g.max_version}", kind="lost"
                    )
        sockets = args.games * (2 + args.spectators)
        finished = sum(1 for g in self.games if g.finished)
        out = {
            "mode": args.mode,
            "interval": args.interval if args.mode == "open" else None,
            "games": args.games,
            "games_played": len(self.games),
            "spectators": args.spectators,
            "sockets": sockets,
            "duration": elapsed,
            "moves": moves,
            "moves_per_s": moves / elapsed if elapsed else 0.0,
            "finished_games": finished,
            "p50_ms": pct(lat, 50) * 1000,
            "p90_ms": pct(lat, 90) * 1000,
            "p99_ms": pct(lat, 99) * 1000,
            "max_ms": max(lat) * 1000 if lat else float("nan"),
            "errors": dict(self.errors),
            "violations": dict(self.violation_kinds),
            "resyncs": self.resyncs,
            "client_cpu_s": self.cpu,
            "timeline": [
                {"second": k, "moves": len(v), "p50_ms": pct(v, 50) * 1000, "max_ms": max(v) * 1000}
                for k, v in sorted(per_second.items())
            ],
            "server_cpu_s": self.server_cpu,
            "loadavg": os.getloadavg()[0],
        }
        print(
            f"mode            {args.mode}"
            + (f" (one move per game every {args.interval}s)" if args.mode == "open" else "")
        )
        print(
            f"games           {args.games} at a time; {len(self.games)} played, {finished} of them "
            f"ended (an ended game is replaced by a spare: {self.replaced} replaced, "
            f"{len(self.spares)} spares left)"
        )
        print(
            f"sockets         {sockets} at a time (2 players + {args.spectators} spectators per game)"
        )
        print(f"duration        {elapsed:.1f} s")
        print(f"moves           {moves}")
        print(f"moves/s         {out['moves_per_s']:.1f}")
        who = "last spectator" if args.spectators else "other player"
        print(f"latency         act -> {who}: {summary(lat)}")
        print(f"                act -> ack: {summary(self.ack_lat)}")
        print(f"                act -> opponent: {summary(other)}")
        if args.timeline:
            print("per second      (second of the run: moves sent, p50 / max ms)")
            for k, v in sorted(per_second.items()):
                print(f"  {k:4d}: {len(v):5d}  {pct(v, 50) * 1000:8.1f} / {max(v) * 1000:8.1f}")
        if args.mode == "open":
            print(
                f"late ticks      {sum(g.late for g in self.games)} (player not ready when its game's tick came)"
            )
        print(f"client cpu      {self.cpu:.1f} s of {elapsed:.1f} s (this load generator)")
        if args.server_pid:
            per_move = self.server_cpu / moves * 1000 if moves else float("nan")
            print(
                f"server cpu      {self.server_cpu:.1f} s ({self.server_cpu / elapsed * 100:.0f}% of "
                f"one core; {per_move:.2f} ms per move, connects excluded)"
            )
        print(f"load average    {os.getloadavg()[0]:.2f} (1 min; the machine is shared)")
        if self.errors:
            print(f"errors          {dict(self.errors)}")
            for s in self.error_samples[:5]:
                print(f"  {s[:300]}")
        if incomplete:
            self.violation_kinds["incomplete"] += incomplete
        bad = sum(self.violation_kinds.values())
        if bad == 0:
            print(
                "correctness     OK: every client saw every version exactly once and in order; "
                f"0 lost, 0 doubled, 0 out of order, {self.resyncs} resyncs"
            )
        else:
            print(
                f"correctness     FAILED: {dict(self.violation_kinds)}; resyncs {self.resyncs}, "
                f"redelivered after resync {self.redelivered}, moves missing receivers {incomplete}"
            )
            for v in self.violations:
                print(f"  {v}")
        return out


async def amain(args: argparse.Namespace, plan: list[dict[str, Any]]) -> dict[str, Any]:
    run = Run(args, plan)
    try:
        await run.start()
        elapsed = await run.drive()
    finally:
        await run.close()
    return run.report(elapsed)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="ws://127.0.0.1:8000")
    p.add_argument("--origin", default="http://127.0.0.1:8000")
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--spectators", type=int, default=2)
    p.add_argument("--moves", type=int, default=0, help="cap per game (0: none)")
    p.add_argument("--duration", type=float, default=20.0)
    p.add_argument("--mode", choices=["closed", "open"], default="closed")
    p.add_argument("--interval", type=float, default=2.0)
    p.add_argument("--setup", action="store_true", help="create users, games and sessions first")
    p.add_argument("--setup-only", action="store_true")
    p.add_argument(
        "--spares",
        type=int,
        default=None,
        help="extra started games that replace games ending during the run "
        "(default: --games in closed mode, 0 in open mode)",
    )
    p.add_argument("--plan", default=DEFAULT_PLAN, help="games and cookies (written by --setup)")
    p.add_argument("--connect-concurrency", type=int, default=20)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", help="also write the figures to this file")
    p.add_argument("--timeline", action="store_true", help="print latency per second of the run")
    p.add_argument("--server-pid", type=int, help="report this local server process's CPU use")
    p.add_argument(
        "--target",
        choices=["games", "relay"],
        default="games",
        help="relay: the bare reference (bench/relay.py), groups of 4 sockets",
    )
    args = p.parse_args()
    if args.target == "relay":
        sys.path.insert(0, str(ROOT))
        from bench import relay

        out = asyncio.run(relay.run(args))
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2))
        return
    if args.spares is None:
        args.spares = args.games if args.mode == "closed" else 0

    if args.setup or args.setup_only:
        t = time.perf_counter()
        plan = create_plan(args.games + args.spares)
        Path(args.plan).write_text(json.dumps(plan))
        print(
            f"setup: {len(plan)} games in {time.perf_counter() - t:.1f}s -> {args.plan}",
            file=sys.stderr,
        )
        if args.setup_only:
            return
    else:
        plan = json.loads(Path(args.plan).read_text())[: args.games + args.spares]
        if len(plan) < args.games:
            sys.exit(f"{args.plan} holds only {len(plan)} games; run with --setup")
    # The load generator holds hundreds of sockets too: keep its own garbage
    # collector from adding pauses to the latencies it measures.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    out = asyncio.run(amain(args, plan))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
