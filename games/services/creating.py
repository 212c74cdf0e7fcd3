"""Where every game row is made (lila's ``Game.make`` → insert → ``onStart``).

Each source (a lobby table, playing the computer, a staff bot match, a
rematch, a tournament round, an import, a game continued from another's
position against the computer) says what its game is: who holds
each seat, which seats a bot plays, options, clock, rated, host, what links
it to its source, whether it starts once full. ``game_create`` writes one in
the caller's transaction and starts it when asked and every seat is held;
``game_create_many`` writes a tournament round's games started, in bulk.

One change, one lobby frame: a game that starts is told by its start event
(``events.change_publish``), one that waits for players by ``game_create``;
the caller publishes nothing more. A round's games are told to the lobby
once, by the tournament (``tell_lobby``), not game by game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.services.internal import bot_accounts

from .. import clocks, hooks, publish
from ..errors import GameError
from ..models import Event, Game, Seat
from ..rules import get_ruleset
from ..rules.base import Outcome
from ..selectors.seats import game_with_seats
from ..store import rows
from .internal import away, followers
from .internal.events import next_event
from .play import game_start

NO_CLOCK: dict[str, Any] = {"kind": "none"}


def _row(
    ruleset: str,
    seat_count: int,
    *,
    options: dict[str, Any] | None,
    clock: dict[str, Any] | None,
    rated: bool | None,
    host: int | None = None,
    challenged: int | None = None,
    quickplay: bool = False,
    auto_start: bool = False,
    bots: Mapping[int, str] | None = None,
    opening: dict[str, Any] | None = None,
    one_screen: Sequence[str | None] | None = None,
) -> Game:
    """The new game's row, unsaved: the one place a game is made."""
    played = {str(seat): level for seat, level in sorted((bots or {}).items())}
    return Game(
        one_screen={"names": list(one_screen)} if one_screen is not None else None,
        ruleset=ruleset,
        options=dict(options or {}),
        seat_count=seat_count,
        clock=dict(clock or NO_CLOCK),
        rated=rated,
        host_id=host,
        challenged_id=challenged,
        is_quickplay=quickplay,
        auto_start=auto_start,
        bots=played,
        has_bots=bool(played),
        opening=opening,
    )


def _seated(
    ruleset: str, holders: Sequence[int | None], bots: Mapping[int, str]
) -> list[int | None]:
    """Each seat's holder, a bot's seat held by that bot's account; an
    account holds one seat at a table (a bot too: a level's bot once)."""
    if not holders or any(not 0 <= seat < len(holders) for seat in bots):
        raise GameError("bad_request", gettext_noop("Choose one of the table's seats."))
    seated = [
        bot_accounts.bot_user(ruleset, bots[seat]).pk if seat in bots else holder
        for seat, holder in enumerate(holders)
    ]
    taken = [uid for uid in seated if uid is not None]
    if len(set(taken)) != len(taken):
        raise GameError(
            "bot_seated",
            gettext_noop("This bot already sits at this table; choose another level."),
        )
    return seated


def game_create(
    *,
    ruleset: str,
    holders: Sequence[int | None],
    bots: Mapping[int, str] | None = None,
    options: dict[str, Any] | None = None,
    clock: dict[str, Any] | None = None,
    rated: bool | None = None,
    host: int | None = None,
    challenged: int | None = None,
    quickplay: bool = False,
    auto_start: bool = False,
    link: Callable[[Game], object] | None = None,
    opening: dict[str, Any] | None = None,
    one_screen: Sequence[str | None] | None = None,
) -> Game:
    """A new game in the caller's transaction (checked input: the callers
    clean options, clock and seats). ``holders``: a user id or None (a free
    seat) per seat; ``bots``: seat → level, those seats held by that level's
    bot. ``link`` ties the game to its source (a club match's row) once
    it has its id, before it starts. ``auto_start``: it starts as soon as
    every seat is held, now if they are. One lobby frame either way.
    ``opening``: the position another game is continued from
    (``Game.opening``, services/continuing.py); its version 1 is that.
    ``one_screen``: a table at one screen, the players' names per seat (None
    at a bot's); the host holds its first named seat, the others stay free
    (the host acts for them: ``guards.require_seat``), and it starts now."""
    bots = dict(bots or {})
    seated = _seated(ruleset, holders, bots)
    with transaction.atomic(savepoint=False):
        game = _row(
            ruleset,
            len(seated),
            options=options,
            clock=clock,
            rated=rated,
            host=host,
            challenged=challenged,
            quickplay=quickplay,
            auto_start=auto_start,
            bots=bots,
            opening=opening,
            one_screen=one_screen,
        )
        game.save(force_insert=True)
        now = timezone.now()
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user_id=uid, joined=now if uid else None)
            for i, uid in enumerate(seated)
        )
        if link is not None:
            link(game)
        if auto_start and (None not in seated or one_screen is not None):
            game_start(game=game)  # its start event tells the lobby
        else:
            publish.after_commit(partial(_publish_table, game.pk))
    return game


def _publish_table(game_id: int) -> None:
    publish.publish_table(game_with_seats(game_id))


def game_create_imported(
    *,
    ruleset: str,
    options: dict[str, Any],
    seat_count: int,
    seed: int,
    host: int,
    state: dict[str, Any],
    version: int,
    result: Outcome,
) -> Game:
    """A game rebuilt from an export, stored finished with free seats (the
    caller writes its events): nobody plays it and no page lists it."""
    with transaction.atomic(savepoint=False):
        game = _row(ruleset, seat_count, options=options, clock=NO_CLOCK, rated=None, host=host)
        now = timezone.now()
        game.seed, game.state, game.version, game.result = seed, state, version, result
        game.status, game.started, game.ended, game.imported = Game.Status.FINISHED, now, now, True
        game.save(force_insert=True)
        Seat.objects.bulk_create(
            Seat(game=game, index=i, game_ended=True) for i in range(seat_count)
        )
    return game


# --- a tournament round: many games started at once ------------------------------


def game_create_many(
    *,
    ruleset: str,
    options: dict[str, Any],
    clock: dict[str, Any],
    rated: bool | None,
    seatings: list[list[int]],
    link: Callable[[list[Game]], object] | None = None,
) -> list[Game]:
    """One started game per entry of ``seatings`` (user ids in seat order),
    in the caller's transaction; returned in the same order. ``link`` ties
    them to their source (a round's pairings) once they have ids (called
    with none for a round of byes).

    The rows ``game_create`` and ``game_start`` write one game at a time
    (seats, the first event, clocks, vacations, followers' notices), written
    in bulk: a fixed number of statements per batch, where one by one a
    500-game round cost about 45 ms a game in statements and publishing. A
    start tells nobody it is their turn (``game_start`` sets who is to act
    before its event, so the event begins no new turn for the notices).
    tests/lobby/test_round_bulk.py compares the rows with ``game_create``'s.
    """
    if not seatings:
        if link is not None:
            link([])  # a round of byes only still links its pairings
        return []
    with transaction.atomic(savepoint=False):
        now = timezone.now()
        games = [
            _row(ruleset, len(p), options=options, clock=clock, rated=rated, auto_start=True)
            for p in seatings
        ]
        events = _dealt(games, seatings, now)
        listed = _listed(seatings)
        for game, users in zip(games, seatings, strict=True):
            game.listed_players = [listed[uid] for uid in users]
        games = Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            Seat(game=game, index=i, user_id=uid, joined=now)
            for game, users in zip(games, seatings, strict=True)
            for i, uid in enumerate(users)
        )
        if link is not None:
            link(games)
        rows.save_events_many(events)
        if clock.get("kind") == "realtime":  # followers hear of live games only
            names = {uid: entry[1] for uid, entry in listed.items()}
            followers.followers_told_many(
                [
                    (g, {u: names[u] for u in users})
                    for g, users in zip(games, seatings, strict=True)
                ]
            )
        hooks.games_started.send(sender=Game, game_ids=[g.pk for g in games])
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


def _listed(seatings: list[list[int]]) -> dict[int, list[Any]]:
    """Each player as ``Game.listed_players`` keeps them: [id, username, is bot]."""
    everyone = {uid for users in seatings for uid in users}
    found = get_user_model().objects.filter(pk__in=everyone)
    return {pk: [pk, name, bot] for pk, name, bot in found.values_list("pk", "username", "is_bot")}


def _tell_players(game_ids: list[int]) -> None:
    """After the commit: each player's event streams hear their game started,
    the games read in one query (with their seats: one more)."""
    with_seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    found = Game.objects.filter(pk__in=game_ids).select_related("host", "challenged")
    publish.publish_started_to_accounts(found.prefetch_related(with_seats))
