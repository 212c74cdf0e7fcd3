"""Every change of a game ends here: its next Event, stored with the game's new
fields, its side effects and its publishing after the commit.

A ``Change`` is made in one place, ``decide_event``: a player's or a bot's
act (``deciding.decide_act`` / ``decide_seat_act``, a conditional reply
among them) and every platform event (``append_event``) are decided into
one, with the turn and the status as they were before it.

Two transports write a change: ``store_event`` in the caller's Django
transaction (every service), and the move on the event loop
(``services/moves_on_loop.py``), which writes on an async connection. Both
take the same ``Change``, ask the same ``SIDE_EFFECTS`` what it needs, and
publish it with the same ``change_publish``, so whatever is added here is seen
on both. The conditional reply is the loop writer's own work there
(``SideEffect.on_the_loop``): it reads the owners' rows itself and decides
with the same ``replies.match`` and ``reply_change``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from functools import partial
from typing import Any, Required, TypedDict, Unpack

from django.db import transaction
from django.utils import timezone

from ... import clocks, hooks, publish
from ...models import (
    Event,
    Game,
    GameResult,
    RemisRequest,
    Seat,
    SeatHandedOver,
    seats_ended,
)
from ...reasons import REASON_ENDED_EARLY
from ...rules import Ruleset
from ...rules.base import Outcome, RemisQueue, implements
from ...selectors.seats import game_with_seats
from ...store import presence, rows
from ...store.replay_requests import request_build
from . import notifications, ratings, replies

# What a game event may change (a narrower UPDATE than saving every column).
MUTABLE_FIELDS = rows.MUTABLE_FIELDS
# A start writes its players as lists name them too (``Game.listed_players``):
# its seats change no more.
STARTING_FIELDS = [*MUTABLE_FIELDS, "listed_players"]


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


def append_event(
    game: Game,
    rs: Ruleset,
    state: object,
    *,
    holders: dict[int, int | None] | None = None,
    **change: Unpack[EventChange],
) -> Event:
    """Store the new state and its Event; broadcast and notify after commit.

    ``change`` as ``next_event`` takes it: ``result`` ends the game by the
    platform (resign, flag, draw, abort); otherwise the ruleset's outcome
    decides. The platform ending a game that would be rated before every
    seat moved aborts it instead (``ratings.ends_early``): nobody wins it.
    ``holders``: the seats' holders, when read with the row lock.
    """
    result, status = change.get("result"), change.get("status", Game.Status.FINISHED)
    if result is not None and status == Game.Status.FINISHED and ratings.ends_early(game, rs):
        change = {
            **change,
            "result": ended(game, REASON_ENDED_EARLY, winners=[]),
            "status": Game.Status.ABORTED,
        }
    return store_event(decide_event(game, rs, state, holders=holders, **change))


def decide_event(
    game: Game,
    rs: Ruleset,
    state: object,
    *,
    holders: dict[int, int | None] | None = None,
    **change: Unpack[EventChange],
) -> Change:
    """Move ``game`` (in memory) to ``state``: the one place a ``Change`` is
    made, with the seats to act and the status as they were before it."""
    before_to_act, status_before = list(game.to_act), game.status
    event = next_event(game, rs, state, **change)
    lobby_changed = _changes_lobby(status_before, game, event)
    return Change(game, rs, state, event, before_to_act, lobby_changed, holders)


@dataclass
class Change:
    """One event on its way into the database, and what its side effects and
    its publishing need to know about it."""

    game: Game
    rs: Ruleset
    state: Any
    event: Event  # unsaved until written; the saved instance after
    before_to_act: list[int]
    lobby_changed: bool
    holders: dict[int, int | None] | None = None  # read with the row lock; None: read when needed
    # A conditional reply (services/internal/replies.py) matched to this change: decided
    # and stored right after it, in the same transaction, as its own event.
    reply: replies.Reply | None = None


class Later(Enum):
    """How the loop path runs a side effect after its commit."""

    WAIT = "wait"  # the move's answer waits for it
    BACKGROUND = "background"  # in a task of its own: the answer need not wait
    SKIP = "skip"  # nothing to do, known without a thread or a query


@dataclass(frozen=True)
class SideEffect:
    """What storing an event causes besides its rows, on both write paths.

    ``store_event`` runs every wanted effect in the caller's transaction
    (``after_write``: once the event row is written). The loop path makes a
    change itself only when none of its wanted effects must commit with it
    (``with_the_commit``) unless the loop's writer makes that effect itself
    in its transaction (``on_the_loop``: the conditional reply), and runs the
    others after its commit in a transaction of their own, as ``later`` says."""

    run: Callable[[Change], None]
    wanted: Callable[[Change], bool]
    with_the_commit: bool = True
    after_write: bool = False
    later: Callable[[Change], Later] = lambda change: Later.WAIT
    on_the_loop: bool = False


def _close_remis(change: Change) -> None:
    _close_waiting_remis(change.game, change.event.created)


def _plan_reply(change: Change) -> None:
    """Match the move against the other seat's conditional lines (before the
    write, so the plans' flag is written with it); a reply waits in ``reply``."""
    change.reply = replies.decide(change.game, change.rs, change.state, change.event)


def _store_reply(change: Change) -> None:
    """The reply, after the move's row, stored like any act."""
    if change.reply is not None:
        store_event(reply_change(change))


def reply_change(change: Change) -> Change:
    """The reply ``change`` met, decided on the same game (no copy of it) as
    the next version: on both write paths."""
    reply = change.reply
    assert reply is not None
    game = change.game
    game.draw_offers = []  # as any act clears them (deciding.decide_seat_act)
    return decide_event(
        game,
        change.rs,
        reply.state,
        holders=change.holders,
        seat=reply.seat,
        kind=Event.Kind.ACT,
        action=reply.action,
        events=reply.items,
        now=change.event.created,
    )


def plan_owners(change: Change) -> list[int]:
    """The seats whose lines the loop's writer reads for ``change`` (none:
    no reply to decide): ``_plan_reply``'s ``wanted``."""
    return replies.owners(change.game, change.event) if _replies_wanted(change) else []


def plans_matched(change: Change, plans: replies.Plans) -> list[replies.PlanWrite]:
    """``_plan_reply`` on the loop: the reply from the owners' ``plans`` as
    the loop's writer read them, and the writes it makes in its transaction."""
    change.reply, writes = replies.match(change.game, change.rs, change.state, change.event, plans)
    return writes


def _drop_plans(change: Change) -> None:
    replies.drop_all(change.game)


def _notify(change: Change) -> None:
    if change.reply is not None:
        return  # the turn this move began is already answered by the reply
    notifications.after_game_event(
        change.game, change.before_to_act, change.event, holders=change.holders
    )


def _notify_wanted(change: Change) -> bool:
    return not notifications.quiet(change.game, change.before_to_act, change.event)


def _notify_later(change: Change) -> Later:
    if change.reply is not None:
        return Later.SKIP  # as ``_notify``: the reply's own change tells the turn
    game, before_to_act = change.game, change.before_to_act
    if not notifications.turn_notice_only(game, before_to_act, change.event):
        return Later.WAIT
    # A realtime turn is told only to a player whose page is closed: most often
    # it is open in this process, which costs no thread to find out.
    takers = notifications.turn_takers(game, before_to_act, change.holders)
    return Later.BACKGROUND if set(takers) - presence.watching_here(game.pk, takers) else Later.SKIP


def _replies_wanted(change: Change) -> bool:
    return replies.wanted(change.game, change.event)


def _skip(change: Change) -> Later:
    return Later.SKIP  # done in the loop's transaction (``on_the_loop``)


def _rate(change: Change) -> None:
    ratings.rate_game(change.game, change.event)  # the end and its ratings commit together


def _mark_seats(change: Change) -> None:
    seats_ended(change.game.pk)  # the completion rate reads it from the seat index


def _game_over(change: Change) -> None:
    # Listeners (tournaments pair their next round) act in the ending transaction.
    hooks.game_over.send(sender=Game, game=change.game)


SIDE_EFFECTS: list[SideEffect] = [
    # First: the notice below asks whether a conditional reply answers the move.
    SideEffect(_plan_reply, _replies_wanted, on_the_loop=True, later=_skip),
    SideEffect(_drop_plans, lambda c: c.game.is_over and bool(c.game.plan_seats)),
    SideEffect(_close_remis, lambda c: c.game.is_over and implements(c.rs, RemisQueue)),
    SideEffect(_notify, _notify_wanted, with_the_commit=False, later=_notify_later),
    SideEffect(_rate, lambda c: c.game.is_over, after_write=True),
    SideEffect(_mark_seats, lambda c: c.game.is_over and c.lobby_changed, after_write=True),
    SideEffect(_game_over, lambda c: c.game.is_over and c.lobby_changed, after_write=True),
    SideEffect(_store_reply, _replies_wanted, after_write=True, on_the_loop=True, later=_skip),
]


def change_effects(change: Change) -> list[SideEffect]:
    return [effect for effect in SIDE_EFFECTS if effect.wanted(change)]


def store_event(change: Change) -> Event:
    """Save the change's event and the game's new fields with their side
    effects in the caller's transaction; publish after the commit."""
    effects = change_effects(change)
    for effect in effects:
        if not effect.after_write:
            effect.run(change)
    starts = change.event.kind == Event.Kind.START
    fields = STARTING_FIELDS if starts else MUTABLE_FIELDS
    change.event = rows.save_event(change.game, change.event, fields)
    # Registered before the effects after the write: a reply they store
    # publishes after this event. A reply moves the same game on, so this
    # event's frames are built now, from the game as this event left it.
    publishing = change_publish if change.reply is None else change_publish_prepared(change)
    publish.after_commit(partial(publishing, change))
    for effect in effects:
        if effect.after_write:
            effect.run(change)
    return change.event


def loop_may_write(change: Change, effects: list[SideEffect]) -> bool:
    """The loop path writes ``change`` itself: nothing in it must commit with
    the event but what the loop's writer does in its transaction
    (``on_the_loop``), and its publishing needs no query (the lobby's list
    and a finished game's replay do)."""
    if change.lobby_changed or change.game.is_over:
        return False
    return not any(effect.with_the_commit and not effect.on_the_loop for effect in effects)


def change_effect_run(effect: SideEffect, *, change: Change) -> None:
    """One side effect of a change the loop committed, in a transaction of its own."""
    with transaction.atomic():
        effect.run(change)


def _close_waiting_remis(game: Game, now: datetime) -> None:
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
        game.result = _with_handovers(result, game)
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
    clocks.set_forced(game, rs, state, now)
    return Event(
        game=game,
        version=game.version,
        seat=seat,
        kind=kind,
        action=action,
        events=events,
        created=now,
    )


def _with_handovers(result: Outcome, game: Game) -> GameResult:
    """The result names the seats a bot took over, and from which move."""
    taken: list[SeatHandedOver] = [
        {"seat": int(seat), "move": offer["move"]}
        for seat, offer in sorted(game.handovers.items(), key=lambda item: int(item[0]))
        if offer.get("move") is not None
    ]
    return {**result, "handovers": taken} if taken else {**result}


def _changes_lobby(status_before: str, game: Game, event: Event) -> bool:
    """The lobby lists this game differently after ``event``: it started or ended."""
    return event.kind == Event.Kind.START or game.status != status_before


def change_publish(change: Change) -> None:
    """What every committed change tells: the event's frames; the lobby, when
    it lists the game differently; the replay worker, when the game ended."""
    game = change.game
    publish.publish_game_event(game, change.rs, change.state, change.event, change.holders)
    _publish_table_and_replay(game.pk, lobby_changed=change.lobby_changed, over=game.is_over)


def change_publish_prepared(change: Change) -> Callable[[Change], None]:
    """``change_publish`` with the frames built now, from the game as it is
    (a reply moves the same game on before the commit); the call returned
    sends them."""
    game = change.game
    send_frames = publish.game_event_sender(
        game, change.rs, change.state, change.event, change.holders
    )
    pk, lobby_changed, over = game.pk, change.lobby_changed, game.is_over

    def send(_change: Change) -> None:
        send_frames()
        _publish_table_and_replay(pk, lobby_changed=lobby_changed, over=over)

    return send


def _publish_table_and_replay(pk: int, *, lobby_changed: bool, over: bool) -> None:
    if lobby_changed:
        publish.publish_table(game_with_seats(pk))
    if over:  # the worker prepares its replay once, now
        request_build(pk)
