"""Ending a game from outside by a fixed rule: a correspondence tournament
round's deadline (lobby/tournaments/internal/deadlines.py) adjudicates its games.

The rule (docs/tournaments.md): each seat's thinking time is the time its
turns took (each move's wait since the event before it, the running turn's
wait to the seats to act now). Of the seats still in play, those that used
the least (counted in whole minutes) win and the rest lose; when all tie, it
is a draw. Seats that already left rank below, as in any ending.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..models import Event, Game
from ..reasons import REASON_ROUND_DEADLINE
from ..rules import get_ruleset
from .internal.events import append_event, ended
from .internal.guards import conflicts_are_stale


def _thinking_minutes(game: Game, now: datetime) -> dict[int, int]:
    """Each seat's time used so far, in whole minutes (one read of the events)."""
    used = dict.fromkeys(range(game.seat_count), 0.0)
    previous: datetime | None = None
    for seat, kind, created in (
        Event.objects.filter(game=game).order_by("version").values_list("seat", "kind", "created")
    ):
        if previous is not None and kind == Event.Kind.ACT and seat in used:
            used[seat] += (created - previous).total_seconds()
        previous = created
    if previous is not None:
        for seat in game.to_act:
            if seat in used:
                used[seat] += max(0.0, (now - previous).total_seconds())
    return {seat: int(seconds // 60) for seat, seconds in used.items()}


@conflicts_are_stale
def game_adjudicate(*, game_id: int, now: datetime | None = None) -> int | None:
    """End a running game by the thinking-time rule; None if it is over already."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        rs = get_ruleset(game.ruleset)
        minutes = _thinking_minutes(game, now)
        in_play = [s for s in range(game.seat_count) if s not in game.left_seats]
        least = min(minutes[s] for s in in_play)
        winners = [s for s in in_play if minutes[s] == least]
        draw = len(winners) == len(in_play)
        result = ended(game, REASON_ROUND_DEADLINE, winners=[] if draw else winners, draw=draw)
        event = append_event(
            game,
            rs,
            rs.decode(game.started_state),
            seat=None,
            kind=Event.Kind.END,
            events=[
                {"type": "adjudicated", "minutes": [minutes[s] for s in range(game.seat_count)]}
            ],
            result=result,
            now=now,
        )
        return event.version
