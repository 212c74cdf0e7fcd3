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
    """The seat ``user`` holds in ``game`` (None: a spectator). At a table at
    one screen its holder holds the seat whose turn it is (``one_screen_seat``):
    the view and moves of that seat only, never another's."""
    if user is None or not user.is_authenticated:
        return None
    if holds_screen(game, user.pk):
        return game.one_screen_seat()
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def holds_screen(game: Game, user_id: int | None) -> bool:
    """Whether ``user_id`` holds the one screen of a table at one screen."""
    return game.one_screen is not None and user_id is not None and game.host_id == user_id


def one_screen_names(game: Game) -> list[str | None]:
    """The players a table at one screen names, per seat (None: a bot's seat)."""
    names = (game.one_screen or {}).get("names") or []
    return [name if isinstance(name, str) else None for name in names]


def seat_holders(game: Game) -> dict[int, int | None]:
    """Who holds each seat, read from the seats (the move path has them
    already, read with the row lock: ``store.rows.LockedGame``)."""
    return dict(Seat.objects.filter(game_id=game.pk).values_list("index", "user_id"))


def screen_holders(game: Game, holders: dict[int, int | None]) -> dict[int, int | None]:
    """Where each seat's own frames go: at a table at one screen only the seat
    to act now has a holder (the screen's), so no other seat's secrets (a
    Hexenhalma team's orders written before) reach the screen between turns."""
    if game.one_screen is None:
        return holders
    acting = game.one_screen_seat()
    return {seat: game.host_id if seat == acting else None for seat in holders}


def seat_list(game: Game) -> list[dict[str, Any]]:
    rs = get_ruleset(game.ruleset)
    names = rs.seat_names(game.seat_count)
    players = one_screen_names(game)
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
            # At one screen: the player the host named for this seat (no account).
            "player": players[seat.index] if seat.index < len(players) else None,
        }
        for seat in game.seats.all()
    ]


def handed_to_bot(game: Game, seat: Seat) -> str | None:
    """The level of the bot that plays a person's seat for them now (a leaver's
    or a timed-out seat: services/handover.py), else None. The seat keeps its
    person's name, so every place that names it says both."""
    return bot_level_at(game, seat.index, is_bot(seat.user)) or None


def bot_level_at(game: Game, index: int, held_by_bot: bool) -> str:
    """``handed_to_bot`` for seat ``index``, its holder a bot or not ("": none)."""
    if held_by_bot:
        return ""  # a bot's own seat: "bot" says it already
    level = (game.bots or {}).get(str(index))
    return level if isinstance(level, str) else ""


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
