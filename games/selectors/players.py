"""Reads about one player: the games they sit in, their profile."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import prefetch_related_objects
from django.utils.translation import gettext, gettext_noop

from ..errors import GameError
from ..models import Game, RatingChange, Seat
from ..rules import RULESETS
from ..users import is_bot, is_guest
from .listed_players import players_attach
from .ratings import counts_as_rated, outcome_for, ratings_of, speed_of

RECENT_GAMES = 20


MY_GAMES_PAGE = 50


def games_of(user: Any, limit: int = MY_GAMES_PAGE, before: int | None = None) -> list[Game]:
    """The newest games ``user`` holds a seat in (those older than game
    ``before``, to page back), aborted ones left out: walked newest first
    on the index ``seat_user_newest_ended``, so a page costs the same however many
    games the user has. Each game's players come as ``listed``
    (``listed_players.players_attach``): from the game row once it started."""
    games = _newest_games(user, limit, before)
    players_attach(games)
    return games


def _newest_games(
    user: Any, limit: int, before: int | None, status: str | None = None, *, family: bool = True
) -> list[Game]:
    """The user's newest games (of ``status``, or any but aborted), newest
    first: seat ids in slices from the index, each slice's games read by
    primary key, whole rows at once (each key is one descent: the page's
    games are read once, not checked and then read). A join would let the
    planner walk every game stored, newest first, to reach an old player's few."""
    found: list[Game] = []
    seats = Seat.objects.filter(user=user).order_by("-game_id").values_list("game_id", flat=True)
    games = (
        Game.objects.filter(status=status)
        if status
        else Game.objects.exclude(status=Game.Status.ABORTED)
    )
    if not family:  # games at one screen: the holder's own list only
        games = games.filter(one_screen__isnull=True)
    for _ in range(SLICES):
        ids = list((seats.filter(game_id__lt=before) if before else seats)[: 2 * limit])
        if not ids:
            break
        # Newest first, stopping when the page is full: the slice's surplus is never read.
        found += list(games.filter(pk__in=ids).order_by("-pk")[: limit - len(found)])
        if len(found) >= limit or len(ids) < 2 * limit:
            break
        before = ids[-1]
    return found[:limit]


# Slices of seats read at most for one page: a player whose newest games are
# nearly all of another status gets a shorter page, not an unbounded read.
SLICES = 10


def player_by_name(username: Any) -> Any:
    """The account named ``username``, else a 404 with a clear message. A
    closed account is found too: its games stay, its page says it is closed."""
    user = get_user_model().objects.filter(username=str(username)[:150]).first()
    if user is None:
        raise GameError(
            "not_found",
            gettext_noop("There is no player named %(name)s."),
            name=username,
            status=404,
        )
    return user


def recent_games(user: Any, limit: int = RECENT_GAMES) -> list[dict[str, Any]]:
    """The player's newest finished games (newest started first, from the
    seat index), with their result and rating change."""
    games = _newest_games(user, limit, None, Game.Status.FINISHED, family=False)
    prefetch_related_objects(games, "seats__user")
    changes = {
        game_id: after - before
        for game_id, before, after in RatingChange.objects.filter(
            user=user, game__in=games
        ).values_list("game_id", "before", "after")
    }
    out = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(s.index for s in seats if s.user_id == user.pk)
        rs = RULESETS.get(game.ruleset)
        out.append(
            {
                "id": game.pk,
                "ruleset": game.ruleset,
                "title": gettext(rs.title) if rs else game.ruleset,
                "speed": speed_of(game.clock),
                "rated": game.pk in changes
                or counts_as_rated(game.rated, [s.user for s in seats if s.user_id]),
                "ended": game.ended,
                "players": [s.user.username if s.user else None for s in seats],
                "result": outcome_for(game, mine),
                "rating_change": changes.get(game.pk),
                "replay": f"/g/{game.pk}/replay/",
            }
        )
    return out


def player_profile(username: Any) -> dict[str, Any]:
    """``GET /api/players/<username>/``: the shape fixed in ARCHITECTURE.md."""
    user = player_by_name(username)
    return {
        "username": user.username,
        "bot": is_bot(user),
        "guest": is_guest(user),
        "ratings": ratings_of(user),
        "recent_games": recent_games(user),
    }
