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

The renewal also takes the loop's wake key (games/wakeups.py): work queued
in another process reaches the holder with its next renewal
(``hold_woken``). ``release_all`` hands every lease over at once (a process
shutting down) and keeps this process from taking one again.
"""

from __future__ import annotations

import logging
import os
import uuid

import redis
from django.conf import settings

from .. import wakeups
from ..redis_clients import RedisClients, shared

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

# The same, and when held also takes the wake key KEYS[2]: 0 not held, 1
# held, 3 held and woken.
HOLD_WOKEN = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1 + 2 * redis.call('DEL', KEYS[2])
end
return 0
"""

PROCESS = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"

_held: set[str] = set()  # the leases this process holds, as far as it knows
_stepped_down = False  # release_all() ran: this process takes no lease again


def _redis() -> RedisClients | None:
    url = getattr(settings, "REDIS_URL", "")
    return shared(url) if url else None


def shared_by_processes() -> bool:
    """Whether other processes may run the same loops (Redis holds the leases)."""
    return _redis() is not None


def key(name: str) -> str:
    return f"{getattr(settings, 'REDIS_PREFIX', 'bsp')}:lease:{name}"


async def hold(name: str, seconds: float, process: str = PROCESS) -> bool:
    """Whether ``process`` (this one by default) runs the sweep ``name`` this
    round: it held or took the lease, which now lasts ``seconds`` more."""
    held, _woken = await hold_woken(name, seconds, process)
    return held


async def hold_woken(name: str, seconds: float, process: str = PROCESS) -> tuple[bool, bool]:
    """``hold``, and whether the loop was woken from another process since
    the last renewal (its wake key, taken now). Redis unreachable: held and
    woken, so the loop looks as often as it did before it slept."""
    if _stepped_down and process == PROCESS:
        return False, False
    clients = _redis()
    if clients is None:
        return True, False
    try:
        script = clients.on_loop().register_script(HOLD_WOKEN)
        keys = [key(name), wakeups.key(name)]
        found = int(await script(keys=keys, args=[process, int(seconds * 1000)]))
    except (redis.RedisError, OSError):
        log.warning("lease %s not checked: Redis unreachable", name, exc_info=True)
        return True, True
    if process == PROCESS:
        (_held.add if found else _held.discard)(name)
    return bool(found & 1), bool(found & 2)


async def release(name: str, process: str = PROCESS) -> None:
    """Let another process take the lease at once (this one stops)."""
    clients = _redis()
    if process == PROCESS:
        _held.discard(name)
    if clients is None:
        return
    try:
        client = clients.on_loop()
        if await client.get(key(name)) in (process, process.encode()):
            await client.delete(key(name))
    except (redis.RedisError, OSError):
        log.warning("lease %s not released", name, exc_info=True)


async def release_all() -> list[str]:
    """Hand every lease this process holds over at once, and take none
    again (a process shutting down: another runs its sweeps from its next
    round, not after the lease runs out). Returns the names released."""
    global _stepped_down
    _stepped_down = True
    names = sorted(_held)
    for name in names:
        await release(name)
    return names


def rejoin() -> None:
    """Undo ``release_all``: this process may take leases again (tests)."""
    global _stepped_down
    _stepped_down = False
