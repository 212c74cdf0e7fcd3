"""A timed-out player's seat handed to a bot, when every other player agrees.

In a game of three or more seats, a seat whose own clock ran out and that is
still in play (the ruleset applied its timeout action, e.g. a Hexenhalma team's
orders locked) is offered: ``open_offer`` runs in the timeout's transaction.
Each remaining player agrees with one call (``game_handover_agree``); with the
last agreement the seat is played by the medium bot from the next move on
(``Game.bots``), and the game's result names it. A seat that left (resigned,
or a timeout that removes it, as in Malefiz) is out of play: no offer.
The player coming back and moving before that withdraws the offer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop

from ..errors import GameError
from ..models import Event, Game
from ..rules import get_ruleset
from .events import append_event
from .guards import conflicts_are_stale, locked_seat

if TYPE_CHECKING:
    from ..users import Visitor

HANDOVER_LEVEL = "medium"
OWN_TIMERS = ("clock", "move")  # a seat's own time, not a game master's round deadline


def open_offer(game: Game, seat: int) -> None:
    """After ``seat`` timed out and stays in play: offer it to a bot (in memory)."""
    if game.seat_count < 3 or game.timer not in OWN_TIMERS or str(seat) in game.bots:
        return
    if str(seat) not in game.handovers:
        game.handovers = {**game.handovers, str(seat): {"votes": [], "move": None}}


def player_returns(game: Game, seat: int) -> None:
    """A player acts on their own seat: refused if a bot plays it now; an open
    offer of it is withdrawn (they are back)."""
    if str(seat) in game.bots:
        raise GameError(
            "handed_over", gettext_noop("A bot plays this seat now."), version=game.version
        )
    if str(seat) in game.handovers:
        game.handovers = {k: v for k, v in game.handovers.items() if k != str(seat)}


def voters(game: Game, seat: int) -> list[int]:
    """Who must agree: every seat still in play that a person holds, but ``seat``."""
    return [
        s
        for s in range(game.seat_count)
        if s != seat and s not in game.left_seats and str(s) not in game.bots
    ]


def parse_seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError("bad_request", gettext_noop("Name the seat by its number."))
    return value


@conflicts_are_stale
def game_handover_agree(*, game_id: int, user: Visitor, seat: Any) -> int:
    """One player agrees to let a bot play ``seat``; returns the new version."""
    target = parse_seat(seat)
    with transaction.atomic():
        game, voter = locked_seat(game_id, user)
        offer = game.handovers.get(str(target))
        if offer is None or offer.get("move") is not None or target in game.left_seats:
            raise GameError(
                "no_handover",
                gettext_noop("No handover to a bot is open for that seat."),
                version=game.version,
            )
        if voter == target or voter in offer["votes"]:
            raise GameError(
                "already_agreed",
                gettext_noop("Your agreement is not needed (again) for this seat."),
                version=game.version,
            )
        votes = sorted({*offer["votes"], voter})
        item: dict[str, Any] = {"type": "handover_agreed", "seat": target, "votes": votes}
        offer = {"votes": votes, "move": None}
        if set(voters(game, target)) <= set(votes):
            move = Event.objects.filter(game=game, kind=Event.Kind.ACT).count() + 1
            offer["move"] = move
            game.bots = {**game.bots, str(target): HANDOVER_LEVEL}
            game.has_bots = True
            item = {"type": "handed_to_bot", "seat": target, "level": HANDOVER_LEVEL, "move": move}
        game.handovers = {**game.handovers, str(target): offer}
        rs = get_ruleset(game.ruleset)
        return append_event(
            game, rs, rs.decode(game.state), seat=voter, kind=Event.Kind.HANDOVER, events=[item]
        ).version
