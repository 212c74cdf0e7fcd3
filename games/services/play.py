"""Starting a game, a player's action, timeouts and long work."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from moderation.internal import playbans

from .. import clocks, hooks
from ..models import (
    Event,
    Game,
    MatchRecord,
    record_summary,
)
from ..reasons import REASON_FLAGGED
from ..rules import IllegalAction, Ruleset, get_ruleset
from ..rules.base import LongWork, implements
from ..selectors.listed_players import players_read
from ..selectors.walk import opening
from .internal import away, followers, replay_checkpoints, seat_offers
from .internal.deciding import decide_act
from .internal.events import append_event, store_event
from .internal.guards import conflicts_are_stale, game_act_input_check, locked_game
from .internal.leaving import leave_or_end

if TYPE_CHECKING:
    from ..users import Visitor


def game_start(*, game: Game) -> Event:
    """Deal the game: set up its state as version 1. Caller holds the row lock."""
    rs = get_ruleset(game.ruleset)
    state = opening(rs, game)
    now = timezone.now()
    game.status = Game.Status.ACTIVE
    game.started = now
    game.to_act = rs.to_act(state)
    clocks.start_clocks(game, now)
    game.away = away.seats_away(game, now)
    game.listed_players = players_read([game.pk]).get(game.pk)  # written with the start event
    followers.followers_told(game)
    event = append_event(
        game, rs, state, seat=None, kind=Event.Kind.START, events=[{"type": "start"}], now=now
    )
    hooks.games_started.send(sender=Game, game_ids=[game.pk])
    return event


@conflicts_are_stale
def game_act(*, game_id: int, user: Visitor, version: int, action: dict[str, Any]) -> int:
    """Apply one player's action; returns the new version.

    Clients' input is parsed before (the API's ActIn, the socket's
    ``socket_input``); the checks here guard the database against any caller.
    The mover's sanctions are read with the lock and refused in the decision."""
    game_act_input_check(version=version, action=action)
    with transaction.atomic():
        locked = locked_game(game_id, user)
        change = decide_act(locked, user, version, action, timezone.now())
        return store_event(change).version


@conflicts_are_stale
def game_timeout(*, game_id: int, now: datetime | None = None) -> int | None:
    """Apply a due deadline (called by the sweeper). Returns the new version,
    or None when another process got there first or nothing is due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.Status.ACTIVE, deadline__lte=now)
            .first()
        )
        if game is None or game.paused:
            return None
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.started_state)
        if game.timer == "work":
            return _do_work(game, rs, state, now).version
        if game.timer == "vacation":
            return away.vacations_over(game, rs, state, now).version
        seat = clocks.timed_out_seat(game)
        if seat is None:
            return None
        action = rs.timeout_action(state, seat)
        if action is not None:
            try:
                new_state, events = rs.apply(state, seat, action)
            except IllegalAction:
                action = None
            else:
                events = [{"type": "timeout", "seat": seat, "timer": game.timer}, *events]
                seat_offers.open_offer(game, seat)
                return append_event(
                    game,
                    rs,
                    new_state,
                    seat=seat,
                    kind=Event.Kind.TIMEOUT,
                    action=action,
                    events=events,
                    now=now,
                ).version
        playbans.record_offence(game, seat, "flag", now)
        handed = seat_offers.no_show_to_bot(game, rs, seat, now)
        if handed is not None:
            return handed.version
        return leave_or_end(
            game, rs, seat, reason=REASON_FLAGGED, event_type="flagged", now=now
        ).version


def _do_work(game: Game, rs: Ruleset, state: object, now: datetime) -> Event:
    """Long work (a Hexenhalma round) in the sweeper, never in a socket request;
    its records (match traces) are kept outside the state, and so is the
    state after it, so that replays never redo the work."""
    assert implements(rs, LongWork)  # the sweeper calls this once the work is due
    state, events, records = rs.do_work(state)
    event = append_event(game, rs, state, seat=None, kind=Event.Kind.WORK, events=events, now=now)
    MatchRecord.objects.bulk_create(
        [
            MatchRecord(
                game=game, version=event.version, index=i, data=r, summary=record_summary(r)
            )
            for i, r in enumerate(records)
        ]
    )
    replay_checkpoints.keep_work_state(game, event.version)
    return event
