"""Replays served in pages, from states stored once (checkpoints).

Replaying a game from its seed costs what playing it cost: a Hexenhalma round
is resolved again (about 0.3 s for 20 teams), every view of every version is
computed again. So a replay is prepared once, by the process's worker
(``games.realtime.sweeper`` calling ``services.internal.replay_checkpoints.build``):
when a game ends, or when a page asks for versions no checkpoint is near. A
page starts from the nearest checkpoint: a few cheap steps, then its own
frames, within a CPU budget; a page too far from one answers ReplayPending,
naming the versions the worker should prepare (``ReplayPending.build``), and
the view that asked passes them on (``store.replay_requests.request_build``):
a read here changes nothing, not even a queue.
"""

from __future__ import annotations

import time
from typing import Any

from django.utils.translation import gettext_noop

from ..errors import GameError
from ..models import Event, Game, ReplayCheckpoint
from ..rules import Ruleset, get_ruleset
from .frames import client_event, result_text
from .seats import game_with_seats, seat_list
from .walk import CHECKPOINT_EVERY, opening, position_of, step, walk

EXPORT_FORMAT = "brettspiele/1"


def replay_frames(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """Every version as ``seat`` saw it: the event and the view after it."""
    if game.status == Game.Status.ACTIVE and seat is not None:
        raise GameError(
            "forbidden",
            gettext_noop("A game in progress replays only what spectators may see."),
            status=403,
        )
    rs = get_ruleset(game.ruleset)
    rows = list(Event.objects.filter(game=game).order_by("version"))
    log = [(row.kind, row.seat, row.action) for row in rows]
    frames = []
    for row, (_, state) in zip(
        rows,
        walk(rs, game.options, game.seat_count, game.seed, log, position_of(game)),
        strict=True,
    ):
        frames.append(
            {
                "version": row.version,
                "event": client_event(rs, row, seat),
                "view": rs.view(state, seat),
            }
        )
    return frames


def export_game(game: Game) -> dict[str, Any]:
    if game.status != Game.Status.FINISHED:
        raise GameError(
            "not_finished", gettext_noop("Only finished games can be exported."), status=403
        )
    events = Event.objects.filter(game=game).order_by("version")
    return {
        "format": EXPORT_FORMAT,
        "ruleset": game.ruleset,
        "options": game.options,
        "seat_count": game.seat_count,
        "seed": game.seed,
        "result": game.result,
        "log": [
            {
                "version": e.version,
                "seat": e.seat,
                "kind": e.kind,
                "action": e.action,
                "events": e.events,
            }
            for e in events
        ],
        "final_state": game.state,
        # A game continued from another's position starts there (no import takes it).
        **({"opening": game.opening} if game.opening else {}),
    }


FRAMES_DEFAULT, FRAMES_MAX = 20, 50  # frames (event and view) per page


EVENTS_DEFAULT, EVENTS_MAX = 200, 500  # events alone per page


PAGE_CPU_SECONDS = 0.03  # a page stops adding frames once it has spent this


# A page whose walk to its first frame costs more than this (over more than
# a step or two) asks the worker to keep states closer together there.
WALK_CPU_SECONDS = 0.03


RETRY_AFTER_SECONDS = 2


class ReplayPending(GameError):
    """The page needs a preparation the worker is doing now; ask again shortly.
    ``build``: what the worker should prepare, (game id, from, up to), for
    the caller to ask for (None: nothing, e.g. the ended game's own build)."""

    status = 503

    def __init__(self) -> None:
        super().__init__(
            "replay_pending",
            gettext_noop("The replay is being prepared; try again in a few seconds."),
        )
        self.retry_after = RETRY_AFTER_SECONDS
        self.build: tuple[int, int, int | None] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "retry_after": self.retry_after}


def state_at_checkpoint(game: Game, rs: Ruleset, version: int) -> Any:
    """The state after ``version`` from its checkpoint (0: the set-up)."""
    if version == 0:
        return opening(rs, game)
    data = (
        ReplayCheckpoint.objects.filter(game=game, version=version)
        .values_list("state", flat=True)
        .first()
    )
    if data is None:
        raise ReplayPending()
    return rs.decode(data)


def next_state(
    game: Game, rs: Ruleset, state: Any, version: int, kind: str, seat: Any, action: Any
) -> Any:
    """The state after one logged version; long work is read from its checkpoint."""
    if kind == Event.Kind.WORK:
        return state_at_checkpoint(game, rs, version)
    return step(rs, state, kind, seat, action)


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
    work nobody stored, or whose walk to its first frame turns out dear raises
    ReplayPending, naming the states to keep there (``build``). Stops early,
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
        state = state_at_checkpoint(game, rs, base)
        before = (
            Event.objects.filter(game=game, version__gt=base, version__lt=first)
            .order_by("version")
            .values_list("version", "kind", "seat", "action")
        )
        for walked, (version, kind, seat_, action) in enumerate(before, start=1):
            state = next_state(game, rs, state, version, kind, seat_, action)
            if walked > 2 and time.thread_time() - started > WALK_CPU_SECONDS:
                raise ReplayPending()  # dear steps: the worker keeps states closer here
        rows = Event.objects.filter(game=game, version__gte=first, version__lte=last)
        frames: list[dict[str, Any]] = []
        for row in rows.order_by("version"):
            state = next_state(game, rs, state, row.version, row.kind, row.seat, row.action)
            frames.append(
                {
                    "version": row.version,
                    "event": client_event(rs, row, seat),
                    "view": rs.view(state, seat),
                }
            )
            if time.thread_time() - started > PAGE_CPU_SECONDS:
                break
    except ReplayPending as pending:
        pending.build = (game.pk, base, last)
        raise
    return frames


def replay(game: Game, *, seat: int | None, first: int, limit: int, views: bool) -> dict[str, Any]:
    """A page of versions ``first`` ... as ``seat`` (None: a spectator) saw
    them, with the game's seats and result; ``more`` says whether later
    versions follow the page (they start at ``end`` + 1)."""
    if seat is not None and not 0 <= seat < game.seat_count:
        raise GameError("bad_request", gettext_noop("There is no such seat."))
    page = frames_page if views else events_page
    frames = page(game, seat, first, limit)
    end = frames[-1]["version"] if frames else game.version
    return {
        "game": game.pk,
        "ruleset": game.ruleset,
        "status": game.status,
        "seat": seat,
        "seats": seat_list(game_with_seats(game.pk)),
        "result": game.result,
        "result_text": result_text(game.result),
        "version": game.version,
        "frames": frames,
        "end": end,
        "more": end < game.version,
    }
