"""A server process killed by a signal leaves no bot process behind: each
test server's pool used to stay, one idle process per pool process, for ever."""

from __future__ import annotations

import multiprocessing
import os
import select
import signal

from tests.pool_parent import serve


def pool_process_after_parent_killed(watch: bool) -> int:
    ctx = multiprocessing.get_context("spawn")
    report = ctx.Queue()
    parent = ctx.Process(target=serve, args=(report, watch))
    parent.start()
    worker = report.get(timeout=60)
    os.kill(parent.pid, signal.SIGKILL)
    parent.join()
    return worker


def ended_within(pid: int, seconds: float) -> bool:
    """Waits on the process's pidfd: readable once it has ended."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([fd], [], [], seconds)
        return bool(readable)
    finally:
        os.close(fd)


def test_a_pool_process_ends_with_its_killed_server():
    worker = pool_process_after_parent_killed(watch=True)
    assert ended_within(worker, 10)


def test_without_the_watch_it_would_stay():
    """The check above can fail: an unwatched pool process outlives its parent."""
    worker = pool_process_after_parent_killed(watch=False)
    try:
        assert not ended_within(worker, 1)
    finally:
        os.kill(worker, signal.SIGKILL)
