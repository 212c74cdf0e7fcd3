"""Replays served in pages, from states stored once (checkpoints).

Replaying a game from its seed costs what playing it cost: a Hexenhalma round
is resolved again (about 0.3 s for 20 teams), every view of every version is
computed again. So a replay is prepared once, by the process's worker
(``games.sweeper``): when a game ends, or when a page asks for versions no
checkpoint is near. The worker walks the log once and stores the state at
least every ``CHECKPOINT_EVERY`` versions and every ``CHECKPOINT_CPU_SECONDS``
of stepping, and after every piece of long work (which the live game stored
already when it did that work, so it is never redone). A page then starts
from the nearest checkpoint: a few cheap steps, then its own frames, within
a CPU budget.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.utils.translation import gettext_noop

from . import replay
from .errors import GameError
from .models import Event, Game, ReplayCheckpoint
from .rules import Ruleset, get_ruleset
from .selectors import client_event

log = logging.getLogger(__name__)
CHECKPOINT_EVERY = replay.CHECKPOINT_EVERY
FRAMES_DEFAULT, FRAMES_MAX = 20, 50  # frames (event and view) per page
EVENTS_DEFAULT, EVENTS_MAX = 200, 500  # events alone per page
PAGE_CPU_SECONDS = 0.03  # a page stops adding frames once it has spent this
# A page whose walk to its first frame costs more than this (over more than
# a step or two) asks the worker to keep states closer together there.
WALK_CPU_SECONDS = 0.03
RETRY_AFTER_SECONDS = 2
MAX_REQUESTS = 1000  # builds waiting in one process; more are asked for again by their pages


class ReplayPending(GameError):
    """The page needs a preparation the worker is doing now; ask again shortly."""

    status = 503

    def __init__(self) -> None:
        super().__init__(
            "replay_pending",
            gettext_noop("The replay is being prepared; try again in a few seconds."),
        )
        self.retry_after = RETRY_AFTER_SECONDS

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "retry_after": self.retry_after}


# -- the worker's queue (per process) ---------------------------------------------

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


def take_requests() -> list[tuple[int, int, int | None]]:
    """What was asked for, (game id, from, up to), oldest game first; the queue is emptied."""
    with _lock:
        asked = sorted((game_id, *span) for game_id, span in _requests.items())
        _requests.clear()
    return asked


# -- checkpoints -----------------------------------------------------------------


def keep_work_state(game: Game, version: int) -> None:
    """The state right after long work, as the live game computed it (no redoing)."""
    ReplayCheckpoint.objects.create(game=game, version=version, state=game.state)


def build(game_id: int, since: int = 0, until: int | None = None) -> int:
    """Walk the log once from the checkpoint at or before ``since`` up to
    ``until`` (None: the current version), keeping states as
    ``replay.checkpoint_due`` says (by versions and by the CPU the steps cost
    here); returns how many are new."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status == Game.Status.OPEN:
        return 0
    rs = get_ruleset(game.ruleset)
    have = set(ReplayCheckpoint.objects.filter(game=game).values_list("version", flat=True))
    last = max((v for v in have if v <= since), default=0)
    state = _state_at(game, rs, last)
    end = game.version if until is None else min(until, game.version)
    rows = (
        Event.objects.filter(game=game, version__gt=last, version__lte=end)
        .order_by("version")
        .values_list("version", "kind", "seat", "action")
    )
    new: list[ReplayCheckpoint] = []
    stored, started = 0, time.thread_time()
    for version, kind, seat, action in rows.iterator(chunk_size=500):
        if kind == Event.Kind.WORK and version in have:  # the live game kept it
            state = _state_at(game, rs, version)
        else:  # long work of a game stored before checkpoints is done once, here
            state = replay.step(rs, state, kind, seat, action)
        if version in have:  # kept by the live game or an earlier walk
            last, started = version, time.thread_time()
        elif replay.checkpoint_due(kind, version, last, time.thread_time() - started):
            new.append(ReplayCheckpoint(game=game, version=version, state=rs.encode(state)))
            last, started = version, time.thread_time()
        if len(new) >= 50:
            stored += len(ReplayCheckpoint.objects.bulk_create(new, ignore_conflicts=True))
            new = []
    stored += len(ReplayCheckpoint.objects.bulk_create(new, ignore_conflicts=True))
    return stored


def _state_at(game: Game, rs: Ruleset, version: int) -> Any:
    """The state after ``version`` from its checkpoint (0: the set-up)."""
    if version == 0:
        return rs.setup(game.options, game.seat_count, game.seed)
    data = (
        ReplayCheckpoint.objects.filter(game=game, version=version)
        .values_list("state", flat=True)
        .first()
    )
    if data is None:
        raise ReplayPending()
    return rs.decode(data)


def _next_state(
    game: Game, rs: Ruleset, state: Any, version: int, kind: str, seat: Any, action: Any
) -> Any:
    """The state after one logged version; long work is read from its checkpoint."""
    if kind == Event.Kind.WORK:
        return _state_at(game, rs, version)
    return replay.step(rs, state, kind, seat, action)


# -- pages -----------------------------------------------------------------------


def check_eye(game: Game, seat: int | None) -> None:
    if game.status == Game.Status.ACTIVE and seat is not None:
        raise GameError(
            "forbidden",
            gettext_noop("A game in progress replays only what spectators may see."),
            status=403,
        )


def events_page(game: Game, seat: int | None, first: int, limit: int) -> list[dict[str, Any]]:
    """Versions ``first`` ... as ``seat`` saw their events (no views: no replaying)."""
    check_eye(game, seat)
    rs = get_ruleset(game.ruleset)
    rows = Event.objects.filter(
        game=game, version__gte=first, version__lte=min(first + limit - 1, game.version)
    ).order_by("version")
    return [{"version": row.version, "event": client_event(rs, row, seat)} for row in rows]


def frames_page(game: Game, seat: int | None, first: int, limit: int) -> list[dict[str, Any]]:
    """Versions ``first`` ... as ``seat`` saw them: each event and the view after it.

    Starts from the nearest checkpoint. A page too far from one, meeting long
    work nobody stored, or whose walk to its first frame turns out dear asks
    the worker to keep states there and raises ReplayPending. Stops early,
    after at least one frame, once the page has spent PAGE_CPU_SECONDS:
    large views make short pages, never slow ones.
    """
    check_eye(game, seat)
    if first > game.version:
        return []
    started = time.thread_time()
    rs = get_ruleset(game.ruleset)
    last = min(first + limit - 1, game.version)
    base = (
        ReplayCheckpoint.objects.filter(game=game, version__lt=first)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    ) or 0
    try:
        if first - 1 - base > CHECKPOINT_EVERY:
            raise ReplayPending()
        state = _state_at(game, rs, base)
        before = (
            Event.objects.filter(game=game, version__gt=base, version__lt=first)
            .order_by("version")
            .values_list("version", "kind", "seat", "action")
        )
        for walked, (version, kind, seat_, action) in enumerate(before, start=1):
            state = _next_state(game, rs, state, version, kind, seat_, action)
            if walked > 2 and time.thread_time() - started > WALK_CPU_SECONDS:
                raise ReplayPending()  # dear steps: the worker keeps states closer here
        rows = Event.objects.filter(game=game, version__gte=first, version__lte=last)
        frames: list[dict[str, Any]] = []
        for row in rows.order_by("version"):
            state = _next_state(game, rs, state, row.version, row.kind, row.seat, row.action)
            frames.append(
                {
                    "version": row.version,
                    "event": client_event(rs, row, seat),
                    "view": rs.view(state, seat),
                }
            )
            if time.thread_time() - started > PAGE_CPU_SECONDS:
                break
    except ReplayPending:
        request_build(game.pk, base, last)
        raise
    return frames
