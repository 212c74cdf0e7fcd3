"""The short version of bench/rolling.py: four processes restarted one after
another (SIGTERM, config/drain.py) while games are played through them
(behind Debian's nginx when it is installed, else each page trying the
processes in turn) and a bot match plays itself: no acked move lost or
doubled, none committed without its ack, every page back within 3 s, no
5xx, and the bot match goes on."""

from __future__ import annotations

import argparse

import pytest

from bench.rolling import run
from tests.conftest import redis_available, require_service

from .cluster import pg_available, redis_server_path
from .hosts import Hosts

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


def short_run(**changes) -> argparse.Namespace:
    """bench/rolling.py's arguments for a short run: 4 processes, 6 games."""
    defaults = dict(
        processes=4,
        games=6,
        spectators=2,
        bots=1,
        interval=1.0,
        quiet=4.0,
        kill=False,
        no_nginx=False,
        shards=1,
        balance="least_conn",
    )
    return argparse.Namespace(**{**defaults, **changes})


def assert_sound(checks: dict) -> None:
    """No acked move lost or doubled, every log and every client's view sound."""
    assert checks["acked_lost"] == 0 and checks["doubled"] == 0, checks
    assert checks["games_with_unsound_log"] == 0 and checks["clients_with_violations"] == 0


async def test_a_rolling_restart_loses_nothing(tmp_path):
    require_service(pg_available(), "PostgreSQL on 127.0.0.1:5432 (or TEST_POSTGRES_URL)")
    require_service(redis_available() and redis_server_path() is not None, "redis-server")
    rows, checks = await run(short_run(), tmp_path)
    roll = next(r for r in rows if r["phase"] == "roll")
    print(rows, checks)
    assert_sound(checks)
    assert checks["committed_without_ack"] == 0, checks
    assert checks["nginx_5xx"] == 0 and all(r["http_5xx"] == 0 for r in rows), rows
    # Every socket of every process was told to come back (4012 and a retry
    # hint: not cut), was moved once, and came back in time.
    assert set(checks["close_codes"]) == {4012}, checks
    assert roll["sockets_back"] >= 6 * 4, roll
    assert roll["back_p99_s"] < 3.0, roll
    assert roll["moves"] > 0
    before, after = checks["bot_during_roll"]
    assert after > before, checks


async def test_one_host_killed_loses_no_acked_move(tmp_path):
    """Two hosts (network namespaces, tests/ops/hosts.py) with two processes
    each, sharing PostgreSQL and Redis over the bridge behind nginx; every
    process of host a SIGKILLed at once with its workers: no acked move lost
    or doubled, every page back within 10 s on host b's processes."""
    require_service(pg_available(), "PostgreSQL on 127.0.0.1:5432 (or TEST_POSTGRES_URL)")
    require_service(redis_server_path() is not None, "redis-server")
    why = Hosts.permitted()
    require_service(why is None, f"network namespaces for two hosts ({why})")
    rows, checks = await run(short_run(kill=True, roll=False, hosts=2), tmp_path)
    kill = next(r for r in rows if r["phase"] == "kill")
    print(rows, checks)
    assert_sound(checks)
    assert checks["nginx_5xx"] == 0, checks
    assert kill["sockets_back"] >= 6 * 4 // 2 - 2, kill  # host a's half, give or take
    assert kill["back_max_s"] < 10.0, kill
    assert kill["moves"] > 0 and rows[-1]["moves"] > 0, rows
