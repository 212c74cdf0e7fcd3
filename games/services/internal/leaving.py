"""A seat leaves a game (resigned, timed out, a bot giving up): offered to a
bot first where the ruleset says so (seat_offers.py), else the rules' leave
when play goes on without it, else the game's end. Shared by the services
that end a game (endings.py, play.py, bots.py, handover.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...models import Event, Game
from ...reasons import REASON_ENDED_EARLY, REASON_NO_PERSON_LEFT
from ...rules import IllegalAction, Ruleset
from . import seat_offers
from .events import append_event, ended, player_name


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
    (services/internal/seat_offers.py); ``before``: event items told first (the offer's
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
