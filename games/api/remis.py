"""Remis requests: a player files one, sees which repetition claims stand;
admins see the queue, one request, and decide."""

from __future__ import annotations

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import GameError
from ..selectors import remis as remis_reads
from ..services import remis
from .common import CostlyRead, IsStaff, answer, valid
from .serializers import (
    CandidatesOut,
    DecideIn,
    RemisDetailOut,
    RemisIn,
    RemisQueueOut,
    RemisRequestOut,
    answers,
)


class GameRemis(APIView):
    @extend_schema(request=RemisIn, responses=answers({201: RemisRequestOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(RemisIn, request)
        filed = remis.remis_request(game_id=pk, user=request.user, **data)
        return answer(RemisRequestOut, remis_reads.request_summary(filed), 201)


class GameRemisCandidates(CostlyRead):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=answers({200: CandidatesOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(CandidatesOut, {"candidates": remis_reads.candidates_for(pk, request.user)})


class RemisQueue(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int, description="the page number to show back"),
            OpenApiParameter("after", int, description="the previous page's next"),
            OpenApiParameter("older_than_hours", float, description="only requests waiting longer"),
        ],
        responses=answers({200: RemisQueueOut}),
    )
    def get(self, request: Request) -> Response:
        try:
            page = int(request.query_params.get("page", "1"))
            older = float(request.query_params.get("older_than_hours", "0") or 0)
            after = int(request.query_params["after"]) if "after" in request.query_params else None
        except ValueError:
            raise GameError(
                "bad_request", gettext_noop("page, after and older_than_hours must be numbers.")
            ) from None
        return answer(
            RemisQueueOut,
            remis_reads.queue_page(page=page, older_than_hours=older, after=after),
        )


class RemisDetail(APIView):
    permission_classes = [IsStaff]

    @extend_schema(operation_id="remis_detail_retrieve", responses=answers({200: RemisDetailOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(RemisDetailOut, remis_reads.request_detail(pk))


class RemisDecide(APIView):
    permission_classes = [IsStaff]

    @extend_schema(request=DecideIn, responses=answers({200: RemisRequestOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(DecideIn, request)
        decided = remis.remis_decide(request_id=pk, admin=request.user, **data)
        return answer(RemisRequestOut, remis_reads.request_summary(decided))
