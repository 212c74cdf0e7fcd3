"""Shared per-user counts on the real Redis: threads race on one budget, each
on its own connection. Two real server processes:
tests/ops/test_shared_limits.py."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
import redis
import redis.asyncio

from games import ratelimit, redis_clients
from tests.loops import run_on_own_loop

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_cache(redis_url, settings):
    """Counters on the shared Redis, under a prefix of this test's own."""
    prefix = f"bsptest{uuid.uuid4().hex[:10]}"
    settings.REDIS_URL = redis_url
    settings.REDIS_PREFIX = prefix
    yield
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def race(n: int, work) -> list:
    """``work()`` in ``n`` threads released together; their results."""
    start = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        start.wait()
        results[i] = work()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_racing_clients_let_exactly_the_limit_through(redis_cache):
    results = race(12, lambda: ratelimit.hit("user:1:chat", 5, 10))
    assert results.count(None) == 5
    assert all(0 < wait <= 10 for wait in results if wait is not None)


def test_racing_chat_budget_from_the_event_loop(redis_cache):
    """ahit() (the sockets' path) on one loop per thread, as in each process."""

    def one_socket():
        async def counted():
            try:
                return await ratelimit.ConnectionBudget(7).user_wait("chat")
            finally:
                await redis_clients.close_loop_clients()

        return run_on_own_loop(counted())

    limit, _ = ratelimit.USER_LIMITS["chat"]
    results = race(limit + 4, one_socket)
    assert results.count(None) == limit


def test_a_window_ends_and_a_new_one_opens(redis_cache, redis_url):
    assert ratelimit.hit("k", 1, 1) is None
    assert ratelimit.hit("k", 1, 1) == 1
    redis.Redis.from_url(redis_url).delete(ratelimit.redis_key("k"))  # as Redis expires it
    assert ratelimit.hit("k", 1, 1) is None


def test_a_counter_left_without_expiry_gets_one(redis_cache, redis_url):
    """A counter without a TTL (written by hand, or by an older version) gets
    one rather than block the user for good."""
    key = ratelimit.redis_key("k")
    redis.Redis.from_url(redis_url).incr(key, 0)  # a counter at 0, no TTL
    assert ratelimit.hit("k", 5, 10) is None
    assert 0 < redis.Redis.from_url(redis_url).ttl(key) <= 10


async def test_the_sockets_count_on_the_loop_in_one_round_trip(redis_cache, monkeypatch):
    """ahit() never hops to a thread (each move counts the user's budget)."""

    def no_thread(*args, **kwargs):
        raise AssertionError("ahit went to a thread")

    monkeypatch.setattr(asyncio.get_running_loop(), "run_in_executor", no_thread)
    limit, seconds = ratelimit.USER_LIMITS["act"]
    waits = [await ratelimit.ahit("user:3:act", limit, seconds) for _ in range(limit + 1)]
    assert waits[:limit] == [None] * limit
    assert 0 < waits[-1] <= seconds


async def test_the_count_script_is_made_once_per_loop(redis_cache, monkeypatch):
    """Registering a script hashes and encodes its text: a move's count reuses
    the loop's script object instead (issue 54: headroom for moves)."""
    made = []
    register = redis.asyncio.Redis.register_script

    def counting(self, script):
        made.append(script)
        return register(self, script)

    monkeypatch.setattr(redis.asyncio.Redis, "register_script", counting)
    for _ in range(3):
        await ratelimit.ahit_all([("user:6:act", 10, 5)])
        await ratelimit.aclaim("watchers:6", 1.0)
    assert made == [ratelimit.COUNT, ratelimit.CLAIM]
    assert await ratelimit.ahit("user:6:act", 3, 5) is not None  # each was counted


async def test_a_burst_past_the_loop_pool_is_counted_not_let_through(redis_cache):
    """More counts at once than redis-py's default pool allows (100: a round
    of moves, every socket reconnecting after a restart): each waits for one
    of the loop's connections, none is let through uncounted."""
    waits = await asyncio.gather(*(ratelimit.ahit("user:5:act", 10, 30) for _ in range(150)))
    assert waits.count(None) == 10
    assert all(0 < wait <= 30 for wait in waits if wait is not None)


async def test_an_unreachable_redis_lets_the_use_through(settings):
    """A budget that cannot be counted is not an error for the player."""
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens on the discard port
    assert await ratelimit.ahit("user:4:act", 1, 5) is None
    assert ratelimit.hit("user:4:act", 1, 5) is None


async def test_a_frame_spends_both_its_budgets_in_one_call(redis_cache):
    """A socket frame counts its burst window and its API twin's budget at once."""
    budgets = [("user:9:act", 2, 5), ("throttle_acts_9", 3, 60)]
    waits = [await ratelimit.ahit_all(budgets) for _ in range(4)]
    assert waits[:2] == [None, None]
    assert 0 < waits[2] <= 5  # the burst is spent
    assert 5 < waits[3] <= 60  # and the minute's budget too: the longer wait
    assert ratelimit.hit("throttle_acts_9", 3, 60) is not None  # the API sees the same count


async def test_one_turn_per_window_across_clients(redis_cache):
    """aclaim: the first caller in a window has the turn, the others wait for its end."""
    assert await ratelimit.aclaim("watchers:1", 2.0) == 0
    left = await ratelimit.aclaim("watchers:1", 2.0)
    assert 0 < left <= 2.0
    assert await ratelimit.aclaim("watchers:2", 2.0) == 0  # another game's window


async def test_the_counts_asked_for_in_one_turn_of_the_loop_leave_in_one_pipeline(
    redis_cache, monkeypatch
):
    """Issue 54 item 6: each move's shared count was a round trip of its own;
    the moves a turn of the loop reads are counted in one pipeline."""
    await ratelimit.ahit("user:8:act", 100, 30)  # the script loaded, the batch made
    sizes: list[int] = []
    execute = redis.asyncio.client.Pipeline.execute

    async def counted(self, *args, **options):
        sizes.append(len(self.command_stack))
        return await execute(self, *args, **options)

    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", counted)
    waits = await asyncio.gather(*(ratelimit.ahit("user:8:act", 10, 30) for _ in range(20)))
    assert sizes == [20]
    assert waits.count(None) == 9  # 1 + 9 within the limit of 10, each counted once


async def test_a_script_redis_forgot_is_loaded_again_and_the_count_made(redis_cache):
    """Redis restarted (its scripts gone): that count is made alone, not lost."""
    clients = ratelimit._shared_clients()
    assert clients is not None
    await ratelimit.ahit("user:9:act", 2, 30)
    clients.script_on_loop(ratelimit.COUNT).sha = "0" * 40  # as if Redis forgot it
    assert await ratelimit.ahit("user:9:act", 2, 30) is None  # the second of two
    assert await ratelimit.ahit("user:9:act", 2, 30) is not None  # the third: over
