"""A failure of the bots' thinking machinery (issue "Hold against strangers",
item 9): a bot process that dies, or a pool that refuses work, never makes
the bot resign; the claim is released, the turn retried after a backoff, and
the bot then moves normally. Before: the human won at once."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

import pytest

from games.models import Game
from games.realtime import bot_worker
from games.realtime.bot_worker import BotWorker, retry_after
from games.services import bots
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user

pytestmark = pytest.mark.django_db(transaction=True)


class RefusingPool:
    """A pool whose every submission finds it broken, as after a crash."""

    def submit(self, *args, **kwargs) -> Future:
        raise BrokenProcessPool("a child process terminated abruptly")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass


def bot_to_move() -> tuple[int, bots.BotTurn]:
    """A halma game against the easy bot, the person's first move made."""
    from games.services.play import game_act

    human = make_user()
    game = lobby.table_create(host=human, ruleset="halma", bot={"level": "easy"})
    game_act(game_id=game.pk, user=human, version=1, action=FIRST_MOVE)
    (turn,) = bots.bot_turns_due()
    return game.pk, turn


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


async def wait_for_turns(worker: BotWorker) -> None:
    """The turns the worker started, each bounded by the test's own timeout."""
    await asyncio.wait_for(asyncio.gather(*worker.turns), timeout=60)


async def retried_until_it_moves(worker: BotWorker, game_id: int) -> Game:
    """Make the backoff due now, poll once: the bot moves."""
    retry = worker.retries[game_id]
    worker.retries[game_id] = bot_worker.Retry(retry.failures, 0.0)
    await worker.start_due_turns()
    await wait_for_turns(worker)
    return await sync_to_async(game_row)(game_id)


async def test_a_pool_that_refuses_work_never_costs_the_bot_its_seat(settings, monkeypatch):
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.0
    game_id, turn = await sync_to_async(bot_to_move)()
    monkeypatch.setattr(bot_worker.thinkers, "pool", RefusingPool())
    worker = BotWorker()
    await worker.take(turn)
    game = await sync_to_async(game_row)(game_id)
    assert game.status == Game.Status.ACTIVE and game.version == turn.version  # no resignation
    assert game.bot_claim_at is None  # the claim is released
    assert worker.retries[game_id].failures == 1
    assert bot_worker.thinkers.pool is None  # the broken pool was dropped
    await worker.start_due_turns()  # backing off: not taken again yet
    assert not worker.turns
    game = await retried_until_it_moves(worker, game_id)  # a fresh pool
    assert game.status == Game.Status.ACTIVE and game.version == turn.version + 1
    assert game.to_act == [0] and game_id not in worker.retries


async def test_a_pool_failing_again_and_again_plays_a_random_legal_move(
    settings, monkeypatch, caplog
):
    """Not retried for ever: the third failure in a row on one turn moves."""
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.0
    game_id, turn = await sync_to_async(bot_to_move)()
    monkeypatch.setattr(bot_worker.thinkers, "pool", RefusingPool())
    monkeypatch.setattr(bot_worker.Thinkers, "executor", lambda self: RefusingPool())
    worker = BotWorker()
    await worker.take(turn)
    game = await retried_until_it_moves(worker, game_id)
    assert game.version == turn.version and worker.retries[game_id].failures == 2
    game = await retried_until_it_moves(worker, game_id)
    assert game.status == Game.Status.ACTIVE and game.version == turn.version + 1
    assert game.to_act == [0] and game_id not in worker.retries
    assert "a random legal move" in caplog.text


async def test_a_killed_bot_process_is_replaced_and_the_bot_moves(settings):
    """The real pool: its worker process killed with SIGKILL mid-life."""
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.0
    game_id, turn = await sync_to_async(bot_to_move)()
    thinkers = bot_worker.thinkers
    args = bots.bot_turn_think_args(turn, encoded=(await sync_to_async(game_row)(game_id)).state)
    assert await thinkers.decide(*args)  # the pool's processes run
    broken = thinkers.pool
    for process in list(broken._processes.values()):
        os.kill(process.pid, signal.SIGKILL)
        await asyncio.wait_for(asyncio.to_thread(process.join), timeout=30)
    worker = BotWorker()
    await worker.take(turn)
    game = await sync_to_async(game_row)(game_id)
    assert game.status == Game.Status.ACTIVE and game.version == turn.version
    assert game.bot_claim_at is None and worker.retries[game_id].failures == 1
    game = await retried_until_it_moves(worker, game_id)
    assert thinkers.pool is not broken
    assert game.status == Game.Status.ACTIVE and game.version == turn.version + 1


def test_the_backoff_doubles_and_is_capped():
    assert [retry_after(n) for n in (1, 2, 3)] == [2.0, 4.0, 8.0]
    assert retry_after(30) == bot_worker.RETRY_MAX_SECONDS
