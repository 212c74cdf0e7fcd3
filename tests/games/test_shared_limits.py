"""Shared per-user counts on the real Redis: separate Django cache clients
(each thread builds its own, as each server process does) race on one budget.
Two real server processes: tests/ops/test_shared_limits.py."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
import redis
from django.core.cache import caches

from games import ratelimit

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_cache(redis_url, settings):
    """The default cache on the shared Redis, under a prefix of this test's own
    (never cache.clear() there: that empties the whole database)."""
    prefix = f"bsptest{uuid.uuid4().hex[:10]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    yield
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def race(n: int, work) -> list:
    """``work()`` in ``n`` threads released together; their results."""
    start = threading.Barrier(n)
    results: list = [None] * n
    clients: list = [None] * n

    def run(i: int) -> None:
        clients[i] = caches["default"]  # this thread's own client and connections
        start.wait()
        results[i] = work()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(c) for c in clients}) == n
    return results


def test_racing_clients_let_exactly_the_limit_through(redis_cache):
    results = race(12, lambda: ratelimit.hit("user:1:chat", 5, 10))
    assert results.count(None) == 5
    assert all(0 < wait <= 10 for wait in results if wait is not None)


def test_racing_chat_budget_from_the_event_loop(redis_cache):
    """ahit() (the sockets' path) on one loop per thread, as in each process."""

    def one_socket():
        return asyncio.run(ratelimit.ConnectionBudget(7).user_wait("chat"))

    limit, _ = ratelimit.USER_LIMITS["chat"]
    results = race(limit + 4, one_socket)
    assert results.count(None) == limit


def test_a_window_ends_and_a_new_one_opens(redis_cache):
    assert ratelimit.hit("k", 1, 1) is None
    assert ratelimit.hit("k", 1, 1) == 1
    caches["default"].delete("rl:k")  # as Redis expires it after the window
    assert ratelimit.hit("k", 1, 1) is None


def test_a_counter_left_without_expiry_gets_one(redis_cache, redis_url):
    """INCR on a key that expired between EXISTS and INCR creates it without a
    TTL; hit() gives it one rather than block the user for good."""
    cache = caches["default"]
    key = cache.make_key("rl:k")
    redis.Redis.from_url(redis_url).incr(key, 0)  # a counter at 0, no TTL
    assert ratelimit.hit("k", 5, 10) is None
    assert 0 < redis.Redis.from_url(redis_url).ttl(key) <= 10
