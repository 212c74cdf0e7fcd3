"""One act decided in memory: the mover's sanctions, the seat, the version,
the turn, the ruleset's ``apply`` and the next (unsaved) event, as one
``events.Change`` for ``events.store_event`` or the loop's writer. Both move
paths decide through it (play.game_act in a thread, moves_on_loop on the
event loop), and so do the bots' and forced turns (bots.py, forced.py); a
conditional reply's owner is checked the same way (replies.py)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_noop

from moderation.standing import refuse_sanctioned_move

from ...errors import GameError
from ...models import Event, Game
from ...rules import IllegalAction, Ruleset, get_ruleset
from ...store.rows import LockedGame
from . import seat_offers
from .events import Change, decide_event
from .guards import require_active, require_seat

if TYPE_CHECKING:
    from ...users import Visitor


def _apply_action(
    game: Game, rs: Ruleset, seat: int, action: dict[str, Any]
) -> tuple[dict[str, Any], object, list[dict[str, Any]]]:
    """The ruleset's normalised action (what is stored), the new state and its events."""
    state = rs.decode(game.started_state)
    try:
        action = rs.normalize_action(state, seat, action)
        return action, *rs.apply(state, seat, action)
    except IllegalAction as exc:
        raise GameError("illegal", exc.template, version=game.version, **exc.params) from None


def decide_act(
    locked: LockedGame, user: Visitor, version: int, action: dict[str, Any], now: datetime
) -> Change:
    """Check and apply one player's action to the locked game (in memory only):
    the change with its next, unsaved Event. The mover's sanctions are
    decided here, from what the lock read, whatever a socket thought."""
    refuse_sanctioned_move(locked.standing, now)
    seat = require_seat(locked, user)
    game = locked.game
    if game.bots or game.handovers:
        seat_offers.player_returns(game, seat)
    return decide_seat_act(game, seat, version, action, now, holders=locked.holders)


def decide_seat_act(
    game: Game,
    seat: int,
    version: int,
    action: dict[str, Any],
    now: datetime,
    *,
    holders: dict[int, int | None] | None = None,
) -> Change:
    """``decide_act`` for a known seat: a person's, or a bot's (services/bots.py)."""
    require_active(game)
    # In a simultaneous phase every seat acts against the current state; at
    # one screen each turn is its own, so a move sent twice never lands on
    # the next player's seat (Hexenhalma's teams write orders one by one).
    if (len(game.to_act) <= 1 or game.one_screen is not None) and version != game.version:
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
    if game.deadline is not None and game.deadline <= now and game.timer != "vacation":
        raise GameError(
            "deadline_passed",
            gettext_noop("Time is up for this move; the server is applying the timeout."),
            version=game.version,
        )
    rs = get_ruleset(game.ruleset)
    if seat not in game.to_act and not rs.may_act(rs.decode(game.started_state), seat):
        raise GameError("not_your_turn", gettext_noop("It is not your turn."), version=game.version)
    action, new_state, events = _apply_action(game, rs, seat, action)
    game.draw_offers = []
    return decide_event(
        game,
        rs,
        new_state,
        holders=holders,
        seat=seat,
        kind=Event.Kind.ACT,
        action=action,
        events=events,
        now=now,
    )
