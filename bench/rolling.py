"""Rolling restarts under load (issue 53): every process restarted in turn
while games are played, then one host's processes killed at once.

A throwaway PostgreSQL database, a private redis-server, N Daphne processes
(config/drain.py drains each on SIGTERM) and, when Debian's nginx is
installed, nginx in front of them (docs/deploy.md's upstream: least_conn,
proxy_next_upstream); without nginx each page tries the processes in turn.
Human games are played by page-like clients (tests/ops/cluster.py's
GameClient: versions, resync, reconnect with ``?since=``), two players and
two spectators each, one move per game every ``--interval`` seconds; a few
bot matches play themselves, an HTTP client reads a page through the proxy
ten times a second, and one clock game nobody moves in must time out.

Phases: quiet, then the roll (SIGTERM, wait for the exit, start again, wait
for /readyz, next), then (``--kill``) the first half of the processes,
"one host", SIGKILLed at once and started again. Printed: a table per phase
(moves acked, move latency p50/p99, sockets back p50/p99/max, 5xx), and the
checks: acked moves lost or doubled, event logs, bot games and clocks.

``--hosts 2`` puts the processes on two "hosts", network namespaces with
addresses of their own (tests/ops/hosts.py; needs root), sharing PostgreSQL
and Redis over a bridge; ``--kill`` then SIGKILLs every process of the first
host with its workers. ``--trace FILE`` writes every client's timestamps.

  .venv/bin/python bench/rolling.py --games 200 --kill
  .venv/bin/python bench/rolling.py --games 50 --hosts 2 --kill
  .venv/bin/python bench/rolling.py --games 20 --quiet 10 --no-nginx

Needs PostgreSQL at TEST_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/
postgres) and redis-server; outside bin/test (tests/ops/test_rolling.py is
its short version).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.ops.cluster import (  # noqa: E402
    Daphne,
    Database,
    GameClient,
    Process,
    RedisServer,
    free_port,
    migrate,
    server_env,
    setup_games,
    tail,
    unique,
)
from tests.ops.hosts import Hosts  # noqa: E402

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
TIMEOUT_CLOCK = {"kind": "realtime", "minutes": 1, "increment": 0}
PLAYED_CLOCK = {"kind": "realtime", "minutes": 30, "increment": 10}
REFUSED = 599  # no answer at all


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Nginx(Process):
    """Debian's nginx in front of the processes, with docs/deploy.md's upstream."""

    def __init__(self, log_dir: Path, upstreams: list[str], balance: str = "least_conn") -> None:
        self.port = free_port()
        prefix = log_dir / "nginx"
        prefix.mkdir(exist_ok=True)
        conf = prefix / "nginx.conf"
        servers = "\n".join(f"    server {a} max_fails=0;" for a in upstreams)
        conf.write_text(
            NGINX_CONF.format(
                prefix=prefix,
                port=self.port,
                servers=servers,
                balance=BALANCE[balance],
            ),
            encoding="utf-8",
        )
        cmd = [str(NGINX), "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"]
        super().__init__("nginx", cmd, {}, log_dir)
        self.access = prefix / "access.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def statuses(self) -> list[tuple[float, int, str]]:
        """(time, status, request) of each request nginx answered."""
        rows = []
        for line in self.access.read_text(errors="replace").splitlines():
            stamp, status, request = line.split(" ", 2)
            rows.append((float(stamp), int(status), request))
        return rows


# --balance: nginx's choice of a process for each new connection.
BALANCE = {
    "least_conn": "least_conn;",
    "round_robin": "",
    "random": "random;",
    "two": "random two least_conn;",
}

# The upstream of docs/deploy.md, on loopback ports; temp files in the prefix.
NGINX_CONF = """
user root;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 8192; }}
http {{
  log_format stamped '$msec $status "$request" $upstream_addr $upstream_status';
  access_log {prefix}/access.log stamped;
  client_body_temp_path {prefix}/body;
  proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi;
  uwsgi_temp_path {prefix}/uwsgi;
  scgi_temp_path {prefix}/scgi;
  upstream brettspiele {{
    {balance}
{servers}
  }}
  map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
  server {{
    listen 127.0.0.1:{port};
    proxy_http_version 1.1;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_read_timeout 120s;
    proxy_connect_timeout 2s;
    proxy_next_upstream error timeout http_503;
    proxy_next_upstream_tries 4;
    location / {{ proxy_pass http://brettspiele; }}
  }}
}}
"""


@dataclass
class Phase:
    name: str
    start: float
    end: float = 0.0
    events: list[str] = field(default_factory=list)
    wall: float = field(default_factory=time.time)  # the start, as the database stamps
    unacked: int = 0  # moves committed in this phase whose ack was lost


@dataclass
class Bench:
    args: argparse.Namespace
    log_dir: Path
    db: Database | None = None
    redis: RedisServer | None = None
    hosts: Hosts | None = None
    host_of: dict[str, int] = field(default_factory=dict)  # process -> its host (--hosts)
    shards: list[RedisServer] = field(default_factory=list)
    servers: list[Daphne] = field(default_factory=list)
    nginx: Nginx | None = None
    clients: list[GameClient] = field(default_factory=list)
    players: list[GameClient] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    bot_games: list[int] = field(default_factory=list)
    timeout_game: int = 0
    phases: list[Phase] = field(default_factory=list)
    http: list[tuple[float, int]] = field(default_factory=list)
    stopping: bool = False
    bot_during_roll: tuple[int, int] = (0, 0)  # the bot games' versions, summed
    marks: list[tuple[float, str]] = field(default_factory=list)  # (monotonic, what)

    def mark(self, what: str) -> None:
        self.marks.append((time.monotonic(), what))

    # -- set up
    async def start(self) -> None:
        a = self.args
        self.db = Database(unique("bsp_roll_"))
        self.db.create()
        # --hosts 2: the processes on two network namespaces (tests/ops/
        # hosts.py) reach PostgreSQL and this Redis over the bridge.
        bind, password = "127.0.0.1", ""
        if getattr(a, "hosts", 1) > 1:
            self.hosts = Hosts(a.hosts, self.log_dir)
            self.hosts.start()
            bind, password = f"127.0.0.1 {self.hosts.gateway}", unique("pw")
        self.redis = RedisServer("redis", self.log_dir, bind=bind, password=password)
        self.redis.start()
        await self.redis.ready()
        # --shards 2: the channel layer over this Redis and one more
        # (CHANNEL_LAYER_URLS); limits, presence and leases stay on the first.
        for i in range(1, a.shards):
            shard = RedisServer(f"redis-shard{i}", self.log_dir, bind=bind, password=password)
            shard.start()
            await shard.ready()
            self.shards.append(shard)
        layer = ",".join(r.url for r in [self.redis, *self.shards]) if self.shards else ""
        env = server_env(
            self.db.url,
            self.redis.url,
            unique("roll"),
            SOCKETS_PER_ADDRESS="1000000",
            DRAIN_SECONDS="10",
            BOT_PROCESSES="1",
            BOT_DELAY_MIN="0.5",
            BOT_DELAY_MAX="1.0",
            GAME_SWEEP_SECONDS="0.5",
            CHANNEL_LAYER_URLS=layer,
        )
        # A restarted process loads its compiled modules, as in production
        # (tests/ops/cluster.py's servers compile every module at each start).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        await asyncio.to_thread(migrate, env)
        self.servers = [Daphne(f"p{i}", env, self.log_dir) for i in range(a.processes)]
        if self.hosts is not None:
            self.servers = self.servers_on_hosts(env)
        for server in self.servers:
            server.start()
        await asyncio.gather(*(s.ready(60) for s in self.servers))
        if NGINX and not a.no_nginx:
            self.nginx = Nginx(self.log_dir, [s.address for s in self.servers], a.balance)
            self.nginx.start()
            await self.wait_http(self.nginx.http + "/api/rulesets/")
        specs: list[dict[str, Any]] = [
            {"players": [f"r{i}a{unique('')}", f"r{i}b"], "clock": PLAYED_CLOCK}
            for i in range(a.games)
        ]
        specs += [{"bots": ["easy", "medium"], "host": f"staff{unique('')}"} for _ in range(a.bots)]
        specs.append({"players": [unique("t"), unique("u")], "clock": TIMEOUT_CLOCK})
        made = await asyncio.to_thread(setup_games, env, specs, 900)
        self.games = made[: a.games]
        self.bot_games = [g["id"] for g in made[a.games : a.games + a.bots]]
        self.timeout_game = made[-1]["id"]
        await self.connect_clients()

    def servers_on_hosts(self, env: dict[str, str]) -> list[Daphne]:
        """The processes split over the hosts in order (p0 and p1 on host a,
        p2 and p3 on host b), each bound to its host's address, with the
        database and Redis at the bridge's."""
        hosts, a = self.hosts, self.args
        assert hosts is not None and self.db is not None and self.redis is not None
        gateway = hosts.gateway
        env = dict(
            env,
            DATABASE_URL=hosts.database_url(self.db.url),
            REDIS_URL=self.redis.url.replace("127.0.0.1", gateway),
            # The readiness polls ask each process by its address.
            DJANGO_ALLOWED_HOSTS=",".join(
                ["localhost", "127.0.0.1", *(hosts.address(h) for h in range(a.hosts))]
            ),
        )
        if env.get("CHANNEL_LAYER_URLS"):
            env["CHANNEL_LAYER_URLS"] = env["CHANNEL_LAYER_URLS"].replace("127.0.0.1", gateway)
        servers = []
        for i in range(a.processes):
            h = i * a.hosts // a.processes
            server = Daphne(
                f"p{i}", env, self.log_dir, host=hosts.address(h), prefix=hosts.exec_prefix(h)
            )
            self.host_of[server.name] = h
            servers.append(server)
        return servers

    async def wait_http(self, url: str, timeout: float = 30) -> None:
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if await asyncio.to_thread(get_status, url) == 200:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{url} not answering:\n{tail(self.log_dir / 'nginx.log')}")

    async def connect_clients(self) -> None:
        bases = [self.nginx.ws] if self.nginx else [s.ws for s in self.servers]
        gate = asyncio.Semaphore(50)
        act_every = 2 * self.args.interval  # two players: one move per game per interval

        async def one(name: str, g: dict[str, Any], seat: int | None, n: int) -> GameClient:
            base = bases[n % len(bases)]
            others = [b for b in bases if b != base]
            cookie = g["cookies"][seat] if seat is not None else None
            client = GameClient(
                name,
                base,
                g["id"],
                cookie,
                play=seat is not None,
                ping_every=10.0,
                silence=25.0,
                act_every=act_every,
                others=others,
            )
            client.paused = True
            self.clients.append(client)
            async with gate:
                await client.start(60)
            return client

        jobs = []
        n = 0
        for g in self.games:
            for seat in (0, 1):
                jobs.append(one(f"g{g['id']}s{seat}", g, seat, n))
                n += 1
            for k in range(self.args.spectators):
                jobs.append(one(f"g{g['id']}w{k}", g, None, n))
                n += 1
        await asyncio.gather(*jobs)
        self.players = [c for c in self.clients if c.play]

    async def unpause(self) -> None:
        """Players start at random phases over one interval."""
        order = list(self.players)
        random.shuffle(order)
        for i, p in enumerate(order):
            p._last_act = time.monotonic() - random.random() * 2 * self.args.interval
            p.paused = False
            await p._maybe_move()
            if i % 20 == 0:
                await asyncio.sleep(self.args.interval / max(1, len(order) / 20))

    # -- load beside the games
    async def http_reader(self) -> None:
        """Without nginx, tries the processes in turn as nginx would (a
        refused connection goes to the next one)."""
        bases = [self.nginx.http] if self.nginx else [s.http for s in self.servers]
        turn = 0
        while not self.stopping:
            for _ in bases:
                status = await asyncio.to_thread(get_status, bases[turn] + "/api/rulesets/")
                turn = (turn + 1) % len(bases)
                if status != REFUSED:
                    break
            self.http.append((time.monotonic(), status))
            await asyncio.sleep(0.1)

    # -- phases
    def phase(self, name: str) -> Phase:
        if self.phases and not self.phases[-1].end:
            self.phases[-1].end = time.monotonic()
        found = Phase(name, time.monotonic())
        self.phases.append(found)
        return found

    def bot_versions(self) -> list[int]:
        assert self.db is not None
        rows = self.db.rows(
            "SELECT version FROM games_game WHERE id = ANY(%s) ORDER BY id", self.bot_games
        )
        return [r["version"] for r in rows]

    async def roll(self) -> None:
        phase = self.phase("roll")
        before = self.bot_versions()
        for server in self.servers:
            began = time.monotonic()
            assert server.proc is not None
            self.mark(f"{server.name} SIGTERM")
            server.proc.send_signal(signal.SIGTERM)
            await asyncio.to_thread(server.reap, 20.0)
            drained = time.monotonic() - began
            self.mark(f"{server.name} exited")
            server.start()
            await server.ready(60)
            self.mark(f"{server.name} ready")
            phase.events.append(
                f"{server.name}: drained in {drained:.1f} s, serving again after "
                f"{time.monotonic() - began:.1f} s"
            )
        await asyncio.sleep(3)  # the last process's pages come back
        self.bot_during_roll = (sum(before), sum(self.bot_versions()))
        phase.events.append(f"bot games' versions {before} -> {self.bot_versions()}")

    async def kill_host(self) -> None:
        phase = self.phase("kill")
        if self.hosts is not None:  # every process of host a
            host = [s for s in self.servers if self.host_of[s.name] == 0]
        else:
            host = self.servers[: max(1, len(self.servers) // 2)]
        self.mark("SIGKILL " + " ".join(s.name for s in host))
        for server in host:  # with its bot and picture workers, at once
            server.kill_group()
        phase.events.append(f"SIGKILL {', '.join(s.name for s in host)} and their workers")
        await asyncio.sleep(2)
        for server in host:
            server.start()
        await asyncio.gather(*(s.ready(60) for s in host))
        self.mark("killed host ready")
        await asyncio.sleep(5)

    async def quiet(self, seconds: float, name: str = "quiet") -> None:
        self.phase(name)
        await asyncio.sleep(seconds)

    async def settle(self, timeout: float = 60) -> None:
        self.phase("settle")
        for p in self.players:
            p.paused = True
        assert self.db is not None
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if all(c._outstanding is None and c.connected.is_set() for c in self.clients):
                versions = dict(
                    (r["id"], r["version"])
                    for r in self.db.rows(
                        "SELECT id, version FROM games_game WHERE id = ANY(%s)",
                        [g["id"] for g in self.games],
                    )
                )
                if all(c.last == versions[c.game_id] for c in self.clients):
                    break
            await asyncio.sleep(0.2)
        self.phases[-1].end = time.monotonic()

    # -- figures
    def write_trace(self, path: Path) -> None:
        """Every timestamp of the run (monotonic seconds), for finding where
        a slow move or a late socket comes from."""
        clients = [
            {
                "name": c.name,
                "play": c.play,
                "acks": c.ack_times,
                "hellos": c.hellos,
                "lost": c.lost_times,
                "back": c.back_after,
                "closes": c.closes,
            }
            for c in self.clients
        ]
        phases = [(ph.name, ph.start, ph.end) for ph in self.phases]
        trace = {"marks": self.marks, "phases": phases, "clients": clients}
        path.write_text(json.dumps(trace))

    def phase_at(self, wall: float) -> Phase:
        return (
            [ph for ph in self.phases if ph.wall <= wall][-1]
            if wall >= self.phases[0].wall
            else self.phases[0]
        )

    def table(self) -> list[dict[str, Any]]:
        rows = []
        for ph in self.phases:
            if ph.name == "settle":
                continue
            acks = [s for c in self.players for t, s in c.ack_times if ph.start <= t < ph.end]
            backs = [s for c in self.clients for t, s in c.back_after if ph.start <= t < ph.end]
            statuses = [s for t, s in self.http if ph.start <= t < ph.end]
            rows.append(
                {
                    "phase": ph.name,
                    "seconds": round(ph.end - ph.start, 1),
                    "moves": len(acks),
                    "move_p50_ms": round(pct(acks, 0.5) * 1000, 1),
                    "move_p99_ms": round(pct(acks, 0.99) * 1000, 1),
                    "sockets_back": len(backs),
                    "back_p50_s": round(pct(backs, 0.5), 2),
                    "back_p99_s": round(pct(backs, 0.99), 2),
                    "back_max_s": round(max(backs), 2) if backs else 0.0,
                    "http": len(statuses),
                    "http_5xx": sum(1 for s in statuses if s >= 500),
                    "unacked": ph.unacked,
                    "events": ph.events,
                }
            )
        return rows

    def checks(self) -> dict[str, Any]:
        assert self.db is not None
        lost, doubled, unacked, unsound = 0, 0, 0, 0
        for g in self.games:
            rows = self.db.events(g["id"])
            game = self.db.game(g["id"])
            by_version = {r["version"]: r for r in rows}
            if [r["version"] for r in rows] != list(range(1, game["version"] + 1)):
                unsound += 1
            acked: set[int] = set()
            for c in self.players:
                if c.game_id != g["id"]:
                    continue
                for v, action in c.acked.items():
                    row = by_version.get(v)
                    if row is None or (row["kind"], row["seat"], row["action"]) != (
                        "act",
                        c.seat,
                        action,
                    ):
                        lost += 1
                    if v in acked:
                        doubled += 1
                    acked.add(v)
            lost_acks = [r for r in rows if r["kind"] == "act" and r["version"] not in acked]
            unacked += len(lost_acks)
            for r in lost_acks:
                self.phase_at(r["created"].timestamp()).unacked += 1
        doubled += len(self.db.duplicate_versions())
        wrong = sum(1 for c in self.clients if c.violations or c.last == 0)
        bots = self.db.rows(
            "SELECT id, version, status FROM games_game WHERE id = ANY(%s)", self.bot_games
        )
        timed = self.db.game(self.timeout_game)
        nginx_5xx = 0
        if self.nginx is not None:
            nginx_5xx = sum(1 for _, s, _ in self.nginx.statuses() if s >= 500)
        return {
            "acked_moves": sum(len(c.acked) for c in self.players),
            "acked_lost": lost,
            "doubled": doubled,
            "committed_without_ack": unacked,
            "games_with_unsound_log": unsound,
            "clients_with_violations": wrong,
            "bot_game_versions": sorted(r["version"] for r in bots),
            "timeout_game": f"{timed['status']} {timed['result'] or ''}",
            "nginx_5xx": nginx_5xx,
            "bot_during_roll": self.bot_during_roll,
            # Sync frames the pages got (asked for on a gap, or sent when a
            # ping's version was behind), and the gaps they saw.
            "syncs": sum(c.syncs for c in self.clients),
            "gaps": sum(c.gaps for c in self.clients),
            # How the server closed the sockets: 4012 a drain, 1006 none (killed).
            "close_codes": dict(
                Counter(int(code or 0) for c in self.clients for code, _ in c.closes)
            ),
        }

    async def close(self) -> None:
        self.stopping = True
        await asyncio.gather(*(c.close() for c in self.clients), return_exceptions=True)
        procs: list[Process] = [*self.servers]
        if self.nginx:
            # SIGTERM: nginx's master ends its workers (a SIGKILL would orphan them).
            self.nginx.kill(signal.SIGTERM)
        if self.redis:
            procs.append(self.redis)
        procs += self.shards
        for p in procs:
            p.kill(signal.SIGKILL)
        if self.hosts is not None:
            self.hosts.stop()
        if self.db is not None:
            with contextlib.suppress(Exception):
                self.db.drop()


def get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return REFUSED  # no answer at all (counted as a failure)


async def run(args: argparse.Namespace, log_dir: Path) -> tuple[list[dict[str, Any]], dict]:
    bench = Bench(args, log_dir)
    reader: asyncio.Task | None = None
    try:
        await bench.start()
        reader = asyncio.create_task(bench.http_reader())
        await bench.unpause()
        await bench.quiet(args.quiet)
        if getattr(args, "roll", True):
            await bench.roll()
            if args.kill:
                await bench.quiet(args.quiet / 2, "quiet after")
        if args.kill:
            await bench.kill_host()
        await bench.quiet(args.quiet / 2, "quiet after")
        await bench.settle()
        bench.stopping = True
        if reader is not None:
            await reader
        checks = bench.checks()  # first: it counts lost acks per phase
        if getattr(args, "trace", None):
            bench.write_trace(Path(args.trace))
        return bench.table(), checks
    finally:
        bench.stopping = True
        if reader is not None:
            reader.cancel()
        await bench.close()


def print_table(rows: list[dict[str, Any]], checks: dict[str, Any]) -> None:
    head = (
        f"{'phase':<12} {'s':>5} {'moves':>6} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'back':>5} {'back p50':>8} {'back p99':>8} {'back max':>8} {'http':>5} {'5xx':>4} "
        f"{'unacked':>7}"
    )
    print(head)
    for r in rows:
        print(
            f"{r['phase']:<12} {r['seconds']:>5} {r['moves']:>6} {r['move_p50_ms']:>7} "
            f"{r['move_p99_ms']:>7} {r['sockets_back']:>5} {r['back_p50_s']:>8} "
            f"{r['back_p99_s']:>8} {r['back_max_s']:>8} {r['http']:>5} {r['http_5xx']:>4} "
            f"{r['unacked']:>7}"
        )
        for e in r["events"]:
            print(f"    {e}")
    for k, v in checks.items():
        print(f"{k}: {v}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--quiet", type=float, default=20.0)
    parser.add_argument("--kill", action="store_true", help="then SIGKILL one host's processes")
    parser.add_argument("--no-nginx", action="store_true")
    parser.add_argument("--no-roll", dest="roll", action="store_false", help="(with --kill)")
    parser.add_argument(
        "--hosts", type=int, default=1, help="2: the processes on two network namespaces"
    )
    parser.add_argument("--shards", type=int, default=1, help="Redis servers for the layer")
    parser.add_argument("--balance", default="least_conn", choices=sorted(BALANCE))
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--trace", help="write every client's timestamps here (JSON)")
    parser.add_argument("--logs", help="keep the processes' logs in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rolling-") as tmp:
        logs = Path(args.logs or tmp)
        logs.mkdir(parents=True, exist_ok=True)
        rows, checks = asyncio.run(run(args, logs))
    print_table(rows, checks)
    if args.json:
        Path(args.json).write_text(json.dumps({"phases": rows, "checks": checks}, indent=2))


if __name__ == "__main__":
    main()
