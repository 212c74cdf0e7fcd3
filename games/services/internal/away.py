"""Seats whose player is on vacation (vacation.py) in a running game: marked
as the game starts, and back when the vacation ends (the sweeper, through
play.game_timeout). Shared by play.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ... import clocks
from ...models import Event, Game, Seat, Vacation
from ...rules import Ruleset
from .events import append_event


def vacations_over(game: Game, rs: Ruleset, state: object, now: datetime) -> Event:
    """The sweeper's part: vacations that have ended let their seats' clocks
    run again (the ``vacation`` deadline of ``game``, locked by the caller)."""
    if not game.paused:
        clocks.charge(game, now)
    away = dict(game.away or {})
    back = [int(s) for s, a in away.items() if datetime.fromisoformat(a["until"]) <= now]
    for seat in back:
        away.pop(str(seat))
    game.away = away
    items = [{"type": "vacation_end", "seat": seat} for seat in sorted(back)]
    return append_event(game, rs, state, seat=None, kind=Event.Kind.VACATION, events=items, now=now)


def seats_away(game: Game, now: datetime) -> dict[str, Any]:
    """A correspondence game starting now: its seats whose player is away."""
    if game.clock.get("kind") != "correspondence":
        return {}
    seats = Seat.objects.filter(
        game=game, user__vacations__start__lte=now, user__vacations__end__gt=now
    ).values_list("index", "user__username", "user__vacations__end")
    return {str(i): {"username": name, "until": end.isoformat()} for i, name, end in seats}


def seats_away_many(games: list[tuple[Game, list[int]]], now: datetime) -> list[dict[str, Any]]:
    """``seats_away`` for many games starting at once, each with its seats'
    user ids in seat order: one query for all of them."""
    everyone = {uid for game, users in games if _correspondence(game) for uid in users}
    away = {
        uid: {"username": name, "until": end.isoformat()}
        for uid, name, end in Vacation.objects.filter(
            user_id__in=everyone, start__lte=now, end__gt=now
        ).values_list("user_id", "user__username", "end")
    }
    return [
        {str(i): away[uid] for i, uid in enumerate(users) if uid in away}
        if _correspondence(game)
        else {}
        for game, users in games
    ]


def _correspondence(game: Game) -> bool:
    return game.clock.get("kind") == "correspondence"
