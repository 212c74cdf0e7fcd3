"""Players and ratings: a player's profile, a game's leaderboard."""

from __future__ import annotations

from django.utils.translation import gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from lobby.selectors import clubs

from ..errors import GameError
from ..rules import RULESETS
from ..selectors import players, ratings
from .common import answer
from .serializers import LeaderboardOut, PlayerOut, answers


class PlayerDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=answers({200: PlayerOut}))
    def get(self, request: Request, username: str) -> Response:
        profile = players.player_profile(username)
        return answer(PlayerOut, {**profile, "clubs": clubs.clubs_of_player(profile["username"])})


def leaderboard_speed(raw: str | None) -> str:
    """The ``speed`` parameter; absent: correspondence, the default clock's speed."""
    if raw is None or raw == "":
        return ratings.speed_of(None)
    if raw not in ratings.SPEEDS:
        raise GameError(
            "bad_request", gettext_noop('speed must be "realtime" or "correspondence".')
        )
    return raw


class Leaderboard(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "speed",
                OpenApiTypes.STR,
                enum=list(ratings.SPEEDS),
                description="default: correspondence (the default time control's speed)",
            )
        ],
        responses=answers({200: LeaderboardOut}),
    )
    def get(self, request: Request, ruleset: str) -> Response:
        if ruleset not in RULESETS:
            raise GameError(
                "not_found",
                gettext_noop("There is no game called %(slug)s."),
                slug=ruleset,
                status=404,
            )
        speed = leaderboard_speed(request.query_params.get("speed"))
        return answer(LeaderboardOut, {"items": ratings.leaderboard(ruleset, speed)})
