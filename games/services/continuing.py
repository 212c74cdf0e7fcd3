"""Continue from here against the computer (issue 51): a casual game from a
position of a finished game, the person in one seat and a bot in the others.

The position is the state after a version of the old game's log, as its
replay shows it to everyone once the game is over. It is kept in the new
game (``Game.opening``) without the dice's hidden source: the old game's
seed is public once it ended (its export names it), and with it every roll
the old game went on to make, so the new game rolls with its own seed
(``rules.base.opening_state``). The game is made by the one factory
(``creating.game_create``) and starts at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop

from moderation.standing import refuse_if_playbanned, refuse_if_suspended

from .. import clocks
from ..errors import GameError, no_such_game
from ..models import Event, Game
from ..rules import get_ruleset
from ..rules.base import public_position
from ..selectors.walk import opening, step
from ..users import is_bot, signed_in
from .creating import game_create

if TYPE_CHECKING:
    from ..users import Visitor

# The games a position of which a person may play on against the bots: one
# action at a time, no game master and no orders hidden in a round.
CONTINUABLE = ("halma", "daschax", "malefiz")
LEVELS = ("easy", "medium", "strong")


def game_continue(
    *,
    user: Visitor,
    game_id: int,
    version: int,
    seat: int | None = None,
    level: str = "strong",
) -> Game:
    """A new casual game from the position after ``version`` of a finished
    game: ``user`` in ``seat`` (default: the seat to move there), the
    ``level`` bot in every other seat. Started at once, untimed."""
    user = signed_in(user, gettext_noop("Log in to play on against the computer."))
    if is_bot(user):
        raise GameError("bot_account", gettext_noop("Bots cannot do this."), status=403)
    refuse_if_suspended(user)
    clock = clocks.clean_clock({"kind": "none"})
    refuse_if_playbanned(user, clock)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise no_such_game()
    if game.status != Game.Status.FINISHED:
        raise GameError(
            "game_running"
            if game.status in (Game.Status.OPEN, Game.Status.ACTIVE)
            else "not_finished",
            gettext_noop("Only a finished game can be played on from one of its positions."),
            status=409,
        )
    if game.ruleset not in CONTINUABLE:
        raise GameError(
            "not_supported",
            gettext_noop("This game cannot be played on from a position."),
            status=400,
        )
    if level not in LEVELS:
        raise GameError("bad_request", gettext_noop("Choose a level: easy, medium or strong."))
    if (
        isinstance(version, bool)
        or not isinstance(version, int)
        or not 1 <= version <= game.version
    ):
        raise GameError("bad_request", gettext_noop("This game has no such version."))
    rs = get_ruleset(game.ruleset)
    state = _state_after(game, version)
    movers = rs.to_act(state)
    if rs.outcome(state) is not None or not movers:
        raise GameError(
            "position_over",
            gettext_noop("Nobody is to move in this position: the game was over there."),
            status=409,
        )
    if seat is None:
        seat = movers[0]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.seat_count:
        raise GameError("bad_request", gettext_noop("Choose one of the table's seats."))
    position = {"game": game.pk, "version": version, "state": public_position(rs, state)}
    with transaction.atomic():
        return game_create(
            ruleset=game.ruleset,
            holders=[user.pk if i == seat else None for i in range(game.seat_count)],
            bots={i: level for i in range(game.seat_count) if i != seat},
            options=game.options,
            clock=clock,
            rated=False,
            host=user.pk,
            auto_start=True,
            opening=position,
        )


def _state_after(game: Game, version: int) -> Any:
    """The state after ``version`` of the game's log (from its own opening)."""
    rs = get_ruleset(game.ruleset)
    state = opening(rs, game)
    rows = Event.objects.filter(game=game, version__lte=version).order_by("version")
    for kind, seat, action in rows.values_list("kind", "seat", "action"):
        state = step(rs, state, kind, seat, action)
    return state
