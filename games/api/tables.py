"""Tables before the game: the rulesets, the lobby's list, create, join,
leave, start, decline, quick play."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from lobby import services as lobby_services

from ..models import Game
from ..selectors import seats, tables
from .common import WriteThrottle, answer, valid
from .serializers import (
    BotInviteIn,
    CreateTableIn,
    JoinIn,
    QuickplayIn,
    RulesetOut,
    TableOut,
    answers,
)


def table_answer(game: Game, status: int = 200) -> Response:
    """A table (or live game) as the lobby lists it."""
    return answer(TableOut, tables.table_summary(seats.game_with_seats(game.pk)), status)


class RulesetList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=answers({200: RulesetOut(many=True)}))
    def get(self, request: Request) -> Response:
        return Response(RulesetOut(tables.ruleset_list(), many=True).data)


class TableList(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "tables"

    @extend_schema(responses=answers({200: TableOut(many=True)}))
    def get(self, request: Request) -> Response:
        return Response(TableOut(tables.lobby_tables(), many=True).data)

    @extend_schema(request=CreateTableIn, responses=answers({201: TableOut}))
    def post(self, request: Request) -> Response:
        data = valid(CreateTableIn, request)
        return table_answer(lobby_services.table_create(host=request.user, **data), 201)


class TableJoin(APIView):
    @extend_schema(request=JoinIn, responses=answers({200: TableOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(JoinIn, request)
        return table_answer(lobby_services.table_join(game_id=pk, user=request.user, **data))


class TableInviteBot(APIView):
    """The host seats a bot at an open seat (the first unless ``seat`` names one)."""

    @extend_schema(request=BotInviteIn, responses=answers({200: TableOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(BotInviteIn, request)
        game = lobby_services.table_invite_bot(game_id=pk, user=request.user, **data)
        return table_answer(game)


class TableLeave(APIView):
    @extend_schema(request=None, responses=answers({200: TableOut}))
    def post(self, request: Request, pk: int) -> Response:
        return table_answer(lobby_services.table_leave(game_id=pk, user=request.user))


class TableStart(APIView):
    @extend_schema(request=None, responses=answers({200: TableOut}))
    def post(self, request: Request, pk: int) -> Response:
        return table_answer(lobby_services.table_start(game_id=pk, user=request.user))


class TableDecline(APIView):
    @extend_schema(request=None, responses=answers({200: TableOut}))
    def post(self, request: Request, pk: int) -> Response:
        return table_answer(lobby_services.table_decline(game_id=pk, user=request.user))


class Quickplay(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "tables"

    @extend_schema(request=QuickplayIn, responses=answers({200: TableOut}))
    def post(self, request: Request) -> Response:
        data = valid(QuickplayIn, request)
        return table_answer(lobby_services.table_quickplay(user=request.user, **data))
