"""``/healthz`` and ``/readyz`` for the proxy and for orchestrators.

Answered on the event loop before Django (no session, no host check, no
throttle, no middleware): ``/healthz`` is 200 while this process serves and
its database and Redis answer within ``HEALTH_TIMEOUT`` seconds, else 503;
``/readyz`` is the same, and 503 while the process drains for a restart
(config/drain.py). The body says which part failed, as JSON.

A database that hangs must not pile up threads: one check at a time runs in
a thread of its own, and a probe that comes while it runs waits for it.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from games.realtime.draining import state as drain_state
from games.redis_clients import RedisClients
from games.threads import closing_connections

PATHS = frozenset({"/healthz", "/readyz"})
HEALTH_TIMEOUT = 2.0
_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="health")
_redis: dict[str, RedisClients] = {}
_database_check: asyncio.Future[None] | None = None


def _select_one() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


_ping_database_in_thread = sync_to_async(
    closing_connections(_select_one), thread_sensitive=False, executor=_THREAD
)


async def _database() -> None:
    """SELECT 1 on the site's database; one at a time (see the module)."""
    global _database_check
    if _database_check is None or _database_check.done():
        _database_check = asyncio.ensure_future(_ping_database_in_thread())
    await asyncio.shield(_database_check)


async def _redis_ping() -> None:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return
    clients = _redis.get(url)
    if clients is None:
        clients = _redis[url] = RedisClients(
            url, socket_timeout=HEALTH_TIMEOUT, socket_connect_timeout=HEALTH_TIMEOUT
        )
    await clients.on_loop().ping()


async def _check(name: str, probe: Any) -> str:
    try:
        await asyncio.wait_for(probe(), HEALTH_TIMEOUT)
    except TimeoutError:
        return "timeout"
    except Exception as exc:  # any failure is "not healthy", said by its kind
        return f"error: {type(exc).__name__}"
    return "ok"


async def report(path: str) -> tuple[int, dict[str, Any]]:
    """The status code and body for ``path`` (one of ``PATHS``)."""
    database, redis = await asyncio.gather(
        _check("database", _database), _check("redis", _redis_ping)
    )
    body: dict[str, Any] = {
        "serving": True,
        "database": database,
        "redis": redis if getattr(settings, "REDIS_URL", "") else "not used",
        "draining": drain_state.draining,
    }
    healthy = database == "ok" and redis == "ok"
    ready = healthy and not drain_state.draining
    return (200 if (ready if path == "/readyz" else healthy) else 503), body


async def health_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI app of ``PATHS`` (any method; a body is not read)."""
    status, body = await report(scope["path"])
    headers = [
        (b"content-type", b"application/json"),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})
