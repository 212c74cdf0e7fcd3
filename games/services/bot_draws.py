"""A bot offers a draw at most once a game (issue 50).

Right after a bot's turn (``bots._game_bot_act``, in its transaction), when
the bot's evaluation says the game is dead (``games.bots.accepts_draw``: a
Daschax ending no side can win, a Halma game the house rule can only draw),
it offers a draw, unless it has offered one before in this game or an offer
already stands. A person answers it like any offer (accept, decline, or a
move, which withdraws it); bot seats answer at once. Offering after the turn,
not before, keeps the offer standing for the person's move.
"""

from __future__ import annotations

from ..bots import accepts_draw
from ..models import Event, Game
from ..rules import Ruleset
from .endings import offer_draw_locked


def offer_once(game: Game, rs: Ruleset, seat: int) -> int | None:
    """The bot in ``seat`` offers a draw if the game is dead and it never
    offered in this game; the new version, or None (no offer). The position
    is the game's as it stands now (a conditional reply may have followed
    the bot's action in the same transaction)."""
    level = (game.bots or {}).get(str(seat))
    if level is None or game.status != Game.Status.ACTIVE or game.draw_offers:
        return None
    state = rs.decode(game.started_state)
    if seat in rs.to_act(state) or seat in game.left_seats:
        return None  # its turn goes on (or it is out): offer once the turn is over
    if not accepts_draw(game.ruleset, level, state, seat):
        return None  # (pure and cheap: asked before the query below)
    if Event.objects.filter(game=game, seat=seat, kind=Event.Kind.DRAW_OFFER).exists():
        return None
    return offer_draw_locked(game, rs, state, seat)
