"""Per-connection and per-user frame budgets (games/ratelimit.py)."""

from __future__ import annotations

from games import ratelimit
from games.ratelimit import CONNECTION_LIMITS, USER_LIMITS, ConnectionBudget


def test_a_users_budget_is_shared_by_their_connections():
    acts, _ = USER_LIMITS["act"]
    per_connection, _ = CONNECTION_LIMITS["act"]
    tabs = [ConnectionBudget(7) for _ in range(acts // per_connection + 1)]
    allowed = sum(tab.allow("act") for tab in tabs for _ in range(per_connection))
    assert allowed == acts
    assert ConnectionBudget(8).allow("act")  # another user is not affected


def test_quiet_users_windows_are_dropped_busy_ones_kept(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(ratelimit.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(ratelimit, "PRUNE_EVERY", 1)
    for user in range(50):
        ConnectionBudget(user).allow("act")
    assert len(ratelimit._users) == 50
    now[0] += 4
    assert ConnectionBudget(0).allow("act")  # user 0 stays busy
    now[0] += 3  # the others' last frame is now outside their 5 s window
    assert ConnectionBudget(1).allow("act")
    assert set(ratelimit._users) == {(0, "act"), (1, "act")}
    assert len(ratelimit._users[(0, "act")].times) == 2  # its budget is remembered
