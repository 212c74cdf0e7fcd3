"""Two "hosts" on this machine, for the operations tests and bench/rolling.py:
each a network namespace with an address of its own on a private bridge, as
if each were a machine on the site's private network.

    root namespace: bridge 10.53.N.1 -- nginx, PostgreSQL (through a socat
                    relay on the bridge address), the bench's own Redis
    host a:         10.53.N.2        -- its Daphne processes
    host b:         10.53.N.3        -- its Daphne processes

The machine's PostgreSQL listens on 127.0.0.1 only, and stays as it is: a
socat process listens on the bridge address and relays each connection to
127.0.0.1:5432 (PostgreSQL sees a local client, as for the other tests). The
bench starts its own Redis bound to the bridge address too. Each run takes
its own subnet and names (from its process id), and removes them at the end.

Needs root (CAP_NET_ADMIN), ``ip`` (iproute2) and ``socat``;
``Hosts.permitted()`` says why not when it cannot.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from .cluster import PG_ADMIN_URL, Process, free_port

IP = shutil.which("ip") or "/usr/sbin/ip"
SOCAT = shutil.which("socat")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([IP, *args], capture_output=True, text=True, check=check, timeout=10)


class Hosts:
    """``count`` namespaces on one bridge; ``address(i)`` is host i's."""

    def __init__(self, count: int, log_dir: Path) -> None:
        tag = os.getpid() % 200 + 20  # subnet 10.53.<tag>.0/24, names ...<tag>
        self.tag = tag
        self.count = count
        self.bridge = f"bsprb{tag}"
        self.names = [f"bsp{tag}{chr(ord('a') + i)}" for i in range(count)]
        self.gateway = f"10.53.{tag}.1"
        self.log_dir = log_dir
        self.relay: Process | None = None
        self.pg_port = 0

    @staticmethod
    def permitted() -> str | None:
        """None when this process may make namespaces, else why not."""
        if SOCAT is None:
            return "socat is not installed (apt-get install socat)"
        if not Path(IP).exists():
            return "ip (iproute2) is not installed"
        name = f"bspprobe{os.getpid() % 100000}"
        made = _ip("netns", "add", name, check=False)
        if made.returncode != 0:
            return f"`ip netns add` is not permitted here: {made.stderr.strip()}"
        _ip("netns", "del", name, check=False)
        return None

    def address(self, i: int) -> str:
        return f"10.53.{self.tag}.{i + 2}"

    def exec_prefix(self, i: int) -> list[str]:
        """Run a command on host i."""
        return [IP, "netns", "exec", self.names[i]]

    def start(self) -> None:
        self.stop()  # what a killed earlier run of the same id left
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        for i, ns in enumerate(self.names):
            outer, inner = f"{ns}o", f"{ns}i"
            _ip("netns", "add", ns)
            _ip("link", "add", outer, "type", "veth", "peer", "name", inner)
            _ip("link", "set", inner, "netns", ns)
            _ip("link", "set", outer, "master", self.bridge)
            _ip("link", "set", outer, "up")
            _ip("-n", ns, "addr", "add", f"{self.address(i)}/24", "dev", inner)
            _ip("-n", ns, "link", "set", inner, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        # PostgreSQL for the hosts: a relay on the bridge to 127.0.0.1.
        pg = PG_ADMIN_URL.split("@", 1)[1].split("/", 1)[0]
        pg_host, _, pg_port = pg.partition(":")
        self.pg_port = free_port()
        listen = f"TCP-LISTEN:{self.pg_port},bind={self.gateway},reuseaddr,fork,backlog=512"
        target = f"TCP:{pg_host}:{pg_port or 5432}"
        self.relay = Process(
            "pg-relay", [str(SOCAT), listen, target], dict(os.environ), self.log_dir
        )
        self.relay.start()
        until = time.monotonic() + 10
        while True:
            try:
                socket.create_connection((self.gateway, self.pg_port), timeout=1).close()
                break
            except OSError as exc:
                if time.monotonic() > until or not self.relay.running():
                    raise AssertionError(
                        f"the PostgreSQL relay did not start: {self.relay.log}"
                    ) from exc
                time.sleep(0.05)

    def database_url(self, url: str) -> str:
        """``url`` (a database on the machine's PostgreSQL) as the hosts reach it."""
        head, _, tail = url.partition("@")
        return f"{head}@{self.gateway}:{self.pg_port}/{tail.split('/', 1)[1]}"

    def stop(self) -> None:
        if self.relay is not None:
            self.relay.kill()
            self.relay = None
        for ns in self.names:
            _ip("netns", "del", ns, check=False)  # its veth pair goes with it
            _ip("link", "del", f"{ns}o", check=False)
        with contextlib.suppress(Exception):
            _ip("link", "del", self.bridge, check=False)
