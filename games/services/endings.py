"""Resigning, draw offers, aborting (a seat that leaves: leaving.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from moderation.internal import playbans

from ..errors import GameError
from ..models import (
    Event,
    Game,
)
from ..reasons import (
    REASON_ABORTED,
    REASON_RESIGNED,
)
from ..rules import get_ruleset
from .internal.draw_offers import offer_draw_locked
from .internal.events import append_event, ended, player_name
from .internal.guards import conflicts_are_stale, locked_player_seat
from .internal.leaving import leave_or_end

if TYPE_CHECKING:
    from ..users import Visitor


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
        return offer_draw_locked(game, rs, rs.decode(game.started_state), seat)


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
