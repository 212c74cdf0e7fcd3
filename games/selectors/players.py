"""Reads about one player: the games they sit in, their profile."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.utils.translation import gettext, gettext_noop

from ..errors import GameError
from ..models import Game, RatingChange, Seat
from ..rules import RULESETS
from ..users import is_bot, is_guest
from .ratings import counts_as_rated, outcome_for, ratings_of, speed_of

RECENT_GAMES = 20


def games_of(user: Any, limit: int = 200) -> list[Game]:
    """The newest games ``user`` holds a seat in, aborted ones left out."""
    return list(
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.ABORTED)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created")[:limit]
    )


def player_by_name(username: Any) -> Any:
    """The account named ``username``, else a 404 with a clear message."""
    user = get_user_model().objects.filter(username=str(username)[:150], is_active=True).first()
    if user is None:
        raise GameError(
            "not_found",
            gettext_noop("There is no player named %(name)s."),
            name=username,
            status=404,
        )
    return user


def recent_games(user: Any, limit: int = RECENT_GAMES) -> list[dict[str, Any]]:
    """The player's newest finished games, with their result and rating change."""
    games = list(
        Game.objects.filter(seats__user=user, status=Game.Status.FINISHED)
        .prefetch_related("seats__user")
        .order_by("-ended", "-pk")[:limit]
    )
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
                "players": [s.user.username if s.user_id else None for s in seats],
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
