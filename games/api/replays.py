"""A game after the fact: replays, records of long work, export and import."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from ..errors import GameError
from ..selectors import imports, records, replays
from ..selectors.games import game_or_404
from ..services import import_jobs
from ..store.replay_requests import request_pending
from .common import CostlyRead, WriteThrottle, account, answer, flag, whole_number
from .serializers import (
    ExportOut,
    ImportJobOut,
    RecordOut,
    RecordPageOut,
    ReplayOut,
    answers,
)


def eye(request: Request) -> int | None:
    """The seat whose eyes a replay shows (None: a spectator's)."""
    raw = request.query_params.get("seat", "")
    try:
        return int(raw) if raw not in ("", "spectator") else None
    except ValueError:
        raise GameError("bad_request", gettext_noop("seat must be a whole number.")) from None


class GameReplay(CostlyRead):
    """A page of versions as one seat (or a spectator) saw them."""

    @extend_schema(
        parameters=[
            OpenApiParameter("seat", int, description="whose eyes; empty: a spectator's"),
            OpenApiParameter("from", int, description="first version of the page (default 1)"),
            OpenApiParameter(
                "limit", int, description="versions per page (at most 50, or 500 without views)"
            ),
            OpenApiParameter("views", bool, description="0: events only, no views (cheap)"),
        ],
        responses=answers({200: ReplayOut}),
    )
    def get(self, request: Request, pk: int) -> Response:
        game = game_or_404(pk)
        seat = eye(request)
        views = flag(request, "views", True)
        if views:
            default, most = replays.FRAMES_DEFAULT, replays.FRAMES_MAX
        else:
            default, most = replays.EVENTS_DEFAULT, replays.EVENTS_MAX
        first = whole_number(request, "from", 1, 1, 2**31)
        limit = whole_number(request, "limit", default, 1, most)
        try:
            page = replays.replay(game, seat=seat, first=first, limit=limit, views=views)
        except replays.ReplayPending as pending:
            request_pending(pending.build)  # the worker prepares it; the page asks again
            raise
        end, more = page.pop("end"), page.pop("more")
        url = request.build_absolute_uri()
        page["next"] = replace_query_param(url, "from", end + 1) if more else None
        return answer(ReplayOut, page)


class GameExport(CostlyRead):
    @extend_schema(responses=answers({200: ExportOut}))
    def get(self, request: Request, pk: int) -> Response:
        response = answer(ExportOut, replays.export_game(game_or_404(pk)))
        response["Content-Disposition"] = f'attachment; filename="game-{pk}.json"'
        return response


class GameImport(APIView):
    """Queues an export; the sweeper's import worker replays it (a long game
    costs seconds of CPU, which no request may hold a connection for)."""

    max_body_setting = "API_IMPORT_MAX_BYTES"  # exports are larger than moves (parsers.py)
    throttle_classes = [WriteThrottle]
    throttle_scope = "imports"

    # The body is an export (ExportOut); its header is checked now, its log by the worker.
    @extend_schema(request=ExportOut, responses=answers({202: ImportJobOut}))
    def post(self, request: Request) -> Response:
        job = import_jobs.import_enqueue(user=request.user, data=request.data)
        response = answer(ImportJobOut, imports.import_answer(job), 202)
        response["Location"] = reverse("api-game-import-job", args=[job.pk])
        return response


class GameImportJob(APIView):
    """An import as its owner follows it (pending, then done or failed)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=answers({200: ImportJobOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(ImportJobOut, imports.import_job(user=account(request), job_id=pk))


class RecordPages(PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 200  # a Hexenhalma round of 20 teams has 190 matches


class FullRecordPages(RecordPages):
    page_size = 5  # each with its trace: tens of kB
    max_page_size = 10


class GameRecords(CostlyRead):
    """Results of long work kept outside the state (Hexenhalma match traces).

    They exist only once a round is resolved, so they reveal no secret orders."""

    @extend_schema(
        parameters=[
            OpenApiParameter("full", bool, description="include each record's data (traces)"),
            OpenApiParameter("round", int, description="only this round's records"),
            OpenApiParameter("version", int, description="only the records of this version"),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int, description="at most 200 (10 with full)"),
        ],
        responses=answers({200: RecordPageOut}),
    )
    def get(self, request: Request, pk: int) -> Response:
        game = game_or_404(pk)
        full = flag(request, "full", False)
        params = request.query_params
        rows = records.record_rows(
            game,
            full=full,
            round_=whole_number(request, "round", 0, 0, 2**31) if "round" in params else None,
            version=whole_number(request, "version", 0, 0, 2**31) if "version" in params else None,
        )
        pages = FullRecordPages() if full else RecordPages()
        page = pages.paginate_queryset(rows, request, self)
        found = RecordOut([records.flat(r) for r in page or []], many=True).data
        return pages.get_paginated_response(found)


class GameRecord(CostlyRead):
    @extend_schema(operation_id="games_record_retrieve", responses=answers({200: RecordOut}))
    def get(self, request: Request, pk: int, version: int, index: int) -> Response:
        return answer(RecordOut, records.record(game_id=pk, version=version, index=index))
