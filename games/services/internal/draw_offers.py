"""Draw offers stored on a locked game: a person's (``endings.game_offer_draw``)
and a bot's, which offers at most once a game (issue 50).

Right after a bot's turn (``bots._game_bot_act``, in its transaction), when
the bot's evaluation says the game is dead (``games.bots.accepts_draw``: a
Daschax ending no side can win, a Halma game the house rule can only draw),
it offers a draw, unless it has offered one before in this game or an offer
already stands. A person answers it like any offer (accept, decline, or a
move, which withdraws it); bot seats answer at once. Offering after the turn,
not before, keeps the offer standing for the person's move.
"""

from __future__ import annotations

from ...bots import accepts_draw
from ...models import Event, Game
from ...reasons import REASON_DRAW_AGREED
from ...rules import Ruleset, get_ruleset
from .events import append_event, ended


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


def offer_draw_locked(game: Game, rs: Ruleset, state: object, seat: int) -> int:
    """``seat`` offers a draw in the caller's transaction (the game row locked,
    the offer allowed): agreed when every remaining seat has offered, else
    stored, and bot seats still to answer answer at once. The new version."""
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


def _remaining_seats(game: Game) -> list[int]:
    """The seats that must agree to a draw: still in, and players (a game
    master runs the game, it does not agree to its result)."""
    rs = get_ruleset(game.ruleset)
    return [s for s in range(game.seat_count) if s not in game.left_seats and not rs.is_referee(s)]
