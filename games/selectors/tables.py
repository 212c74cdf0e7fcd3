"""Reads for the lobby: what it lists about a table or a live game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext

from ..models import Game, Seat
from ..rules import RULESETS, get_ruleset
from ..store import presence
from ..users import is_bot, shown_name
from .ratings import counts_as_rated
from .seats import one_screen_names


def watcher_count(game_id: int) -> int:
    """The people watching the game without a seat (two tabs count once)."""
    return presence.spectators(game_id)


def table_summary(game: Game) -> dict[str, Any]:
    """What the lobby lists about a table or a live game."""
    rs = get_ruleset(game.ruleset)
    seats = list(game.seats.all())
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "title": gettext(rs.title),
        "options": game.options,
        "status": game.status,
        "seat_count": game.seat_count,
        "seats": [s.user.username if s.user else None for s in seats],
        "taken": sum(1 for s in seats if s.user_id),
        "bots": [s.index for s in seats if is_bot(s.user)],
        "host": shown_name(game.host),
        "challenged": game.challenged.username if game.challenged else None,
        "quickplay": game.is_quickplay,
        "auto_start": game.auto_start,
        "clock": game.clock,
        "rated": counts_as_rated(game.rated, [s.user for s in seats if s.user_id]),
        "bots_welcome": game.rated is not True,  # chosen rated: no bot may sit
        "created": game.created.isoformat(),
        "started": game.started.isoformat() if game.started else None,
        "version": game.version,
        # At one screen: the players' names per seat (None: a bot's seat); else null.
        "one_screen": one_screen_names(game) if game.one_screen is not None else None,
    }


LOBBY_TABLES = 200


def lobby_tables() -> list[dict[str, Any]]:
    """The newest open tables and live games, up to ``LOBBY_TABLES``: one
    read per status on the index (status, -created), merged here (``status
    IN (...)`` ordered by date would sort every open and live game)."""
    with_seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    current = Game.objects.select_related("host", "challenged").prefetch_related(with_seats)
    newest = sorted(
        (
            row
            for status in (Game.Status.OPEN, Game.Status.ACTIVE)
            for row in Game.objects.filter(status=status, one_screen__isnull=True)
            .order_by("-created")
            .values_list("created", "pk")[:LOBBY_TABLES]
        ),
        reverse=True,
    )[:LOBBY_TABLES]
    games = current.filter(pk__in=[pk for _created, pk in newest]).order_by("-created", "-pk")
    return [table_summary(g) for g in games]


# The lobby socket's snapshot: every open table (up to this many, newest
# first) and the live games most watched; the rest are only counted.
SNAPSHOT_OPEN = 100
SNAPSHOT_LIVE = 20
# Ranked games read per snapshot: some of the most watched may be over.
RANKED_READ = 3 * SNAPSHOT_LIVE


def lobby_snapshot(known_live: Iterable[int] = ()) -> dict[str, Any]:
    """What a lobby page starts from, bounded however many games are stored:
    the most watched from presence's ranking (no count per game), topped up
    with the newest live games; ``live_ids`` says which of ``known_live``
    (the live games a process lists) and of those listed still run."""
    with_seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    current = Game.objects.select_related("host", "challenged").prefetch_related(with_seats)
    open_tables = list(current.filter(status=Game.Status.OPEN).order_by("-created")[:SNAPSHOT_OPEN])
    live = most_watched_live(current)
    known = {*known_live} - {g.pk for g in live}
    still = Game.objects.filter(pk__in=known, status=Game.Status.ACTIVE) if known else []
    return {
        "tables": [table_summary(g) for g in [*open_tables, *live]],
        "counts": lobby_counts(),
        "live_ids": [g.pk for g in live] + [g.pk for g in still],
    }


def most_watched_live(games: QuerySet[Game]) -> list[Game]:
    """Up to ``SNAPSHOT_LIVE`` running games, the most watched first, then the
    newest (one index read each)."""
    ranked = dict(presence.most_watched(RANKED_READ))
    running = games.filter(status=Game.Status.ACTIVE)
    live = sorted(running.filter(pk__in=ranked), key=lambda g: (-ranked[g.pk], -g.pk))
    live = live[:SNAPSHOT_LIVE]
    if len(live) < SNAPSHOT_LIVE:
        newest = running.exclude(pk__in=[g.pk for g in live]).order_by("-created", "-pk")
        live += list(newest[: SNAPSHOT_LIVE - len(live)])
    return live


# Counting stops here ("and 1000+ more"): a count that walked every running
# game's index entry, with every table change, grew with what is stored.
COUNT_CAP = 1000


def lobby_counts() -> dict[str, int]:
    """How many tables are open and games live, each up to ``COUNT_CAP`` (one
    bounded walk of the status index; ``*_capped``: more than that): sent with
    every table change, so that pages show them and processes need not send a
    new snapshot."""
    open_count, live = _count(Game.Status.OPEN), _count(Game.Status.ACTIVE)
    return {
        "open": open_count,
        "live": live,
        "open_capped": open_count >= COUNT_CAP,
        "live_capped": live >= COUNT_CAP,
    }


def _count(status: str) -> int:
    return Game.objects.filter(status=status).order_by()[:COUNT_CAP].count()


def ruleset_list() -> list[dict[str, Any]]:
    """The games one can play here, with the options a table can set."""
    return [
        {
            "slug": rs.slug,
            "title": gettext(rs.title),
            "min_seats": rs.min_seats,
            "max_seats": rs.max_seats,
            "options": rs.option_fields(),
        }
        for rs in RULESETS.values()
    ]
