"""The only code that changes a running game.

Every change runs in one transaction: lock the game row, check the caller's
seat and the version, call the ruleset, store the new state and one Event
row with the next version, and register the broadcast for after the commit.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial, wraps
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from . import broadcast, clocks, notifications, plain_json, replay_store, store
from .errors import GameError, no_such_game
from .models import Event, Game, MatchRecord, RemisRequest, Seat, record_summary
from .rules import IllegalAction, Ruleset, get_ruleset
from .rules.base import RemisQueue, implements
from .selectors import game_with_seats

REASON_RESIGNED = gettext_noop("%(player)s resigned.")
REASON_FLAGGED = gettext_noop("%(player)s ran out of time.")
REASON_DRAW_AGREED = gettext_noop("Drawn by agreement.")
REASON_ABORTED = gettext_noop("%(player)s aborted the game before every seat had moved.")
REASON_LAST_LEFT = gettext_noop("Everybody else left the game.")
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
]


def parse_game_id(value: Any) -> int:
    """A game id from a client, or the error saying there is no such game."""
    try:
        game_id = int(value)
    except (TypeError, ValueError):
        raise GameError("bad_request", gettext_noop("The game id must be a number.")) from None
    if not 0 < game_id < 2**63:
        raise no_such_game()
    return game_id


def _locked_game(game_id: Any, user: Any = None) -> Game:
    """The game row, locked; with ``user`` also their seat (``my_seat``) in the same query."""
    game = store.lock_game(parse_game_id(game_id), user_id_of(user))
    if game is None:
        raise no_such_game()
    return game


def user_id_of(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def _seat_index(game: Game, user: Any) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    if hasattr(game, "my_seat"):
        return game.my_seat
    return Seat.objects.filter(game=game, user_id=user.pk).values_list("index", flat=True).first()


def _require_json_object(action: Any) -> None:
    """An action must be a plain JSON object (no NaN, nothing a database refuses)."""
    if not isinstance(action, dict):
        raise GameError("bad_request", gettext_noop("The action must be a JSON object."))
    try:
        json.dumps(action, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise GameError("bad_request", gettext_noop("The action must be plain JSON.")) from None
    found = plain_json.problem(action)
    if found:
        raise GameError("bad_request", found)


def conflicts_are_stale(service):
    """The unique (game, version) constraint is the last line of defence: a
    conflict there means someone else moved first, never a server error."""

    @wraps(service)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return service(*args, **kwargs)
        except IntegrityError:
            current = Game.objects.filter(pk=kwargs.get("game_id")).values_list(
                "version", flat=True
            )
            raise GameError(
                "stale_version",
                gettext_noop("Someone else moved first; your view was out of date."),
                version=current.first(),
            ) from None

    return wrapper


def _require_active(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise GameError(
            "not_started", gettext_noop("This game has not started yet."), version=game.version
        )
    if game.is_over:
        raise GameError("game_over", gettext_noop("This game is over."), version=game.version)


def _require_seat(game: Game, user: Any) -> int:
    if user is None or not user.is_authenticated:
        raise GameError(
            "login_required", gettext_noop("Log in to play."), status=403, version=game.version
        )
    seat = _seat_index(game, user)
    if seat is None or seat in game.left_seats:
        raise GameError(
            "not_seated",
            gettext_noop("You do not hold a seat in this game; spectators cannot act."),
            status=403,
            version=game.version,
        )
    return seat


def _player_name(game: Game, seat: int) -> str:
    name = (
        Seat.objects.filter(game=game, index=seat).values_list("user__username", flat=True).first()
    )
    return name or str(seat + 1)


def _ended(
    game: Game, reason: str, *, winners: list[int], draw: bool = False, **params: Any
) -> dict:
    return {"winners": winners, "draw": draw, "reason": reason, "reason_params": params}


def _append_event(
    game: Game, rs: Ruleset, state: Any, *, last: bool = False, **change: Any
) -> Event:
    """Store the new state and its Event; broadcast and notify after commit.

    ``change`` as ``next_event`` takes it: ``result`` ends the game by the
    platform (resign, flag, draw, abort); otherwise the ruleset's outcome
    decides. ``last``: nothing else follows in the caller's transaction.
    """
    before_to_act, status_before = list(game.to_act), game.status
    event = next_event(game, rs, state, **change)
    lobby_changed = changes_lobby(status_before, game, event)
    return _store_event(game, rs, state, event, before_to_act, lobby_changed, last=last)


def _store_event(
    game: Game,
    rs: Ruleset,
    state: Any,
    event: Event,
    before_to_act: list[int],
    lobby_changed: bool,
    *,
    last: bool,
) -> Event:
    """Save ``event`` and the game's new fields; notify, and broadcast after commit."""
    if game.is_over and implements(rs, RemisQueue):
        _close_waiting_remis(game, event.created)
    notifications.after_game_event(game, before_to_act, event)
    store.save_event(game, event, MUTABLE_FIELDS, last=last)
    broadcast.after_commit(partial(_after_commit, game, rs, state, event, lobby_changed))
    return event


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
    from .remis import publish_queue  # remis builds on this module

    for request_id in waiting:
        broadcast.after_commit(partial(publish_queue, request_id))


def next_event(
    game: Game,
    rs: Ruleset,
    state: Any,
    *,
    seat: int | None,
    kind: str,
    action: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
    result: dict[str, Any] | None = None,
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
        game.result = result
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


def changes_lobby(status_before: str, game: Game, event: Event) -> bool:
    """The lobby lists this game differently after ``event``: it started or ended."""
    return event.kind == Event.Kind.START or game.status != status_before


def _after_commit(game: Game, rs: Ruleset, state: Any, event: Event, lobby_changed: bool) -> None:
    broadcast.publish_game_event(game, rs, state, event)
    if lobby_changed:
        broadcast.publish_table(game_with_seats(game.pk))
    if game.is_over:  # the worker prepares its replay once, now
        replay_store.request_build(game.pk)


def game_start(*, game: Game) -> Event:
    """Deal the game: set up its state as version 1. Caller holds the row lock."""
    rs = get_ruleset(game.ruleset)
    state = rs.setup(game.options, game.seat_count, game.seed)
    now = timezone.now()
    game.status = Game.Status.ACTIVE
    game.started = now
    game.to_act = rs.to_act(state)
    clocks.start_clocks(game, now)
    return _append_event(
        game, rs, state, seat=None, kind=Event.Kind.START, events=[{"type": "start"}], now=now
    )


def _apply(
    game: Game, rs: Ruleset, seat: int, action: dict[str, Any]
) -> tuple[dict[str, Any], Any, list]:
    """The ruleset's normalised action (what is stored), the new state and its events."""
    state = rs.decode(game.state)
    try:
        action = rs.normalize_action(state, seat, action)
        return action, *rs.apply(state, seat, action)
    except IllegalAction as exc:
        raise GameError("illegal", exc.template, version=game.version, **exc.params) from None


def check_act_input(version: Any, action: Any) -> None:
    """What an act frame must carry before any game is read."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameError("bad_request", gettext_noop("The version must be a whole number."))
    _require_json_object(action)


def decide_act(
    game: Game, user: Any, version: int, action: dict[str, Any], now: datetime
) -> tuple[Ruleset, Any, Event]:
    """Check and apply one player's action to the locked ``game`` (in memory only).

    Returns the ruleset, the new state and the next, unsaved Event.
    """
    seat = _require_seat(game, user)
    _require_active(game)
    # In a simultaneous phase every seat acts against the current state.
    if len(game.to_act) <= 1 and version != game.version:
        raise GameError(
            "stale_version",
            gettext_noop("Your view was out of date; the game has moved on."),
            version=game.version,
        )
    if game.paused:
        raise GameError(
            "paused",
            gettext_noop("The game is paused until an admin decides the remis request."),
            version=game.version,
        )
    if game.deadline is not None and game.deadline <= now:
        raise GameError(
            "deadline_passed",
            gettext_noop("Time is up for this move; the server is applying the timeout."),
            version=game.version,
        )
    rs = get_ruleset(game.ruleset)
    if seat not in game.to_act and not rs.may_act(rs.decode(game.state), seat):
        raise GameError("not_your_turn", gettext_noop("It is not your turn."), version=game.version)
    action, new_state, events = _apply(game, rs, seat, action)
    game.draw_offers = []
    event = next_event(
        game, rs, new_state, seat=seat, kind=Event.Kind.ACT, action=action, events=events, now=now
    )
    return rs, new_state, event


@conflicts_are_stale
def game_act(*, game_id: Any, user: Any, version: Any, action: Any) -> int:
    """Apply one player's action; returns the new version."""
    check_act_input(version, action)
    with transaction.atomic():
        game = _locked_game(game_id, user)
        before_to_act = list(game.to_act)
        rs, new_state, event = decide_act(game, user, version, action, timezone.now())
        lobby_changed = changes_lobby(Game.Status.ACTIVE, game, event)
        return _store_event(
            game, rs, new_state, event, before_to_act, lobby_changed, last=True
        ).version


def _leave_or_end(
    game: Game, rs: Ruleset, seat: int, *, reason: str, event_type: str, now
) -> Event:
    """A seat is out (resigned or timed out): 2 seats end the game, more seats
    ask the ruleset whether play goes on without it."""
    state = rs.decode(game.state)
    events: list[dict[str, Any]] = [{"type": event_type, "seat": seat}]
    player = _player_name(game, seat)
    remaining = [s for s in range(game.seat_count) if s != seat and s not in game.left_seats]
    if game.seat_count > 2 and len(remaining) > 1:
        try:
            state, more = rs.leave(state, seat)
        except IllegalAction:
            pass
        else:
            game.left_seats = [*game.left_seats, seat]
            game.draw_offers = [s for s in game.draw_offers if s != seat]
            return _append_event(
                game, rs, state, seat=seat, kind=Event.Kind.LEAVE, events=events + more, now=now
            )
    result = _ended(game, reason, winners=remaining, player=player)
    return _append_event(
        game, rs, state, seat=seat, kind=Event.Kind.END, events=events, result=result, now=now
    )


@conflicts_are_stale
def game_resign(*, game_id: Any, user: Any) -> int:
    """Give up. Two seats: the other wins. More: the seat leaves (ruleset's hook)."""
    with transaction.atomic():
        game = _locked_game(game_id, user)
        seat = _require_seat(game, user)
        _require_active(game)
        rs = get_ruleset(game.ruleset)
        now = timezone.now()
        event = _leave_or_end(
            game, rs, seat, reason=REASON_RESIGNED, event_type="resigned", now=now
        )
        return event.version


@conflicts_are_stale
def game_timeout(*, game_id: int, now: datetime | None = None) -> int | None:
    """Apply a due deadline (called by the sweeper). Returns the new version,
    or None when another process got there first or nothing is due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.Status.ACTIVE, deadline__lte=now)
            .first()
        )
        if game is None or game.paused:
            return None
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state)
        if game.timer == "work":
            return _do_work(game, rs, state, now).version
        seat = clocks.timed_out_seat(game)
        if seat is None:
            return None
        action = rs.timeout_action(state, seat)
        if action is not None:
            try:
                new_state, events = rs.apply(state, seat, action)
            except IllegalAction:
                action = None
            else:
                events = [{"type": "timeout", "seat": seat, "timer": game.timer}, *events]
                return _append_event(
                    game,
                    rs,
                    new_state,
                    seat=seat,
                    kind=Event.Kind.TIMEOUT,
                    action=action,
                    events=events,
                    now=now,
                ).version
        return _leave_or_end(
            game, rs, seat, reason=REASON_FLAGGED, event_type="flagged", now=now
        ).version


def _do_work(game: Game, rs: Ruleset, state: Any, now: datetime) -> Event:
    """Long work (a Hexenhalma round) in the sweeper, never in a socket request;
    its records (match traces) are kept outside the state, and so is the
    state after it, so that replays never redo the work."""
    state, events, records = rs.do_work(state)
    event = _append_event(game, rs, state, seat=None, kind=Event.Kind.WORK, events=events, now=now)
    MatchRecord.objects.bulk_create(
        [
            MatchRecord(
                game=game, version=event.version, index=i, data=r, summary=record_summary(r)
            )
            for i, r in enumerate(records)
        ]
    )
    replay_store.keep_work_state(game, event.version)
    return event


def _remaining_seats(game: Game) -> list[int]:
    return [s for s in range(game.seat_count) if s not in game.left_seats]


@conflicts_are_stale
def game_offer_draw(*, game_id: Any, user: Any) -> int:
    """Offer (or accept) a draw; it is agreed when every remaining seat offers."""
    with transaction.atomic():
        game = _locked_game(game_id, user)
        seat = _require_seat(game, user)
        _require_active(game)
        if seat in game.draw_offers:
            raise GameError(
                "already_offered",
                gettext_noop("You have already offered a draw."),
                version=game.version,
            )
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state)
        offers = sorted({*game.draw_offers, seat})
        if offers == _remaining_seats(game):
            result = _ended(game, REASON_DRAW_AGREED, winners=[], draw=True)
            events = [{"type": "draw_accepted", "seat": seat}]
            return _append_event(
                game, rs, state, seat=seat, kind=Event.Kind.END, events=events, result=result
            ).version
        game.draw_offers = offers
        events = [{"type": "draw_offered", "seat": seat, "offers": offers}]
        return _append_event(
            game, rs, state, seat=seat, kind=Event.Kind.DRAW_OFFER, events=events
        ).version


@conflicts_are_stale
def game_accept_draw(*, game_id: Any, user: Any) -> int:
    """Accept a standing offer: an offer of one's own is not an offer to accept."""
    with transaction.atomic():
        game = _locked_game(game_id, user)
        seat = _require_seat(game, user)
        _require_active(game)
        others = [s for s in game.draw_offers if s != seat]
        if not others:
            message = (
                gettext_noop("You cannot accept your own draw offer.")
                if seat in game.draw_offers
                else gettext_noop("There is no draw offer to accept.")
            )
            raise GameError("no_offer", message, version=game.version)
    return game_offer_draw(game_id=game_id, user=user)


@conflicts_are_stale
def game_decline_draw(*, game_id: Any, user: Any) -> int:
    with transaction.atomic():
        game = _locked_game(game_id, user)
        seat = _require_seat(game, user)
        _require_active(game)
        if not [s for s in game.draw_offers if s != seat]:
            raise GameError(
                "no_offer", gettext_noop("There is no draw offer to decline."), version=game.version
            )
        rs = get_ruleset(game.ruleset)
        game.draw_offers = []
        events = [{"type": "draw_declined", "seat": seat}]
        return _append_event(
            game, rs, rs.decode(game.state), seat=seat, kind=Event.Kind.DRAW_DECLINE, events=events
        ).version


def can_abort(game: Game) -> bool:
    """A game may be aborted until every seat has acted once."""
    if game.status != Game.Status.ACTIVE:
        return False
    acted = set(
        Event.objects.filter(game=game, kind=Event.Kind.ACT)
        .values_list("seat", flat=True)
        .distinct()
    )
    return len(acted) < game.seat_count


@conflicts_are_stale
def game_abort(*, game_id: Any, user: Any) -> int:
    with transaction.atomic():
        game = _locked_game(game_id, user)
        seat = _require_seat(game, user)
        _require_active(game)
        if not can_abort(game):
            raise GameError(
                "cannot_abort",
                gettext_noop("Every seat has moved; resign or offer a draw instead."),
                version=game.version,
            )
        rs = get_ruleset(game.ruleset)
        result = _ended(game, REASON_ABORTED, winners=[], player=_player_name(game, seat))
        events = [{"type": "aborted", "seat": seat}]
        return _append_event(
            game,
            rs,
            rs.decode(game.state),
            seat=seat,
            kind=Event.Kind.END,
            events=events,
            result=result,
            status=Game.Status.ABORTED,
        ).version
