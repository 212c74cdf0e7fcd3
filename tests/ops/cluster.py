"""Helpers for the operations tests: real Daphne processes, a private Redis,
a throwaway PostgreSQL database, and websocket clients that behave like the
game page (versions, resync on gaps, ping, reconnect with backoff).

Run as a script (``python tests/ops/cluster.py setup`` with a JSON spec on
stdin) it creates users, started games and session cookies through Django,
with the same environment as the servers; the test process itself never
imports the project's models against these databases.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".venv" / "bin"
PYTHON = str(BIN / "python") if (BIN / "python").exists() else sys.executable
DAPHNE = str(BIN / "daphne") if (BIN / "daphne").exists() else (shutil.which("daphne") or "daphne")
PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
SETUP_MARK = "OPS-SETUP "
# Seat 0 (White) heads for (0, 0), seat 1 (Black) for (9, 9).
GOAL = {0: (0, 0), 1: (9, 9)}


# Ports for the servers these tests start, below the kernel's ephemeral range
# (32768 and up here), where every server that binds port 0 (the browser
# tests' live servers) and every outgoing connection gets its port; one block
# per pytest-xdist worker. A port the kernel handed out (bind to 0, close)
# could be taken by such a server before ours binds it.
PORT_BLOCK = 1000
_BLOCK_START = 20_000 + PORT_BLOCK * int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
_tried = itertools.count(os.getpid())  # where in the block a run starts


def free_port() -> int:
    """A port of this worker's block that nothing is bound to now."""
    for _ in range(PORT_BLOCK):
        port = _BLOCK_START + next(_tried) % PORT_BLOCK
        with socket.socket() as s, contextlib.suppress(OSError):
            s.bind(("127.0.0.1", port))
            return port
    raise AssertionError("no free port left in this worker's block")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# -- PostgreSQL ----------------------------------------------------------------


def pg_available() -> bool:
    try:
        import psycopg

        psycopg.connect(PG_ADMIN_URL, connect_timeout=3).close()
        return True
    except Exception:
        return False


class Database:
    """A throwaway PostgreSQL database (created here, dropped at the end)."""

    def __init__(self, name: str) -> None:
        self.name = name
        base = PG_ADMIN_URL.rsplit("/", 1)[0]
        self.url = f"{base}/{name}"
        self._conn: Any = None

    def create(self) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        import psycopg

        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
        with psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    @property
    def conn(self) -> Any:
        import psycopg
        from psycopg.rows import dict_row

        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(
                self.url, autocommit=True, connect_timeout=5, row_factory=dict_row
            )
        return self._conn

    def rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        cur = self.conn.execute(sql, params)
        return cur.fetchall() if cur.description else []

    def game(self, game_id: int) -> dict[str, Any]:
        return self.rows("SELECT * FROM games_game WHERE id = %s", game_id)[0]

    def events(self, game_id: int) -> list[dict[str, Any]]:
        return self.rows(
            "SELECT version, seat, kind, action, events, created FROM games_event "
            "WHERE game_id = %s ORDER BY version, id",
            game_id,
        )

    def duplicate_versions(self) -> list[dict[str, Any]]:
        return self.rows(
            "SELECT game_id, version, count(*) AS n FROM games_event "
            "GROUP BY game_id, version HAVING count(*) > 1"
        )

    def assert_event_log_sound(self, game_id: int) -> list[dict[str, Any]]:
        """Versions 1..game.version, each exactly once; returns the rows."""
        rows = self.events(game_id)
        game = self.game(game_id)
        versions = [r["version"] for r in rows]
        assert versions == list(range(1, game["version"] + 1)), (
            f"game {game_id}: event versions {versions} vs game version {game['version']}"
        )
        return rows


# -- environment and subprocesses ------------------------------------------------


def server_env(db_url: str, redis_url: str, prefix: str, **extra: str) -> dict[str, str]:
    """The environment of a server (and of the setup script): nothing inherited
    from the test process decides the database, the layer or the mode."""
    drop = ("DJANGO_", "SQLITE_", "PYTEST_", "DATABASE_URL", "REDIS_URL", "CHANNEL_PREFIX")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV="development",
        DATABASE_URL=db_url,
        REDIS_URL=redis_url,
        CHANNEL_PREFIX=prefix,
        GAME_SWEEPER="1",
        GAME_SWEEP_SECONDS="0.2",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    env.update(extra)
    return env


def run_checked(cmd: list[str], env: dict[str, str], timeout: float, stdin: str | None = None):
    proc = subprocess.run(
        cmd,
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return proc


def migrate(env: dict[str, str]) -> None:
    run_checked([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], env, timeout=120)


def setup_games(
    env: dict[str, str], games: list[dict[str, Any]], timeout: float = 120
) -> list[dict[str, Any]]:
    """Create users and started games through Django in a subprocess.

    Each spec: {"players": ["name0", "name1"], "clock": {...} | None}. Returns
    [{"id": game id, "players": [...], "cookies": [cookie header per seat],
    "tokens": [API token per seat]}].
    """
    proc = run_checked(
        [PYTHON, str(Path(__file__).resolve()), "setup"],
        env,
        timeout=timeout,
        stdin=json.dumps({"games": games}),
    )
    for line in proc.stdout.splitlines():
        if line.startswith(SETUP_MARK):
            return json.loads(line[len(SETUP_MARK) :])
    raise AssertionError(f"setup printed no result:\n{proc.stdout}\n{proc.stderr}")


class Process:
    """A subprocess with its output in a log file; always killed in teardown."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.cmd = cmd
        self.env = env
        self.log = log_dir / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, f"{self.name} is running"
        self.starts += 1
        with self.log.open("a") as log:
            log.write(f"--- start #{self.starts}: {' '.join(self.cmd)}\n")
            log.flush()
            self.proc = subprocess.Popen(
                self.cmd,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self, sig: int = signal.SIGKILL, wait: float = 10.0) -> None:
        """Send ``sig`` to this process (only this one, by its id) and reap it."""
        if not self.running():
            return
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)

    def terminate(self) -> None:
        if self.running():
            assert self.proc is not None
            self.proc.terminate()

    def reap(self, grace: float) -> None:
        """Wait up to ``grace`` seconds for it to exit, then SIGKILL it."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


class Daphne(Process):
    """One Daphne process; on another "host" (tests/ops/hosts.py) with that
    host's address and the command prefix that runs it there."""

    def __init__(
        self,
        name: str,
        env: dict[str, str],
        log_dir: Path,
        port: int | None = None,
        host: str = "127.0.0.1",
        prefix: list[str] | None = None,
    ):
        self.port = port or free_port()
        self.host = host
        cmd = [DAPHNE, "-b", host, "-p", str(self.port), "config.asgi:application"]
        super().__init__(name, [*(prefix or []), *cmd], env, log_dir)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def http(self) -> str:
        return f"http://{self.address}"

    @property
    def ws(self) -> str:
        return f"ws://{self.address}"

    def kill_group(self) -> None:
        """SIGKILL this process and the processes it started (its bot and
        picture workers: its own session), as when its host dies."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def get(self, path: str, timeout: float = 2.0) -> int:
        try:
            with urllib.request.urlopen(self.http + path, timeout=timeout) as r:
                r.read()
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code

    async def ready(self, timeout: float = 30.0) -> None:
        """Poll until the server answers HTTP (which also starts its sweeper)."""
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if not self.running():
                raise AssertionError(f"{self.name} exited:\n{tail(self.log)}")
            with contextlib.suppress(OSError):
                status = await asyncio.to_thread(self.get, "/api/rulesets/", 1.0)
                if status == 200:
                    return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{self.name} not ready after {timeout}s:\n{tail(self.log)}")


def redis_server_path() -> str | None:
    return shutil.which("redis-server")


class RedisServer(Process):
    """A private redis-server that the test may kill and restart (no persistence)."""

    def __init__(
        self,
        name: str,
        log_dir: Path,
        port: int | None = None,
        bind: str = "127.0.0.1",
        password: str = "",
    ) -> None:
        """``bind``: its addresses (a private network's too: then give it a
        ``password``, as docs/deploy.md says, or Redis refuses the others)."""
        self.port = port or free_port()
        self.password = password
        cmd = [
            redis_server_path() or "redis-server",
            "--port",
            str(self.port),
            "--bind",
            *bind.split(),
            "--save",
            "",
            "--appendonly",
            "no",
            *(["--requirepass", password] if password else []),
        ]
        super().__init__(name, cmd, dict(os.environ), log_dir)

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                if self.password:
                    s.sendall(f"AUTH {self.password}\r\n".encode())
                    if not s.recv(16).startswith(b"+OK"):
                        return False
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    async def ready(self, timeout: float = 10.0) -> None:
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if not self.running():
                raise AssertionError(f"{self.name} exited:\n{tail(self.log)}")
            if self.ping():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.name} not ready after {timeout}s:\n{tail(self.log)}")


# -- websocket clients -------------------------------------------------------------


def progress(seat: int, action: dict[str, Any]) -> int:
    """How much nearer the goal corner a Halma move brings its piece."""
    (r0, c0), (r1, c1) = action["path"][0], action["path"][-1]
    gr, gc = GOAL[seat]
    return (abs(r0 - gr) + abs(c0 - gc)) - (abs(r1 - gr) + abs(c1 - gc))


def greedy(seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The move tests/games/halma_script.py's march() ranks first; played to the
    end (game-ending moves not skipped) it wins for White at ply 109."""
    return sorted(legal, key=lambda a: (-progress(seat, a), a["path"]))[0]


class ConnectionLost(Exception):
    pass


RESTART = 4012  # a draining server's close (games/realtime/draining.py)


class GameClient:
    """A game page, minus the page: keeps the last version it applied, applies
    each event exactly once, resyncs on gaps, pings, reconnects with
    ``?since=<version>`` after a drop (backoff 0.1 s doubling to 1 s), and
    drops a socket that stays silent for ``silence`` seconds.

    With ``play=True`` a player moves by itself (greedy Halma move from the
    ``legal`` list of its latest state) whenever it is to act.
    """

    def __init__(
        self,
        name: str,
        base: str,
        game_id: int,
        cookie: str | None = None,
        *,
        play: bool = False,
        ping_every: float = 1.0,
        backoff_max: float = 1.0,
        silence: float = 5.0,
        origin: str | None = None,
        act_every: float = 0.16,
        others: list[str] | None = None,
    ) -> None:
        self.name = name
        self.base = base
        # Other processes to try after a drop or a refused try, in turn (a
        # restarted process's pages come back elsewhere, as through nginx).
        self.bases = [base, *(others or [])]
        self.closes: list[tuple[int | None, int | None]] = []  # (code, retry_ms) of each
        self.retry_ms: int | None = None  # a draining server's hint ("restart" frame)
        # (when lost, seconds until the next hello) of each drop
        self.back_after: list[tuple[float, float]] = []
        self.ack_times: list[tuple[float, float]] = []  # (when acked, seconds from the act)
        self.hellos: list[float] = []  # time.monotonic() of each hello
        self.lost_times: list[float] = []  # time.monotonic() of each loss
        self._sent_at: dict[str, float] = {}
        self._lost_at = 0.0
        self.origin = origin or base.replace("ws://", "http://")
        self.game_id = game_id
        self.cookie = cookie
        self.play = play
        self.ping_every = ping_every
        self.backoff_max = backoff_max
        self.silence = silence
        self.act_every = act_every
        self.seat: int | None = None
        self.last = 0  # highest version applied, in order
        self.applied: list[int] = []  # every version applied, in the order applied
        self.events: dict[int, dict[str, Any]] = {}
        self.sources: dict[int, str] = {}  # version -> "hello" | "event" | "sync"
        self.applied_at: dict[int, float] = {}  # version -> time.monotonic() applied
        self.state: dict[str, Any] | None = None
        self.acked: dict[int, dict[str, Any]] = {}  # version -> the action acked
        self.errors: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.connects = 0
        self.drops = 0
        self.duplicates = 0
        self.gaps = 0
        self.syncs = 0
        self.pongs = 0
        self.ws: Any = None
        self.connected = asyncio.Event()
        self.act_sent = asyncio.Event()  # set whenever an automatic act goes out
        self.paused = False  # a player that stops moving (tests take over)
        self._task: asyncio.Task | None = None
        self._closing = False
        self._sync_pending = False
        self._buffer: list[dict[str, Any]] = []
        self._refs = itertools.count(1)
        self._sent: dict[str, dict[str, Any]] = {}  # ref -> the act frame
        self._replies: dict[str, asyncio.Future] = {}
        self._outstanding: str | None = None  # ref of an act not yet answered
        self._acted_on = -1  # the version the last automatic act was sent on
        self._last_act = 0.0
        self._timer: asyncio.Task | None = None

    # -- lifecycle
    def url(self) -> str:
        return f"{self.base}/ws/game/{self.game_id}/?since={self.last}"

    async def start(self, timeout: float = 15.0) -> GameClient:
        self._task = asyncio.create_task(self._run(), name=self.name)
        await self.wait_connected(timeout)
        return self

    async def wait_connected(self, timeout: float = 15.0) -> None:
        try:
            await asyncio.wait_for(self.connected.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name}: not connected after {timeout}s") from None

    async def close(self) -> None:
        self._closing = True
        if self._timer is not None:
            self._timer.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _run(self) -> None:
        from websockets.asyncio.client import connect

        delay = 0.1
        while not self._closing:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            try:
                ws = await connect(
                    self.url(),
                    origin=self.origin,
                    additional_headers=headers,
                    open_timeout=5,
                    ping_interval=None,
                    close_timeout=1,
                    max_size=None,
                    compression=None,
                )
            except Exception:
                self._next_base()
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.backoff_max)
                continue
            self.ws = ws
            self.connects += 1
            pinger = asyncio.create_task(self._pinger(ws))
            try:
                while True:
                    text = await asyncio.wait_for(ws.recv(), self.silence)
                    await self._handle(json.loads(text))
                    delay = 0.1
            except TimeoutError:
                pass  # silent too long: start afresh, as the page does
            except Exception:
                pass  # closed by the server or the network
            finally:
                pinger.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(ws.close(), 1)
                self._lost()
            if not self._closing:
                self.drops += 1
                self.closes.append((ws.close_code, self.retry_ms))
                self._next_base()
                hint = self.retry_ms if ws.close_code == RESTART else None
                self.retry_ms = None
                await asyncio.sleep(delay if hint is None else hint / 1000)
                delay = min(delay * 2, self.backoff_max)

    def _next_base(self) -> None:
        if len(self.bases) > 1:
            self.base = self.bases[(self.bases.index(self.base) + 1) % len(self.bases)]

    def _lost(self) -> None:
        self.ws = None
        if self.connected.is_set():
            self._lost_at = time.monotonic()
            self.lost_times.append(self._lost_at)
        self.connected.clear()
        self._sync_pending = False
        self._buffer = []
        self._outstanding = None
        self._acted_on = -1  # an unanswered act may not have been applied: may act again
        for fut in self._replies.values():
            if not fut.done():
                fut.set_exception(ConnectionLost(self.name))
        self._replies.clear()

    async def _pinger(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(self.ping_every)
            with contextlib.suppress(Exception):
                await ws.send(
                    json.dumps({"type": "ping", "game": self.game_id, "version": self.last})
                )

    async def send(self, frame: dict[str, Any]) -> None:
        if self.ws is None:
            raise ConnectionLost(self.name)
        await self.ws.send(json.dumps(frame))

    # -- frames
    async def _handle(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "restart":
            self.retry_ms = frame["retry_ms"]
        elif kind == "hello":
            if frame.get("game") != self.game_id:
                self.violations.append(f"hello for game {frame.get('game')}")
            self.seat = frame.get("seat")
            self._apply_list(frame.get("events", []), "hello")
            self._set_state(frame["state"])
            self.hellos.append(time.monotonic())
            if self._lost_at:
                self.back_after.append((self._lost_at, time.monotonic() - self._lost_at))
                self._lost_at = 0.0
            self.connected.set()
        elif kind == "event":
            if self._sync_pending:
                self._buffer.append(frame)
            else:
                await self._on_event(frame)
        elif kind == "sync":
            self.syncs += 1
            self._apply_list(frame.get("events", []), "sync")
            self._set_state(frame["state"])
            self._sync_pending = False
            pending, self._buffer = sorted(self._buffer, key=lambda f: f["version"]), []
            for f in pending:
                await self._on_event(f)
        elif kind in ("ack", "error"):
            ref = frame.get("ref")
            if kind == "ack":
                sent = self._sent.get(ref)
                if sent is not None and sent.get("type") == "act":
                    self.acked[frame["version"]] = sent["action"]
                    now = time.monotonic()
                    self.ack_times.append((now, now - self._sent_at.pop(ref, now)))
            else:
                self.errors.append(frame)
            if ref is not None and ref == self._outstanding:
                self._outstanding = None
            fut = self._replies.pop(ref, None)
            if fut is not None and not fut.done():
                fut.set_result(frame)
            if kind == "error" and frame.get("version", -1) > self.last:
                await self._request_sync()
        elif kind == "pong":
            self.pongs += 1
        elif kind not in ("watchers", "table", "chat"):
            self.violations.append(f"unexpected frame {kind!r}")
        await self._maybe_move()

    async def _on_event(self, frame: dict[str, Any]) -> None:
        v = frame["version"]
        if v <= self.last:
            self.duplicates += 1  # a duplicate (e.g. already had it from a sync): ignore
            return
        if v != self.last + 1:
            self.gaps += 1
            self._buffer.append(frame)
            await self._request_sync()
            return
        state = self._next_state(frame)
        if state is None:  # its view patch does not fit ours: the full state instead
            await self._request_sync()
            return
        self._apply(frame["event"], "event")
        self._set_state(state)

    def _next_state(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The state an event frame leads to: its view whole, or patched from
        the view of the version before (docs/protocol.md "event")."""
        if "view" in frame["state"]:
            return frame["state"]
        if self.state is None or self.state["version"] != frame["version"] - 1:
            return None
        # Here, not at the top: run as a script (setup), this file has no
        # project on its path until main() adds it. delta is pure Python.
        from games.selectors import delta

        try:
            view = delta.apply(self.state["view"], frame["view_patch"])
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        return {**frame["state"], "view": view}

    async def _request_sync(self) -> None:
        if self._sync_pending or self.ws is None:
            return
        self._sync_pending = True
        with contextlib.suppress(Exception):
            await self.send({"type": "sync", "game": self.game_id, "version": self.last})

    def _apply_list(self, events: list[dict[str, Any]], source: str) -> None:
        for event in events:
            if event["version"] <= self.last:
                self.duplicates += 1
            elif event["version"] == self.last + 1:
                self._apply(event, source)
            else:
                self.violations.append(f"{source} jumps from {self.last} to {event['version']}")
                return

    def _apply(self, event: dict[str, Any], source: str) -> None:
        v = event["version"]
        if v in self.events:
            self.violations.append(f"version {v} applied twice ({source})")
        self.events[v] = event
        self.sources[v] = source
        self.applied_at[v] = time.monotonic()
        self.applied.append(v)
        self.last = v

    def _set_state(self, state: dict[str, Any]) -> None:
        # Keep the newest snapshot: a hello's events may run ahead of its state.
        if self.state is None or state["version"] >= self.state["version"]:
            self.state = state

    # -- playing
    def my_turn(self) -> bool:
        s = self.state
        return (
            self.seat is not None
            and s is not None
            and s["status"] == "active"
            and self.seat in s["to_act"]
            and s["version"] == self.last
            and bool(s["legal"])
        )

    async def _maybe_move(self) -> None:
        if not self.play or self.paused or self._sync_pending or self.ws is None:
            return
        if self._outstanding is not None or not self.my_turn() or self._acted_on >= self.last:
            return
        # The server closes a socket that sends more than 40 acts in 5 s (or 60
        # frames): a player paces itself like a (very fast) human.
        wait = self._last_act + self.act_every - time.monotonic()
        if wait > 0:
            if self._timer is None or self._timer.done():
                self._timer = asyncio.create_task(self._move_later(wait))
            return
        assert self.state is not None and self.seat is not None
        self._last_act = time.monotonic()
        action = greedy(self.seat, self.state["legal"])
        self._acted_on = self.last
        ref = self._ref()
        self._outstanding = ref
        frame = {
            "type": "act",
            "game": self.game_id,
            "version": self.last,
            "action": action,
            "ref": ref,
        }
        self._sent[ref] = frame
        self._sent_at[ref] = time.monotonic()
        with contextlib.suppress(Exception):
            await self.send(frame)
            self.act_sent.set()

    async def _move_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        await self._maybe_move()

    def _ref(self) -> str:
        return f"{self.name}-{next(self._refs)}"

    async def request(self, frame: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a frame with a fresh ref; return the ack or error answering it."""
        frame = dict(frame)
        frame.setdefault("ref", self._ref())
        fut = asyncio.get_running_loop().create_future()
        self._replies[frame["ref"]] = fut
        self._sent[frame["ref"]] = frame
        await self.send(frame)
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name}: no answer to {frame} in {timeout}s") from None

    async def act(
        self, action: dict[str, Any], version: int | None = None, **kw: Any
    ) -> dict[str, Any]:
        v = self.last if version is None else version
        frame = {"type": "act", "game": self.game_id, "version": v, "action": action}
        return await self.request(frame, **kw)

    # -- checks
    def assert_saw_all(self, final: int) -> None:
        """Every version 1..final exactly once, in order, nothing odd."""
        assert not self.violations, f"{self.name}: {self.violations}"
        assert self.applied == list(range(1, final + 1)), (
            f"{self.name}: applied {self.applied[:5]}...{self.applied[-5:]} "
            f"({len(self.applied)}), want 1..{final}"
        )

    def pushed_since(self, t: float) -> list[int]:
        """Versions that arrived as pushed event frames after time ``t``."""
        return [v for v, src in self.sources.items() if src == "event" and self.applied_at[v] > t]

    def pushed(self) -> int:
        """How many versions arrived as pushed event frames (not via hello/sync)."""
        return sum(1 for s in self.sources.values() if s == "event")

    def summary(self) -> str:
        return (
            f"{self.name}: last={self.last} connects={self.connects} drops={self.drops} "
            f"pushed={self.pushed()} gaps={self.gaps} syncs={self.syncs} duplicates={self.duplicates} "
            f"errors={[e.get('code') for e in self.errors]}"
        )


async def wait_until(predicate: Any, timeout: float, what: str, *clients: GameClient) -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if predicate():
            return
        await asyncio.sleep(0.02)
    detail = "\n".join(c.summary() for c in clients)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}\n{detail}")


async def settle(db: Database, game_id: int, clients: list[GameClient], timeout: float) -> int:
    """Wait until no act is in flight and every client has the database's version."""

    def settled() -> bool:
        if any(c._outstanding is not None for c in clients):
            return False
        version = db.game(game_id)["version"]
        return all(c.last == version and c.connected.is_set() for c in clients)

    await wait_until(settled, timeout, "the clients to settle", *clients)
    return db.game(game_id)["version"]


def assert_acked_in_db(clients: list[GameClient], rows: list[dict[str, Any]]) -> set[int]:
    """Every acked move is an act row with that seat and action; returns the act
    versions nobody was acked for (committed while the ack was lost)."""
    by_version = {r["version"]: r for r in rows}
    for c in clients:
        for v, action in c.acked.items():
            row = by_version.get(v)
            assert row is not None, f"{c.name} was acked version {v}, the database lacks it"
            assert (row["kind"], row["seat"], row["action"]) == ("act", c.seat, action), (
                f"{c.name} acked v{v} {action}, database has {row}"
            )
    acked = {v for c in clients for v in c.acked}
    return {r["version"] for r in rows if r["kind"] == "act"} - acked


def assert_matches_db(client: GameClient, rows: list[dict[str, Any]], game: dict[str, Any]) -> None:
    """What a client applied is what the database holds, version by version."""
    assert client.last == game["version"], f"{client.name}: last {client.last} vs {game['version']}"
    assert client.state is not None
    assert client.state["version"] == game["version"]
    assert client.state["status"] == game["status"]
    assert client.state["result"] == game["result"]
    for row in rows:
        seen = client.events.get(row["version"])
        assert seen is not None, f"{client.name} never applied version {row['version']}"
        assert (seen["kind"], seen["seat"]) == (row["kind"], row["seat"]), (
            f"{client.name} v{row['version']}: {seen} vs {row}"
        )
        if row["kind"] == "act":
            moved = [e for e in seen["events"] if e.get("type") == "moved"]
            assert moved and moved[0]["path"] == row["action"]["path"], (
                f"{client.name} v{row['version']}: {seen['events']} vs {row['action']}"
            )


# -- the setup script -------------------------------------------------------------


def _setup_main() -> None:
    spec = json.loads(sys.stdin.read())
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from bench.ws_load import session_cookie
    from lobby.services import table_create, table_join, table_start

    user_model = get_user_model()
    cookies: dict[str, str] = {}
    out = []
    for g in spec["games"]:
        users = []
        for name in g.get("players", []):
            user, created = user_model.objects.get_or_create(username=name)
            if created:
                user.set_unusable_password()
                user.save()
            users.append(user)
            if name not in cookies:
                cookies[name] = session_cookie(user)
        if g.get("bots"):  # a staff bot match: bots on every seat, started at once
            staff, _ = user_model.objects.get_or_create(username=g["host"], is_staff=True)
            game = table_create(
                host=staff, ruleset=g.get("ruleset", "halma"), bot={"levels": g["bots"]}
            )
            out.append({"id": game.pk, "players": [], "cookies": [], "tokens": []})
            continue
        game = table_create(
            host=users[0],
            ruleset=g.get("ruleset", "halma"),
            seat_count=len(users),
            clock=g.get("clock"),
            rated=g.get("rated"),
        )
        for user in users[1:]:
            table_join(game_id=game.pk, user=user)
        table_start(game_id=game.pk, user=users[0])
        tokens = [Token.objects.get_or_create(user=user)[0].key for user in users]
        out.append(
            {
                "id": game.pk,
                "players": g["players"],
                "cookies": [cookies[n] for n in g["players"]],
                "tokens": tokens,
            }
        )
    print(SETUP_MARK + json.dumps(out), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["setup"]:
        _setup_main()
    else:
        sys.exit("usage: cluster.py setup < spec.json")
