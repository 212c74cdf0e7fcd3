"""Watcher counts, batched: at most one ``watchers`` frame per game every
``WATCHERS_BATCH_SECONDS``, carrying the count at the time it is sent.

Each join or leave used to send the new count to every socket of the game:
N sockets arriving cost about N²/2 frames (200: 20,000, as many again when
they leave). Now a change asks for a frame; the first asker in a window sends
at once, later ones wait for the window to end (lila-ws batches every 700 ms).
The window is one per game across processes (claimed as ``ratelimit.aclaim``
claims, in Redis when ``REDIS_URL`` is set, in the same round trip as the
count: ``presence.count_on_turn``). Each process waits with at most one task
per game; a change while it is under way makes it count again in the next
window, so the last frame carries the final count.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from ..publish import game_group, send_from_loop
from ..store import presence
from .sending import PUBLISH_TIMEOUT

log = logging.getLogger(__name__)

_waiting: dict[int, asyncio.Task[None]] = {}
_asked: set[int] = set()  # games changed while their task was under way


def changed(game_id: int) -> None:
    """The game's watchers changed in this process: its sockets hear the count
    soon (at once, or when the game's window ends)."""
    task = _waiting.get(game_id)
    # Tests run an event loop each: a task of another loop waits for nothing.
    if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
        _asked.add(game_id)  # its count may be on its way: it counts once more
        return
    _waiting[game_id] = asyncio.ensure_future(_send_when_due(game_id))


async def _send_when_due(game_id: int) -> None:
    """Claim the game's window, count and rank, in one round trip
    (``presence.count_on_turn``); while another holds the window, wait for
    its end. A change while the count was under way is counted again in the
    next window (the count may have been made before its write)."""
    try:
        seconds = float(settings.WATCHERS_BATCH_SECONDS)
        while True:
            _asked.discard(game_id)  # a change from here on is in this count or asks again
            wait, count = await presence.count_on_turn(game_id, f"watchers:{game_id}", seconds)
            if count is None:
                await asyncio.sleep(wait)  # the window's end: a timer, not a poll
                continue
            message = {"type": "game.watchers", "count": count}
            await send_from_loop(game_group(game_id), message, PUBLISH_TIMEOUT)
            if game_id not in _asked:
                return
    except Exception:  # best effort, as every publish: the next change sends again
        log.warning("watchers of game %s not sent", game_id, exc_info=True)
    finally:
        if _waiting.get(game_id) is asyncio.current_task():
            del _waiting[game_id]
            _asked.discard(game_id)
