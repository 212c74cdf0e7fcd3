"""``/api/games/<id>/analysis/``: ask for a finished game's analysis, follow it."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..selectors.analysis import analysis_answer
from ..selectors.games import game_or_404
from ..services import analysis, continuing
from .common import CostlyRead, ReadThrottle, WriteThrottle, account, answer, valid
from .serializers import TableOut, answers
from .tables import table_answer

JUDGEMENTS = ["inaccuracy", "mistake", "blunder"]


class PlyOut(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField(help_text="as played")
    eval = serializers.ListField(
        child=serializers.FloatField(), help_text="each seat's win chance after the ply"
    )
    best = serializers.JSONField(allow_null=True, help_text="the analyser's action; null: a roll")
    loss = serializers.FloatField(help_text="the mover's win chance given away against best")
    judgement = serializers.ChoiceField(choices=JUDGEMENTS, allow_null=True)
    luck = serializers.FloatField(allow_null=True, help_text="dice games: the roll's effect")


class PlayerSummaryOut(serializers.Serializer):
    seat = serializers.IntegerField()
    accuracy = serializers.FloatField(help_text="0..100")
    inaccuracies = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()
    luck = serializers.FloatField(allow_null=True, help_text="dice games: luck over the rolls")


class AnalysisOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=["none", "queued", "running", "done", "failed"])
    progress = serializers.FloatField(help_text="0..1")
    done = serializers.IntegerField(help_text="plies analysed")
    total = serializers.IntegerField(help_text="plies to analyse (0: not counted yet)")
    plies = PlyOut(many=True)
    summary = serializers.DictField(child=PlayerSummaryOut(), help_text="per player's username")


class GameAnalysis(CostlyRead):
    """A finished game's analysis by the computer (ARCHITECTURE.md, "Analysis").
    Asking (POST) is bounded by ``ANALYSIS_PER_DAY``; both count as costly
    reads, and an ask counts once more as the write it is."""

    throttle_classes = [ReadThrottle, WriteThrottle]

    @extend_schema(responses=answers({200: AnalysisOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(AnalysisOut, analysis_answer(game_or_404(pk)))

    @extend_schema(request=None, responses=answers({200: AnalysisOut, 202: AnalysisOut}))
    def post(self, request: Request, pk: int) -> Response:
        found, waiting = analysis.analysis_request(user=request.user, game_id=pk)
        return answer(AnalysisOut, found, 202 if waiting else 200)


class ContinueIn(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    seat = serializers.IntegerField(required=False, min_value=0, max_value=64)
    level = serializers.ChoiceField(choices=list(continuing.LEVELS), required=False)


class GameContinue(APIView):
    """Continue from here against the computer: a casual game from the
    position after ``version`` of a finished game (services/continuing.py)."""

    throttle_classes = [WriteThrottle]
    throttle_scope = "tables"  # a new game, like a table's

    @extend_schema(request=ContinueIn, responses=answers({201: TableOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ContinueIn, request)
        game = continuing.game_continue(user=account(request), game_id=pk, **data)
        return table_answer(game, 201)
