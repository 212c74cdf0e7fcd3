"""The analyses' worker: the sweeper's analysis thread runs queued analyses
(games/services/analysis.py) one at a time, each ply thought in the bot
processes (``bot_worker.thinkers``): seconds of pure Python that must hold
neither the event loop nor this process's GIL."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..bots.analysis import analyse_ply
from ..services.analysis import Interrupted, analyses_run
from .bot_worker import thinkers


def think_in_pool(*args: Any) -> dict[str, Any]:
    """``analyse_ply`` in a bot process; a pool that broke is replaced and
    the analysis left to its lease (``Interrupted``)."""
    pool = thinkers.executor()
    try:
        return pool.submit(analyse_ply, *args).result()
    except BrokenProcessPool as exc:
        thinkers.replace(pool)
        raise Interrupted from exc


def analyses_run_in_pool() -> int:
    """The analysis thread's round: the next due analysis, to its end."""
    return analyses_run(think=think_in_pool)
