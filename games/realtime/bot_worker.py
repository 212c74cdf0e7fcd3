"""The bots' worker, run inside every server process beside the sweeper.

Every ``BOT_POLL_SECONDS`` it asks for due bot turns (games/services/bots.py)
and takes each in a task of its own: claim the turn (one process per turn),
think in a pool of bot processes (a search is seconds of pure Python: in a
thread of this process it would hold the GIL, and every frame the event loop
sends would wait for it), pause the rest of a human-like delay on the loop
(holding nothing), then move through the services, publishing from the loop
like a socket's move. A turn is never started from a socket request,
and a game whose bot is to act after a restart is found by the next poll.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from ..bots import decide
from ..publish import in_thread_then_publish
from ..services import bots
from ..threads import closing_connections
from .polling import poll_forever

log = logging.getLogger(__name__)


class Thinkers:
    """The bot processes, started on first use; "spawn", as forking a process
    that runs threads is unsafe. A pool broken by a dying process is replaced."""

    def __init__(self) -> None:
        self.pool: Executor | None = None

    def executor(self) -> Executor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                max_workers=settings.BOT_PROCESSES, mp_context=multiprocessing.get_context("spawn")
            )
        return self.pool

    async def decide(self, *args: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor(), decide, *args)
        except BrokenProcessPool:
            self.pool = None
            raise


thinkers = Thinkers()


def pause_for(turn: bots.BotTurn) -> float:
    """The human-like pause before a bot's move, seeded by the turn."""
    low, high = settings.BOT_DELAY_MIN, settings.BOT_DELAY_MAX
    rng = random.Random(bots.turn_seed(turn.game_id, turn.version, turn.seat))
    return rng.uniform(low, max(low, high))


class BotWorker:
    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.stopping = asyncio.Event()
        self.busy: set[int] = set()  # games this process is taking a turn in
        self.turns: set[asyncio.Task] = set()

    def ensure_started(self) -> None:
        if self.task is None or self.task.done():
            self.stopping = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        """End the polling once its current round is done, and the turns under way."""
        if self.task is None:
            return
        self.stopping.set()
        await asyncio.gather(self.task, *self.turns, return_exceptions=True)

    async def run(self) -> None:
        await poll_forever(
            self.start_due_turns,
            settings.BOT_POLL_SECONDS,
            "polling for bot turns failed",
            self.stopping,
        )

    async def start_due_turns(self) -> None:
        due = sync_to_async(closing_connections(bots.due_turns), thread_sensitive=False)
        for turn in await due():
            if turn.game_id not in self.busy:
                self.start(turn)

    def start(self, turn: bots.BotTurn) -> None:
        self.busy.add(turn.game_id)
        task = asyncio.get_running_loop().create_task(self.take(turn))
        self.turns.add(task)
        task.add_done_callback(self.turns.discard)

    async def take(self, turn: bots.BotTurn) -> None:
        loop = asyncio.get_running_loop()
        try:
            began = loop.time()
            claim = sync_to_async(closing_connections(bots.claim), thread_sensitive=False)
            encoded = await claim(turn)
            if encoded is None:
                return
            action = await self.think(turn, encoded)
            if action is None:
                await in_thread_then_publish(bots.give_up)(turn)
                return
            await asyncio.sleep(max(0.0, pause_for(turn) - (loop.time() - began)))
            await in_thread_then_publish(bots.move)(turn, action)
        except Exception:
            log.exception("bot turn in game %s failed", turn.game_id)
        finally:
            self.busy.discard(turn.game_id)

    async def think(self, turn: bots.BotTurn, encoded: dict[str, Any]) -> dict[str, Any] | None:
        """The action, or None after logging why there is none."""
        try:
            return await thinkers.decide(*bots.think_args(turn, encoded))
        except Exception:
            log.exception("the %s bot found no action in game %s", turn.level, turn.game_id)
            return None


bot_worker = BotWorker()
