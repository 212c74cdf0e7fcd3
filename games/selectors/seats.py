"""Reads about a game's seats: who holds which, how the seats are named."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext, gettext_noop

from ..errors import GameError
from ..models import Game, Seat
from ..rules import get_ruleset
from ..users import is_bot


def seat_of(game: Game, user: Any) -> int | None:
    """The seat ``user`` holds in ``game`` (None: a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def seat_holders(game: Game) -> dict[int, int | None]:
    """Who holds each seat, read from the seats (the move path has them
    already, read with the row lock: ``store.rows.LockedGame``)."""
    return dict(Seat.objects.filter(game_id=game.pk).values_list("index", "user_id"))


def seat_list(game: Game) -> list[dict[str, Any]]:
    rs = get_ruleset(game.ruleset)
    names = rs.seat_names(game.seat_count)
    return [
        {
            "index": seat.index,
            "name": gettext(names[seat.index])
            if seat.index < len(names)
            else gettext("Seat %(n)s") % {"n": seat.index + 1},
            "user": seat.user.username if seat.user else None,
            "bot": is_bot(seat.user),
            "referee": rs.is_referee(seat.index),  # runs the game: no clock, no resigning
            "bot_level": handed_to_bot(game, seat),
        }
        for seat in game.seats.all()
    ]


def handed_to_bot(game: Game, seat: Seat) -> str | None:
    """The level of the bot that plays a person's seat for them now (a leaver's
    or a timed-out seat: services/handover.py), else None. The seat keeps its
    person's name, so every place that names it says both."""
    if is_bot(seat.user):
        return None  # a bot's own seat: "bot" says it already
    level = (game.bots or {}).get(str(seat.index))
    return level if isinstance(level, str) else None


def game_with_seats(game_id: int) -> Game:
    return (
        Game.objects.select_related("host")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .get(pk=game_id)
    )


def table_by_invite(code: Any) -> Game:
    """The table an invite link names, with its seats and host."""
    game = (
        Game.objects.select_related("host", "challenged")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .filter(invite_code=str(code)[:16])
        .first()
    )
    if game is None:
        raise GameError("not_found", gettext_noop("This invitation is not valid."), status=404)
    return game
