"""One process at a time runs each background sweep.

Every server process starts the same loops (deadlines, bot turns, mail,
pushes, replays, imports); each of them is safe to run in several processes
(rows are claimed with ``skip_locked`` or leases of their own), but N
processes asking the database the same question every half second is N times
the idle load for nothing. So a loop asks for its lease first: a Redis key
holding the id of the process that runs it, renewed by that process each
round and taken over by another once the holder stops renewing (it died)
for ``seconds``. Without ``REDIS_URL`` there is one process: it always holds
every lease. A Redis that cannot be reached grants the lease (the sweeps
stay correct in several processes; only their cost is multiplied).
"""

from __future__ import annotations

import logging
import os
import threading
import uuid

import redis
from django.conf import settings

from ..redis_clients import RedisClients

log = logging.getLogger(__name__)

# Take the lease when it is free, renew it when it is ours: 1 if held.
HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

PROCESS = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"

_clients: dict[str, RedisClients] = {}
_lock = threading.Lock()


def _redis() -> RedisClients | None:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    with _lock:
        found = _clients.get(url)
        if found is None:
            found = _clients[url] = RedisClients(url)
    return found


def key(name: str) -> str:
    return f"{getattr(settings, 'REDIS_PREFIX', 'bsp')}:lease:{name}"


async def hold(name: str, seconds: float, process: str = PROCESS) -> bool:
    """Whether ``process`` (this one by default) runs the sweep ``name`` this
    round: it held or took the lease, which now lasts ``seconds`` more."""
    clients = _redis()
    if clients is None:
        return True
    try:
        script = clients.on_loop().register_script(HOLD)
        return bool(await script(keys=[key(name)], args=[process, int(seconds * 1000)]))
    except (redis.RedisError, OSError):
        log.warning("lease %s not checked: Redis unreachable", name, exc_info=True)
        return True


async def release(name: str, process: str = PROCESS) -> None:
    """Let another process take the lease at once (this one stops)."""
    clients = _redis()
    if clients is None:
        return
    try:
        client = clients.on_loop()
        if await client.get(key(name)) in (process, process.encode()):
            await client.delete(key(name))
    except (redis.RedisError, OSError):
        log.warning("lease %s not released", name, exc_info=True)
