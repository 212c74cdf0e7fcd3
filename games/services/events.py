"""Every change of a game ends here: its next Event, stored with the game's new
fields in the caller's transaction; notifications decided in it, the
broadcast registered for after the commit."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any, Required, TypedDict, Unpack

from django.utils import timezone

from .. import clocks, publish
from ..models import (
    DUE_FIELDS,
    Event,
    Game,
    GameResult,
    RemisRequest,
    Seat,
    SeatHandedOver,
)
from ..reasons import REASON_ENDED_EARLY
from ..rules import Ruleset
from ..rules.base import Outcome, RemisQueue, implements
from ..selectors.replays import request_build
from ..selectors.seats import game_with_seats
from ..store import rows
from . import notifications, ratings

# What a game event may change (a narrower UPDATE than saving every column).
MUTABLE_FIELDS = [
    "version",
    "state",
    "status",
    "result",
    "started",
    "ended",
    "to_act",
    "clocks",
    "turn_started",
    "deadline",
    "timer",
    "phase_deadline",
    "timer_key",
    "paused",
    "draw_offers",
    "left_seats",
    "remis_pending",
    "deadlock_requests",
    "bots",
    "has_bots",
    "handovers",
    "banks",
    "away",
    *DUE_FIELDS,  # derived by the store from the fields above
]


def ended(
    game: Game, reason: str, *, winners: list[int], draw: bool = False, **params: object
) -> Outcome:
    return {"winners": winners, "draw": draw, "reason": reason, "reason_params": params}


def player_name(game: Game, seat: int) -> str:
    name = (
        Seat.objects.filter(game=game, index=seat).values_list("user__username", flat=True).first()
    )
    return name or str(seat + 1)


class EventChange(TypedDict, total=False):
    """What ``append_event`` passes on to ``next_event``."""

    seat: Required[int | None]
    kind: Required[str]
    action: dict[str, Any] | None
    events: list[dict[str, Any]] | None
    result: Outcome | None
    status: str
    paused: bool | None
    now: datetime | None


def append_event(game: Game, rs: Ruleset, state: object, **change: Unpack[EventChange]) -> Event:
    """Store the new state and its Event; broadcast and notify after commit.

    ``change`` as ``next_event`` takes it: ``result`` ends the game by the
    platform (resign, flag, draw, abort); otherwise the ruleset's outcome
    decides. The platform ending a game that would be rated before every
    seat moved aborts it instead (``ratings.ends_early``): nobody wins it.
    """
    result, status = change.get("result"), change.get("status", Game.Status.FINISHED)
    if result is not None and status == Game.Status.FINISHED and ratings.ends_early(game, rs):
        change = {
            **change,
            "result": ended(game, REASON_ENDED_EARLY, winners=[]),
            "status": Game.Status.ABORTED,
        }
    before_to_act, status_before = list(game.to_act), game.status
    event = next_event(game, rs, state, **change)
    lobby_changed = changes_lobby(status_before, game, event)
    return store_event(game, rs, state, event, before_to_act, lobby_changed)


def store_event(
    game: Game,
    rs: Ruleset,
    state: object,
    event: Event,
    before_to_act: list[int],
    lobby_changed: bool,
) -> Event:
    """Save ``event`` and the game's new fields; notify, and broadcast after commit."""
    if game.is_over and implements(rs, RemisQueue):
        close_waiting_remis(game, event.created)
    notifications.after_game_event(game, before_to_act, event)
    event = rows.save_event(game, event, MUTABLE_FIELDS)
    ratings.rate_game(game, event)  # same transaction: the end and its ratings commit together
    publish.after_commit(partial(publish_after_commit, game, rs, state, event, lobby_changed))
    return event


def close_waiting_remis(game: Game, now: datetime) -> None:
    """A game that ends closes the remis request waiting in it (RULES.md §1),
    in the same transaction: no later decision can change its result."""
    waiting = list(
        RemisRequest.objects.filter(game=game, status=RemisRequest.Status.PENDING).values_list(
            "pk", flat=True
        )
    )
    if not waiting:
        return
    RemisRequest.objects.filter(pk__in=waiting).update(
        status=RemisRequest.Status.CLOSED, decided=now
    )

    for request_id in waiting:
        publish.after_commit(partial(publish.publish_queue, request_id))


def next_event(
    game: Game,
    rs: Ruleset,
    state: object,
    *,
    seat: int | None,
    kind: str,
    action: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
    result: Outcome | None = None,
    status: str = Game.Status.FINISHED,
    paused: bool | None = None,
    now: datetime | None = None,
) -> Event:
    """Move ``game`` (in memory) to ``state`` and return its next, unsaved Event.

    Every event passes here, so the clocks are charged here, once, at ``now``.
    ``paused`` stops (True) or restarts (False) both clocks: a remis request.
    """
    now = now or timezone.now()
    events = list(events or [])
    stopped, to_act_before = game.paused, list(game.to_act)
    if paused is not None:
        game.paused = paused
    clocks.charge_event(game, kind, seat, now, stopped=stopped)
    game.version += 1
    game.state = rs.encode(state)
    if result is None and game.status == Game.Status.ACTIVE:
        result = rs.outcome(state)
    if result is not None:
        game.status = status
        game.result = with_handovers(result, game)
        game.ended = now
        game.to_act = []
        game.draw_offers = []
        game.paused, game.remis_pending = False, None  # its request closes with it
        if status == Game.Status.FINISHED:
            events.append({"type": "game_over", **result})
    else:
        game.to_act = rs.to_act(state)
    new_turn = clocks.begins_turn(kind, to_act_before, game.to_act)
    clocks.set_deadline(game, rs, state, now, new_turn=new_turn)
    return Event(
        game=game,
        version=game.version,
        seat=seat,
        kind=kind,
        action=action,
        events=events,
        created=now,
    )


def with_handovers(result: Outcome, game: Game) -> GameResult:
    """The result names the seats a bot took over, and from which move."""
    taken: list[SeatHandedOver] = [
        {"seat": int(seat), "move": offer["move"]}
        for seat, offer in sorted(game.handovers.items(), key=lambda item: int(item[0]))
        if offer.get("move") is not None
    ]
    return {**result, "handovers": taken} if taken else {**result}


def changes_lobby(status_before: str, game: Game, event: Event) -> bool:
    """The lobby lists this game differently after ``event``: it started or ended."""
    return event.kind == Event.Kind.START or game.status != status_before


def publish_after_commit(
    game: Game, rs: Ruleset, state: object, event: Event, lobby_changed: bool
) -> None:
    publish.publish_game_event(game, rs, state, event)
    if lobby_changed:
        publish.publish_table(game_with_seats(game.pk))
    if game.is_over:  # the worker prepares its replay once, now
        request_build(game.pk)
