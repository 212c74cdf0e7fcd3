"""Many games created and started at once (a tournament's round): the rows
``Game.objects.create`` and ``play.game_start`` write one game at a time
(seats, the first event, clocks, vacations, followers' notices), written
in bulk. (A start tells nobody it is their turn: ``game_start`` sets who is
to act before its event, so the event begins no new turn for the notices.)

One by one, a 500-game round cost about 45 ms a game in statements and
publishing; here it is a fixed number of statements per batch, and the
lobby hears of the round once (the caller's publish), not of each game.
tests/lobby/test_round_bulk.py compares the rows with the one-by-one path's.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from .. import clocks, publish
from ..models import Event, Game, Seat
from ..rules import get_ruleset
from ..store import rows
from . import away, followers
from .events import next_event


def game_start_many(
    *,
    ruleset: str,
    options: dict[str, Any],
    clock: dict[str, Any],
    rated: bool | None,
    seatings: list[list[int]],
) -> list[Game]:
    """One started game per entry of ``seatings`` (user ids in seat order),
    in the caller's transaction; returned in the same order."""
    if not seatings:
        return []
    with transaction.atomic(savepoint=False):
        now = timezone.now()
        games = [
            Game(ruleset=ruleset, options=options, seat_count=len(p), clock=clock, rated=rated)
            for p in seatings
        ]
        events = _dealt(games, seatings, now)
        games = Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user_id=uid, joined=now)
            for game, users in zip(games, seatings, strict=True)
            for i, uid in enumerate(users)
        )
        rows.save_events_many(events)
        if clock.get("kind") == "realtime":  # followers hear of live games only
            names = _usernames(seatings)
            followers.followers_told_many(
                [
                    (g, {u: names[u] for u in users})
                    for g, users in zip(games, seatings, strict=True)
                ]
            )
        publish.after_commit(partial(_tell_players, [g.pk for g in games]))
    return games


def _dealt(games: list[Game], seatings: list[list[int]], now: datetime) -> list[Event]:
    """Each game set up and started in memory, as ``game_start`` does it; its
    first (unsaved) event."""
    rs = get_ruleset(games[0].ruleset)
    vacations = away.seats_away_many(list(zip(games, seatings, strict=True)), now)
    events = []
    for game, gone in zip(games, vacations, strict=True):
        state = rs.setup(game.options, game.seat_count, game.seed)
        game.status = Game.Status.ACTIVE
        game.started = now
        game.to_act = rs.to_act(state)
        clocks.start_clocks(game, now)
        game.away = gone
        events.append(
            next_event(
                game,
                rs,
                state,
                seat=None,
                kind=Event.Kind.START,
                events=[{"type": "start"}],
                now=now,
            )
        )
        game.mark_due()
    return events


def _usernames(seatings: list[list[int]]) -> dict[int, str]:
    everyone = {uid for users in seatings for uid in users}
    return dict(get_user_model().objects.filter(pk__in=everyone).values_list("pk", "username"))


def _tell_players(game_ids: list[int]) -> None:
    """After the commit: each player's event streams hear their game started,
    the games read in one query (with their seats: one more)."""
    with_seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    found = Game.objects.filter(pk__in=game_ids).select_related("host", "challenged")
    publish.publish_started_to_accounts(found.prefetch_related(with_seats))
