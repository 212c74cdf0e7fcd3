"""Leaving a game early: resigning, draw offers, aborting."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from moderation import playbans

from ..bots import accepts_draw
from ..errors import GameError
from ..models import (
    Event,
    Game,
)
from ..reasons import (
    REASON_ABORTED,
    REASON_DRAW_AGREED,
    REASON_ENDED_EARLY,
    REASON_NO_PERSON_LEFT,
    REASON_RESIGNED,
)
from ..rules import IllegalAction, Ruleset, get_ruleset
from . import seat_offers
from .events import append_event, ended, player_name
from .guards import conflicts_are_stale, locked_player_seat

if TYPE_CHECKING:
    from ..users import Visitor


def leave_or_end(
    game: Game,
    rs: Ruleset,
    seat: int,
    *,
    reason: str,
    event_type: str,
    now: datetime,
    offer: bool = True,
    before: list[dict[str, Any]] | None = None,
    paused: bool | None = None,
) -> Event:
    """A seat is out (resigned or timed out): 2 seats end the game, more seats
    ask the ruleset whether play goes on without it. The last person leaving
    ends it whatever the seats (``_end_without_people``). With ``offer``, a
    seat the others may hand to a bot waits for them instead
    (services/seat_offers.py); ``before``: event items told first (the offer's
    end), ``paused``: as in ``next_event``."""
    if offer:
        offered = seat_offers.offer_leave(
            game, rs, seat, event_type=event_type, reason=reason, now=now
        )
        if offered is not None:
            return offered
    state = rs.decode(game.started_state)
    events: list[dict[str, Any]] = [*(before or []), {"type": event_type, "seat": seat}]
    player = player_name(game, seat)
    remaining = [s for s in range(game.seat_count) if s != seat and s not in game.left_seats]
    person_leaves = seat_offers.held_by_person(game, seat)  # a bot match plays on without one
    if person_leaves and not any(seat_offers.held_by_person(game, s) for s in remaining):
        return _end_without_people(game, rs, seat, events, remaining, reason=reason, now=now)
    if game.seat_count > 2 and len(remaining) > 1:
        try:
            state, more = rs.leave(state, seat)
        except IllegalAction:
            pass
        else:
            game.left_seats = [*game.left_seats, seat]
            game.draw_offers = [s for s in game.draw_offers if s != seat]
            return append_event(
                game,
                rs,
                state,
                seat=seat,
                kind=Event.Kind.LEAVE,
                events=events + more,
                paused=paused,
                now=now,
            )
    result = ended(game, reason, winners=remaining, player=player)
    return append_event(
        game, rs, state, seat=seat, kind=Event.Kind.END, events=events, result=result, now=now
    )


def _end_without_people(
    game: Game,
    rs: Ruleset,
    seat: int,
    events: list[dict[str, Any]],
    remaining: list[int],
    *,
    reason: str,
    now: datetime,
) -> Event:
    """The last person left: bots would play on for nobody, so the game ends
    now; aborted if nobody moved yet, else the leaver ranks last and the
    seats still in play share the win (as a resignation ranks them). A seat
    whose player resigned while its handover vote is pending is out too: its
    offer closes with the game."""
    pending = seat_offers.pending_leaves(game)
    remaining = [s for s in remaining if s not in pending]
    game.handovers = {k: v for k, v in game.handovers.items() if int(k) not in pending}
    if not Event.objects.filter(game=game, kind=Event.Kind.ACT).exists():
        result, status = ended(game, REASON_ENDED_EARLY, winners=[]), Game.Status.ABORTED
    else:
        if len(remaining) > 1:
            reason = REASON_NO_PERSON_LEFT
        result = ended(game, reason, winners=remaining, player=player_name(game, seat))
        status = Game.Status.FINISHED
    return append_event(
        game,
        rs,
        rs.decode(game.started_state),
        seat=seat,
        kind=Event.Kind.END,
        events=events,
        result=result,
        status=status,
        now=now,
    )


@conflicts_are_stale
def game_resign(*, game_id: int, user: Visitor) -> int:
    """Give up. Two seats: the other wins. More: the seat leaves (ruleset's hook)."""
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
        rs = get_ruleset(game.ruleset)
        now = timezone.now()
        event = leave_or_end(game, rs, seat, reason=REASON_RESIGNED, event_type="resigned", now=now)
        playbans.resigned(game, seat, now)
        return event.version


def _remaining_seats(game: Game) -> list[int]:
    """The seats that must agree to a draw: still in, and players (a game
    master runs the game, it does not agree to its result)."""
    rs = get_ruleset(game.ruleset)
    return [s for s in range(game.seat_count) if s not in game.left_seats and not rs.is_referee(s)]


def _offered_since_own_move(game: Game, seat: int) -> bool:
    """The seat has offered a draw and made no move since: a new offer (one
    that accepts nobody's) waits for its next move, so a declined offer cannot
    be repeated at will (lichess, too, spaces a player's offers by moves)."""
    events = Event.objects.filter(game=game, seat=seat)
    last = (
        events.filter(kind=Event.Kind.DRAW_OFFER)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return last is not None and not events.filter(kind=Event.Kind.ACT, version__gt=last).exists()


@conflicts_are_stale
def game_offer_draw(*, game_id: int, user: Visitor) -> int:
    """Offer (or accept) a draw; it is agreed when every remaining seat offers.
    A seat offers again only after a move of its own (``_offered_since_own_move``)."""
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
        if seat in game.draw_offers:
            raise GameError(
                "already_offered",
                gettext_noop("You have already offered a draw."),
                version=game.version,
            )
        if not [s for s in game.draw_offers if s != seat] and _offered_since_own_move(game, seat):
            raise GameError(
                "offer_too_soon",
                gettext_noop("You can offer a draw again after your next move."),
                version=game.version,
            )
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.started_state)
        offers = sorted({*game.draw_offers, seat})
        if offers == _remaining_seats(game):
            result = ended(game, REASON_DRAW_AGREED, winners=[], draw=True)
            events = [{"type": "draw_accepted", "seat": seat}]
            return append_event(
                game, rs, state, seat=seat, kind=Event.Kind.END, events=events, result=result
            ).version
        game.draw_offers = offers
        events = [{"type": "draw_offered", "seat": seat, "offers": offers}]
        event = append_event(game, rs, state, seat=seat, kind=Event.Kind.DRAW_OFFER, events=events)
        return _bots_answer_draw(game, rs, state) or event.version


def _bots_answer_draw(game: Game, rs: Ruleset, state: object) -> int | None:
    """When only bot seats have still to answer a draw offer, they answer at
    once, in the offer's transaction: all accept (each bot judges the game
    dead, ``games.bots.accepts_draw``) and the game ends drawn, or the first
    that does not declines it. Returns the new version, or None when a
    person has still to answer."""
    waiting = [s for s in _remaining_seats(game) if s not in game.draw_offers]
    levels = game.bots or {}
    if not waiting or any(str(s) not in levels for s in waiting):
        return None
    for bot_seat in waiting:
        if not accepts_draw(game.ruleset, levels[str(bot_seat)], state, bot_seat):
            game.draw_offers = []
            events = [{"type": "draw_declined", "seat": bot_seat}]
            kind = Event.Kind.DRAW_DECLINE
            return append_event(game, rs, state, seat=bot_seat, kind=kind, events=events).version
    result = ended(game, REASON_DRAW_AGREED, winners=[], draw=True)
    events = [{"type": "draw_accepted", "seat": waiting[-1]}]
    return append_event(
        game, rs, state, seat=waiting[-1], kind=Event.Kind.END, events=events, result=result
    ).version


@conflicts_are_stale
def game_accept_draw(*, game_id: int, user: Visitor) -> int:
    """Accept a standing offer: an offer of one's own is not an offer to accept."""
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
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
def game_decline_draw(*, game_id: int, user: Visitor) -> int:
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
        if not [s for s in game.draw_offers if s != seat]:
            raise GameError(
                "no_offer", gettext_noop("There is no draw offer to decline."), version=game.version
            )
        rs = get_ruleset(game.ruleset)
        game.draw_offers = []
        events = [{"type": "draw_declined", "seat": seat}]
        return append_event(
            game,
            rs,
            rs.decode(game.started_state),
            seat=seat,
            kind=Event.Kind.DRAW_DECLINE,
            events=events,
        ).version


def _can_abort(game: Game) -> bool:
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
def game_abort(*, game_id: int, user: Visitor) -> int:
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
        if not _can_abort(game):
            raise GameError(
                "cannot_abort",
                gettext_noop("Every seat has moved; resign or offer a draw instead."),
                version=game.version,
            )
        rs = get_ruleset(game.ruleset)
        result = ended(game, REASON_ABORTED, winners=[], player=player_name(game, seat))
        events = [{"type": "aborted", "seat": seat}]
        playbans.aborted(game, seat)
        return append_event(
            game,
            rs,
            rs.decode(game.started_state),
            seat=seat,
            kind=Event.Kind.END,
            events=events,
            result=result,
            status=Game.Status.ABORTED,
        ).version
