"""The replay builds asked for in this process, for its worker to take.

A replay page that finds no stored state near its versions answers
ReplayPending, and its view asks for one here (``request_pending``); a game
that ends asks too (``request_build``). The
worker beside the sweeper (``games.realtime.sweeper.build_replays``) takes the
requests and stores the checkpoints (``services.internal.replay_checkpoints.build``).
In memory and per process: a lost request is asked for again by its page.
"""

from __future__ import annotations

import threading

from .. import wakeups

MAX_REQUESTS = 1000  # builds waiting in one process; more are asked for again by their pages

# game id -> the versions the worker walks: from, and up to (None: the last)
_requests: dict[int, tuple[int, int | None]] = {}
_lock = threading.Lock()


def request_build(game_id: int, since: int = 0, until: int | None = None) -> None:
    """Ask this process's worker to prepare a game's replay from ``since`` to ``until``."""
    with _lock:
        if game_id not in _requests and len(_requests) >= MAX_REQUESTS:
            return
        old_since, old_until = _requests.get(game_id, (since, until))
        wider = None if until is None or old_until is None else max(until, old_until)
        _requests[game_id] = (min(since, old_since), wider)
    wakeups.wake("replays")


def pending() -> bool:
    """Whether a build was asked for and not taken yet."""
    return bool(_requests)


def request_pending(build: tuple[int, int, int | None] | None) -> None:
    """Ask for what a ReplayPending names (``selectors.replays``: its ``build``)."""
    if build is not None:
        request_build(*build)


def take_requests() -> list[tuple[int, int, int | None]]:
    """What was asked for, (game id, from, up to), oldest game first; the queue is emptied."""
    with _lock:
        asked = sorted((game_id, *span) for game_id, span in _requests.items())
        _requests.clear()
    return asked
