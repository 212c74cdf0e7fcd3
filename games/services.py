"""The only code that changes a running game.

Every change runs in one transaction: lock the game row, check the caller's
seat and the version, call the ruleset, store the new state and one Event
row with the next version, and register the broadcast for after the commit.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from . import broadcast
from .errors import GameError
from .models import Event, Game, Seat
from .rules import IllegalAction, Ruleset, get_ruleset
from .selectors import game_with_seats


def _locked_game(game_id: Any) -> Game:
    try:
        game_id = int(game_id)
    except (TypeError, ValueError):
        raise GameError("bad_request", gettext_noop("The game id must be a number.")) from None
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError("not_found", gettext_noop("There is no such game."), status=404) from None


def _seat_index(game: Game, user: Any) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user_id=user.pk).values_list("index", flat=True).first()


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
    if seat is None:
        raise GameError(
            "not_seated",
            gettext_noop("You do not hold a seat in this game; spectators cannot act."),
            status=403,
            version=game.version,
        )
    return seat


def _append_event(
    game: Game,
    rs: Ruleset,
    state: Any,
    *,
    seat: int | None,
    kind: str,
    action: dict[str, Any] | None,
    events: list[dict[str, Any]],
    result: dict[str, Any] | None = None,
) -> Event:
    """Store the new state and its Event; broadcast after commit."""
    game.version += 1
    game.state = rs.encode(state)
    if result is None and game.status == Game.Status.ACTIVE:
        result = rs.outcome(state)
    if result is not None:
        game.status = Game.Status.FINISHED
        game.result = result
        game.ended = timezone.now()
        game.to_act = []
    else:
        game.to_act = rs.to_act(state)
    try:
        with transaction.atomic():
            event = Event.objects.create(
                game=game, version=game.version, seat=seat, kind=kind, action=action, events=events
            )
    except IntegrityError:
        raise GameError(
            "stale_version",
            gettext_noop("Someone else moved first; your view was out of date."),
            version=game.version - 1,
        ) from None
    game.save(update_fields=["version", "state", "status", "result", "ended", "to_act"])
    lobby_changed = result is not None or kind == Event.Kind.START
    transaction.on_commit(partial(_after_commit, game, rs, state, event, lobby_changed))
    return event


def _after_commit(game: Game, rs: Ruleset, state: Any, event: Event, lobby_changed: bool) -> None:
    broadcast.publish_game_event(game, rs, state, event)
    if lobby_changed:
        broadcast.publish_table(game_with_seats(game.pk))


def game_start(*, game: Game) -> Event:
    """Deal the game: set up its state as version 1. Caller holds the row lock."""
    rs = get_ruleset(game.ruleset)
    state = rs.setup(game.options, game.seat_count, game.seed)
    game.status = Game.Status.ACTIVE
    game.started = timezone.now()
    game.save(update_fields=["status", "started"])
    return _append_event(
        game, rs, state, seat=None, kind=Event.Kind.START, action=None, events=[{"type": "start"}]
    )


def game_act(*, game_id: Any, user: Any, version: Any, action: Any) -> int:
    """Apply one player's action; returns the new version."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameError("bad_request", gettext_noop("The version must be a whole number."))
    if not isinstance(action, dict):
        raise GameError("bad_request", gettext_noop("The action must be a JSON object."))
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = _require_seat(game, user)
        _require_active(game)
        # In a simultaneous phase every seat acts against the current state.
        if len(game.to_act) <= 1 and version != game.version:
            raise GameError(
                "stale_version",
                gettext_noop("Your view was out of date; the game has moved on."),
                version=game.version,
            )
        if seat not in game.to_act:
            raise GameError(
                "not_your_turn", gettext_noop("It is not your turn."), version=game.version
            )
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state)
        try:
            new_state, events = rs.apply(state, seat, action)
        except IllegalAction as exc:
            raise GameError("illegal", exc.template, version=game.version, **exc.params) from None
        event = _append_event(
            game, rs, new_state, seat=seat, kind=Event.Kind.ACT, action=action, events=events
        )
        return event.version


def game_resign(*, game_id: Any, user: Any) -> int:
    """Give up. Two seats: the other wins. More: the ruleset's leave hook."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = _require_seat(game, user)
        _require_active(game)
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state)
        events: list[dict[str, Any]] = [{"type": "resigned", "seat": seat}]
        result = None
        if game.seat_count > 2:
            try:
                state, more = rs.leave(state, seat)
                events += more
            except IllegalAction:
                result = _resign_result(game, seat)
        else:
            result = _resign_result(game, seat)
        event = _append_event(
            game,
            rs,
            state,
            seat=seat,
            kind=Event.Kind.RESIGN,
            action=None,
            events=events,
            result=result,
        )
        return event.version


def _resign_result(game: Game, seat: int) -> dict[str, Any]:
    winners = [i for i in range(game.seat_count) if i != seat]
    return {
        "winners": winners,
        "draw": False,
        "reason": gettext_noop("%(player)s resigned."),
        "reason_params": {"player": _player_name(game, seat)},
    }


def _player_name(game: Game, seat: int) -> str:
    user = Seat.objects.filter(game=game, index=seat).select_related("user").first()
    return user.user.username if user and user.user_id else str(seat + 1)
