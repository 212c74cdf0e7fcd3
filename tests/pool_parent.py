"""A stand-in for a server process with a bot pool (tests/games/test_bot_pool_orphans.py):
spawned, it starts the pool as the bot worker does, reports its pool
process's id, then waits to be killed. No Django here: a spawned child
imports this module afresh."""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor

from games.bots.parent_watch import exit_with_parent


def serve(report: multiprocessing.Queue, watch: bool) -> None:  # type: ignore[type-arg]
    pool = ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent if watch else None,
    )
    report.put(pool.submit(os.getpid).result())
    threading.Event().wait()  # until killed
