"""A seat's conditional moves (GET: the owner's lines only, PUT, DELETE) and its forced turns."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..services import conditional, forced
from .common import WriteThrottle, answer, valid
from .serializers import answers


class ConditionalIn(serializers.Serializer):
    lines = serializers.JSONField(
        help_text="at most 20 lines of at most 10 actions: the opponent's, my reply, ..."
    )


class ConditionalOut(serializers.Serializer):
    lines = serializers.JSONField(help_text="the caller's own lines; none for anyone else")


class GameConditional(APIView):
    """Conditional moves (services/conditional.py): visible to their owner only."""

    permission_classes = [permissions.AllowAny]  # GET: no lines without a seat
    throttle_classes = [WriteThrottle]
    throttle_scope = "writes"

    @extend_schema(responses=answers({200: ConditionalOut}))
    def get(self, request: Request, pk: int) -> Response:
        lines = conditional.conditional_lines(game_id=pk, user=request.user)
        return answer(ConditionalOut, {"lines": lines})

    @extend_schema(request=ConditionalIn, responses=answers({200: ConditionalOut}))
    def put(self, request: Request, pk: int) -> Response:
        lines = valid(ConditionalIn, request)["lines"]
        saved = conditional.conditional_save(game_id=pk, user=request.user, lines=lines)
        return answer(ConditionalOut, {"lines": saved})

    @extend_schema(request=None, responses=answers({200: ConditionalOut}))
    def delete(self, request: Request, pk: int) -> Response:
        conditional.conditional_clear(game_id=pk, user=request.user)
        return answer(ConditionalOut, {"lines": []})


class PreviewIn(serializers.Serializer):
    line = serializers.JSONField(help_text="the line planned so far")


class PreviewOut(serializers.Serializer):
    view = serializers.JSONField()
    legal = serializers.JSONField()
    to_act = serializers.JSONField()


class GameConditionalPreview(APIView):
    """The position a line being planned leads to (the planner's board)."""

    throttle_classes = [WriteThrottle]
    throttle_scope = "acts"

    @extend_schema(request=PreviewIn, responses=answers({200: PreviewOut}))
    def post(self, request: Request, pk: int) -> Response:
        line = valid(PreviewIn, request)["line"]
        preview = conditional.conditional_preview(game_id=pk, user=request.user, line=line)
        return answer(PreviewOut, preview)


class ForcedIn(serializers.Serializer):
    on = serializers.BooleanField(help_text="let the site play my forced turns in this game")


class ForcedOut(serializers.Serializer):
    on = serializers.BooleanField()


class GameForcedTurns(APIView):
    """Forced turns (services/forced.py): GET whether mine are played for me, POST to choose."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [WriteThrottle]
    throttle_scope = "writes"

    @extend_schema(responses=answers({200: ForcedOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(ForcedOut, {"on": forced.game_forced_turns_on(game_id=pk, user=request.user)})

    @extend_schema(request=ForcedIn, responses=answers({200: ForcedOut}))
    def post(self, request: Request, pk: int) -> Response:
        on = valid(ForcedIn, request)["on"]
        return answer(
            ForcedOut, {"on": forced.game_forced_turns(game_id=pk, user=request.user, on=on)}
        )
