"""Fixtures for the operations tests: a throwaway PostgreSQL database per module
(migrated in a subprocess), and a cluster per test that starts Daphne (and
redis-server) processes and always kills them in teardown.

These tests do not use pytest-django's test database: the servers are real
subprocesses with their own DATABASE_URL / REDIS_URL / CHANNEL_PREFIX.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REDIS_HOST, REDIS_PORT, redis_available, require_service

from .cluster import (
    Daphne,
    Database,
    GameClient,
    Process,
    RedisServer,
    migrate,
    pg_available,
    redis_server_path,
    server_env,
    setup_games,
    tail,
    unique,
)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any):
    report = yield
    setattr(item, f"ops_rep_{report.when}", report)
    return report


@pytest.fixture(scope="module")
def ops_db() -> Iterator[Database]:
    require_service(pg_available(), "PostgreSQL on 127.0.0.1:5432 (or TEST_POSTGRES_URL)")
    db = Database(unique("bsp_ops_"))
    db.create()
    try:
        migrate(server_env(db.url, "", "unused"))
        yield db
    finally:
        db.drop()


class Cluster:
    """Processes and clients of one test; everything is stopped in teardown."""

    def __init__(self, db: Database, log_dir: Path) -> None:
        self.db = db
        self.redis_url = ""  # the shared Redis (unique prefix) unless private_redis() ran
        self.log_dir = log_dir
        self.prefix = unique("bspops")  # never collides with other users of a shared Redis
        self.processes: list[Process] = []
        self.clients: list[GameClient] = []

    def env(self, **extra: str) -> dict[str, str]:
        if not self.redis_url:
            require_service(redis_available(), f"Redis on {REDIS_HOST}:{REDIS_PORT}")
            self.redis_url = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
        return server_env(self.db.url, self.redis_url, self.prefix, **extra)

    async def daphnes(self, *names: str, **extra: str) -> list[Daphne]:
        """Start servers by these names; ``extra`` adds to their environment."""
        servers = [Daphne(name, self.env(**extra), self.log_dir) for name in names]
        for server in servers:
            self.processes.append(server)
            server.start()
        await asyncio.gather(*(s.ready() for s in servers))
        return servers

    async def private_redis(self) -> RedisServer:
        require_service(redis_server_path() is not None, "the redis-server program")
        server = RedisServer("redis", self.log_dir)
        self.processes.append(server)
        server.start()
        await server.ready()
        self.redis_url = server.url
        return server

    def games(self, *specs: dict[str, Any]) -> list[dict[str, Any]]:
        return setup_games(self.env(), list(specs))

    def wake(self, *names: str) -> None:
        """Wake the servers' loops ``names`` after writing their work into the
        database behind the services' back (games/wakeups.py: the Redis key
        the lease holder takes with its next renewal)."""
        import redis

        client = redis.Redis.from_url(self.env()["REDIS_URL"])
        try:
            client.mset({f"{self.prefix}:wake:{name}": 1 for name in names})
        finally:
            client.close()

    def player_names(self, n: int = 2) -> list[str]:
        tag = unique("")
        return [f"ops{tag}{i}" for i in range(n)]

    async def client(self, name: str, server: Daphne, game_id: int, **kw: Any) -> GameClient:
        client = GameClient(name, server.ws, game_id, **kw)
        self.clients.append(client)
        return await client.start()

    def report(self) -> str:
        lines = [c.summary() for c in self.clients]
        for p in self.processes:
            lines.append(f"--- {p.name} (pid {p.pid}, started {p.starts}x), {p.log}:")
            lines.append(tail(p.log, 30))
        return "\n".join(lines)

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.clients), return_exceptions=True)
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            p.reap(1.0)


@pytest.fixture
async def cluster(
    request: pytest.FixtureRequest, ops_db: Database, tmp_path: Path
) -> AsyncIterator[Cluster]:
    c = Cluster(ops_db, tmp_path)
    try:
        yield c
    finally:
        call = getattr(request.node, "ops_rep_call", None)
        if call is not None and call.failed:
            print(f"\n=== cluster of {request.node.name}:\n{c.report()}", file=sys.__stderr__)
        await c.close()
