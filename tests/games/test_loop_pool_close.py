"""A loop that opened the moves' connection pool ends (the PostgreSQL run's
rare hang): the pool is closed on its loop first (tests/loops.py), because a
pool worker cancelled while it connects swallows the cancel and the loop's
end would wait for it for good."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.conf import settings

from games.store import loop_pool
from tests.loops import close_loop_clients, run_on_own_loop

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="the moves' pool exists only on PostgreSQL"),
]


async def _open_pool() -> loop_pool.LoopPool:
    """The pool opened as a move opens it, its first connection still on its way."""
    return await loop_pool.pool_for_this_loop()


async def test_an_async_tests_loop_is_left_with_no_pool_task():
    pool = await _open_pool()
    await close_loop_clients()
    assert pool.closed
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert [t.get_name() for t in others if not t.done()] == []


def test_a_sync_tests_own_loop_ends_although_its_pool_was_just_opened():
    ended = threading.Event()

    def run() -> None:
        run_on_own_loop(_open_pool())
        ended.set()

    threading.Thread(target=run, daemon=True).start()
    # asyncio.run(_open_pool()) never returns here: its end waits on a worker for good.
    assert ended.wait(timeout=30)


async def test_a_task_left_running_that_opens_a_pool_on_its_way_out_ends_too():
    # A consumer still finishing a move when the test ends may take a
    # connection, and so open the pool again, after the pool was closed.
    started = asyncio.Event()

    async def left_running() -> None:
        try:
            started.set()
            await asyncio.Event().wait()
        finally:
            await _open_pool()

    task = asyncio.create_task(left_running())
    await started.wait()
    await close_loop_clients()
    assert task.cancelled()
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
