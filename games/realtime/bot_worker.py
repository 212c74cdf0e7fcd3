"""The bots' worker, run inside every server process beside the sweeper.

The process holding the lease "bots" (games/realtime/leases.py) asks for
due bot turns (games/services/bots.py) when one is due: it sleeps until the
next (``due_times.loop_bots_due``, the ``bot_due`` index), woken by a move that
makes a bot's turn (games/wakeups.py), and polls at most every
``BOT_POLL_SECONDS`` while turns are due. It takes each in a task of its
own: claim the turn (one process per turn), think in a pool of bot processes (a search is seconds of pure Python: in a
thread of this process it would hold the GIL, and every frame the event loop
sends would wait for it), pause the rest of a human-like delay on the loop
(holding nothing), then move through the services, publishing from the loop
like a socket's move. The pause is paid once per turn, and a turn is thought
in one round trip to the bot processes (games/bots/turns.py: a roll, then the
move; twenty unit moves), its actions stored one by one as they come; a turn
longer than ``TURN_THINK_SECONDS`` of thinking goes on at once in the same
task, so a turn of many actions reads as one turn. A turn is never
started from a socket request, and a game whose bot is to act after a
restart is found by the next poll.

A failure of the machinery (a bot process that died and broke the pool, the
database gone for a moment, any error but the bot's own) never costs the
bot's seat: the claim is released and the game's turn retried after a
backoff that doubles up to ``RETRY_MAX_SECONDS``; a broken pool is replaced.
A turn whose pool failed ``MACHINERY_LIMIT`` times in a row is played with a
random legal action, thought in this process (logged), so a pool that keeps
breaking (memory, a bad deploy) stalls no game for ever. Only a bot that fails by itself (its ``Guarded`` random action included)
gives up its seat, as ``services.bots.bot_turn_give_up`` says.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from .. import wakeups
from ..bots import decide_or_report
from ..bots.parent_watch import exit_with_parent
from ..bots.turns import decide_turn_or_report
from ..rules import get_ruleset
from ..services import bots
from ..services.due_times import loop_bots_due, loop_seconds_until
from ..threads import closing_connections
from .polling import poll_forever
from .sending import in_thread_then_publish

log = logging.getLogger(__name__)
# Retrying a turn whose thinking machinery failed: 2 s, 4 s, 8 s ... at most 2 minutes.
RETRY_FIRST_SECONDS = 2.0
RETRY_MAX_SECONDS = 120.0
MACHINERY_LIMIT = 3  # pool failures in a row on one turn before a random legal action
# Thinking a turn's actions in one round trip stops after this much thinking
# (the rest of the turn is the next round trip's): its first moves show soon.
TURN_THINK_SECONDS = 1.0


class Thinkers:
    """The bot processes, started on first use; "spawn", as forking a process
    that runs threads is unsafe. A pool broken by a dying process is replaced;
    the processes end with this one, however it ends (bots/parent_watch.py)."""

    def __init__(self) -> None:
        self.pool: Executor | None = None
        self.closed = False

    def executor(self) -> Executor:
        if self.closed:
            raise BrokenProcessPool("this process is stopping")
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                max_workers=settings.BOT_PROCESSES,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
            )
        return self.pool

    async def decide(self, *args: Any) -> dict[str, Any]:
        """``decide_or_report``'s answer; raises only when the pool fails."""
        return await self.run(decide_or_report, *args)

    async def decide_turn(self, *args: Any) -> dict[str, Any]:
        """``decide_turn_or_report``'s answer (a turn's actions in one round
        trip); raises only when the pool fails."""
        return await self.run(decide_turn_or_report, *args)

    async def run(self, func: Any, *args: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        pool = self.executor()
        try:
            return await loop.run_in_executor(pool, func, *args)
        except BrokenProcessPool:
            self.replace(pool)
            raise

    def replace(self, broken: Executor) -> None:
        """Drop a broken pool (its live processes, if any, are let go): the
        next turn starts a new one."""
        if self.pool is broken:
            self.pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Let the bot processes go as this process stops: a process started
        by multiprocessing joins its children before the pool's own exit hook
        would end them, and would wait for them for ever. No pool starts after."""
        self.closed = True
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


thinkers = Thinkers()


def pause_for(turn: bots.BotTurn) -> float:
    """The human-like pause before a bot's move, seeded by the turn."""
    low, high = settings.BOT_DELAY_MIN, settings.BOT_DELAY_MAX
    rng = random.Random(bots.bot_turn_seed(turn.game_id, version=turn.version, seat=turn.seat))
    return rng.uniform(low, max(low, high))


def random_action(turn: bots.BotTurn, encoded: dict[str, Any]) -> dict[str, Any] | None:
    """A legal action for the turn without the bot processes (cheap, seeded)."""
    rs = get_ruleset(turn.ruleset)
    rng = random.Random(bots.bot_turn_seed(turn.game_id, version=turn.version, seat=turn.seat))
    return rs.random_action(rs.decode(encoded), turn.seat, rng)


@dataclass(frozen=True)
class Retry:
    failures: int
    at: float  # loop time


def retry_after(failures: int) -> float:
    return min(RETRY_MAX_SECONDS, RETRY_FIRST_SECONDS * 2 ** (failures - 1))


class BotWorker:
    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.stopping = asyncio.Event()
        self.busy: set[int] = set()  # games this process is taking a turn in
        self.turns: set[asyncio.Task] = set()
        self.retries: dict[int, Retry] = {}  # games whose last turn failed here

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
            lease="bots",
            next_due=self.next_due,
        )

    async def next_due(self) -> float | None:
        """Seconds until a bot turn is due (the ``bot_due`` index), or a
        failed turn's retry here (in memory), whichever comes first."""
        read = closing_connections(lambda: loop_seconds_until(loop_bots_due()))
        found = await sync_to_async(read, thread_sensitive=False)()
        now = asyncio.get_running_loop().time()
        retries = [r.at - now for r in self.retries.values()]
        return min([*retries, *([] if found is None else [found])], default=None)

    async def start_due_turns(self) -> None:
        due = sync_to_async(closing_connections(bots.bot_turns_due), thread_sensitive=False)
        now = asyncio.get_running_loop().time()
        turns = await due()
        due_games = {turn.game_id for turn in turns}  # a game no longer due forgets its failures
        self.retries = {g: r for g, r in self.retries.items() if g in due_games}
        for turn in turns:
            retry = self.retries.get(turn.game_id)
            if turn.game_id not in self.busy and (retry is None or retry.at <= now):
                self.start(turn)

    def start(self, turn: bots.BotTurn) -> None:
        self.busy.add(turn.game_id)
        task = asyncio.get_running_loop().create_task(self.take(turn))
        self.turns.add(task)
        task.add_done_callback(self.turns.discard)

    async def take(self, turn: bots.BotTurn) -> None:
        """Take the bot's turn and what follows at once: the human-like pause
        is paid once per turn (before its first action), and the rest of a
        turn of many actions (a roll and a move, twenty unit moves) follows
        without a pause or a poll. The next bot's turn pays its own pause."""
        current: bots.BotTurn | None = turn
        paused_seat = None  # the seat whose turn already paid its pause
        try:
            while current is not None and not self.stopping.is_set():
                turn = current
                current = await self.take_one(turn, pause=paused_seat != turn.seat)
                paused_seat = turn.seat
        except Exception:
            await self.retry_later(turn)
        finally:
            self.busy.discard(turn.game_id)

    async def take_one(self, turn: bots.BotTurn, *, pause: bool) -> bots.BotTurn | None:
        """Claim, think (the turn's actions in one round trip to the bot
        processes), pause (the first action of a turn only) and move; the
        game's next bot turn, if a bot is to act again."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        claim = sync_to_async(closing_connections(bots.bot_turn_claim), thread_sensitive=False)
        encoded = await claim(turn)
        if encoded is None:
            return None
        actions = await self.think(turn, encoded)
        if not actions:
            await in_thread_then_publish(bots.bot_turn_give_up)(turn)
            return None
        if pause:
            await asyncio.sleep(max(0.0, pause_for(turn) - (loop.time() - began)))
        moved = await self.move(turn, actions)
        self.retries.pop(turn.game_id, None)
        if moved is None:
            return None
        after = sync_to_async(closing_connections(bots.bot_turn_after), thread_sensitive=False)
        return await after(turn.game_id)

    async def move(self, turn: bots.BotTurn, actions: Sequence[dict[str, Any]]) -> int | None:
        """Store the actions one by one, each published as it is stored (a
        person sees the turn unfold); the last new version, or None when the
        game moved on under the bot (the next poll looks again)."""
        version = turn.version
        for action in actions:
            step = replace(turn, version=version)
            moved = await in_thread_then_publish(bots.bot_turn_move)(step, action=action)
            if moved is None or moved != version + 1:
                return moved
            version = moved
        return version

    async def think(self, turn: bots.BotTurn, encoded: dict[str, Any]) -> list[dict[str, Any]]:
        """The bot's actions for the turn, or none when the bot itself failed
        (logged). A failing pool raises: that is no reason for the bot to give
        up; the ``MACHINERY_LIMIT``th failure in a row plays a random legal
        action."""
        args = (turn.ruleset, turn.level, encoded, turn.seat, turn.game_id, turn.version)
        try:
            answer = await thinkers.decide_turn(*args, TURN_THINK_SECONDS)
        except Exception:
            retry = self.retries.get(turn.game_id)
            if (retry.failures if retry else 0) + 1 < MACHINERY_LIMIT:
                raise
            log.exception(
                "the bot processes failed %s times in a row in game %s: a random legal move",
                MACHINERY_LIMIT,
                turn.game_id,
            )
            action = await sync_to_async(random_action, thread_sensitive=False)(turn, encoded)
            return [] if action is None else [action]
        if "failed" in answer:
            log.error(
                "the %s bot found no action in game %s: %s",
                turn.level,
                turn.game_id,
                answer["failed"],
            )
            return []
        return list(answer["actions"])

    async def retry_later(self, turn: bots.BotTurn) -> None:
        """Release the claim (best effort: it lapses anyway) and back off."""
        failures = self.retries[turn.game_id].failures + 1 if turn.game_id in self.retries else 1
        delay = retry_after(failures)
        log.exception(
            "bot turn in game %s failed (%s in a row); retried in %.0f s",
            turn.game_id,
            failures,
            delay,
        )
        at = asyncio.get_running_loop().time() + delay
        self.retries[turn.game_id] = Retry(failures, at)
        wakeups.wake("bots")  # the loop's sleep takes the retry into account
        try:
            await sync_to_async(closing_connections(bots.bot_turn_release), thread_sensitive=False)(
                turn
            )
        except Exception:
            log.warning("could not release the bot's claim in game %s", turn.game_id)


bot_worker = BotWorker()
