"""Watcher counts, batched: at most one ``watchers`` frame per game every
``WATCHERS_BATCH_SECONDS``, carrying the count at the time it is sent.

Each join or leave used to send the new count to every socket of the game:
N sockets arriving cost about N²/2 frames (200: 20,000, as many again when
they leave). Now a change asks for a frame; the first asker in a window sends
at once, later ones wait for the window to end (lila-ws batches every 700 ms).
The window is one per game across processes (``ratelimit.aclaim``: in Redis
when ``REDIS_URL`` is set). Each process waits with at most one task per game,
and drops its request before it counts: a change after the count asks again,
so the last frame carries the final count.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from ..publish import game_group, send_from_loop
from ..ratelimit import aclaim
from ..store import presence
from .sending import PUBLISH_TIMEOUT

log = logging.getLogger(__name__)

_waiting: dict[int, asyncio.Task[None]] = {}


def changed(game_id: int) -> None:
    """The game's watchers changed in this process: its sockets hear the count
    soon (at once, or when the game's window ends)."""
    task = _waiting.get(game_id)
    # Tests run an event loop each: a task of another loop waits for nothing.
    if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
        return
    _waiting[game_id] = asyncio.ensure_future(_send_when_due(game_id))


async def _send_when_due(game_id: int) -> None:
    try:
        seconds = float(settings.WATCHERS_BATCH_SECONDS)
        while (wait := await aclaim(f"watchers:{game_id}", seconds)) > 0:
            await asyncio.sleep(wait)  # the window's end: a timer, not a poll
        _forget(game_id)  # before counting: a change from here on asks again
        count = await presence.count(game_id)
        message = {"type": "game.watchers", "count": count}
        await send_from_loop(game_group(game_id), message, PUBLISH_TIMEOUT)
    except Exception:  # best effort, as every publish: the next change sends again
        log.warning("watchers of game %s not sent", game_id, exc_info=True)
    finally:
        _forget(game_id)


def _forget(game_id: int) -> None:
    if _waiting.get(game_id) is asyncio.current_task():
        del _waiting[game_id]
