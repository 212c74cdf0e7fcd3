"""Per-connection windows and shared per-user budgets (games/ratelimit.py).

Here on the in-process cache (the suite runs without REDIS_URL); the same
counts shared by separate Redis clients are in tests/games/test_shared_limits.py.
"""

from __future__ import annotations

from games import ratelimit
from games.ratelimit import CONNECTION_LIMITS, USER_LIMITS, ConnectionBudget


async def test_a_users_budget_is_shared_by_their_connections():
    acts, _ = USER_LIMITS["act"]
    per_connection, _ = CONNECTION_LIMITS["act"]
    tabs = [ConnectionBudget(7) for _ in range(acts // per_connection + 1)]
    waits = []
    for tab in tabs:
        for _ in range(per_connection):
            assert tab.allow("act")  # no socket floods on its own
            waits.append(await tab.user_wait("act"))
    assert waits.count(None) == acts
    assert all(0 < w <= USER_LIMITS["act"][1] for w in waits if w is not None)
    assert await ConnectionBudget(8).user_wait("act") is None  # another user is not affected


def test_a_connection_over_its_own_window_is_a_flood():
    per_connection, _ = CONNECTION_LIMITS["act"]
    tab = ConnectionBudget(7)
    assert all(tab.allow("act") for _ in range(per_connection))
    assert not tab.allow("act")


def test_hit_counts_a_fixed_window_and_says_when_it_ends(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: now[0])
    assert [ratelimit.hit("k", 3, 10) for _ in range(3)] == [None, None, None]
    now[0] += 4
    assert ratelimit.hit("k", 3, 10) == 6  # the window opened 4 s ago, lasts 10
    assert ratelimit.hit("other", 3, 10) is None
