"""A finished tournament game's points, and who did not show up."""

from __future__ import annotations

from typing import cast

from games.models import Event, Game
from games.reasons import REASON_FLAGGED
from games.rules import get_ruleset
from games.rules.base import Outcome
from games.services.internal.ratings import finishing_places, leaving_order
from lobby.pairing import table_points


def _movers(game: Game) -> set[int]:
    """The seats that made a move of their own."""
    seats = (
        Event.objects.filter(game=game, kind=Event.Kind.ACT, seat__isnull=False)
        .values_list("seat", flat=True)
        .distinct()
    )
    return {seat for seat in seats if seat is not None}  # (the filter's: for the type checker)


def no_shows(game: Game) -> list[int]:
    """Seats that had their turn and never moved: in a game that ended early
    (aborted: the platform's ending before every seat moved; with no move at
    all, the seats to act first), or lost on time without a single move."""
    moved = _movers(game)
    result = cast(Outcome, game.result or {})
    if _adjudicated(game):
        return []  # a round deadline: every seat's first-move window was still open
    if game.status == Game.Status.FINISHED:
        if result.get("reason") != REASON_FLAGGED:
            return []
        winners = set(result.get("winners") or [])
        return [s for s in range(game.seat_count) if s not in moved and s not in winners]
    if moved:
        return [s for s in range(game.seat_count) if s not in moved]
    rs = get_ruleset(game.ruleset)
    return list(rs.to_act(rs.setup(game.options, game.seat_count, game.seed)))


def _last_items(game: Game) -> list[dict[str, object]]:
    """The event items of the game's last event (its ending)."""
    last = Event.objects.filter(game=game).order_by("-version").values_list("events", flat=True)
    return list(last.first() or [])


def _adjudicated(game: Game) -> bool:
    """Whether a round's deadline ended the game (``games.services.adjudication``)."""
    return any(item.get("type") == "adjudicated" for item in _last_items(game))


def seat_points(game: Game, absent: list[int]) -> list[float]:
    """Each seat's tournament points: a win 1, a draw ½ (two seats); tables by
    finishing order. No-shows score nothing and the others win."""
    seats = list(range(game.seat_count))
    result = cast(Outcome, game.result or {})
    if game.status == Game.Status.ABORTED:
        if not absent or set(absent) >= set(seats):  # nobody showed, or nobody failed to
            return [0.0] * len(seats)
        bottom = 1 + len(seats) - len(absent)  # the no-shows share the last places
        places = [bottom if s in absent else 1 for s in seats]
    else:
        places_by_seat = finishing_places(seats, result, _last_items(game), leaving_order(game))
        places = [places_by_seat[s] for s in seats]
    if game.seat_count == 2:
        if places[0] == places[1]:
            return [0.5, 0.5] if not absent else [0.0, 0.0]
        return [1.0 if p == 1 else 0.0 for p in places]
    return table_points(places)
