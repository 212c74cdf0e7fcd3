"""REST API: thin views over the same services and selectors as the sockets."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from lobby import services as lobby_services

from .. import ratelimit
from ..errors import GameError, no_such_game
from ..models import Game, MatchRecord, RemisRequest
from ..rules import RULESETS, get_ruleset
from ..selectors import frames as game_frames
from ..selectors import notifications as notification_reads
from ..selectors import remis as remis_reads
from ..selectors import replays, seats, tables
from ..services import chat, endings, game_import, notifications, play, remis


class WriteThrottle(ScopedRateThrottle):
    """Per-user limits on writes only (reads stay free), by the view's scope.

    Counted with ratelimit.hit() in the shared cache: DRF's own history is a
    read-modify-write that racing requests overwrite, so two processes (or
    threads) let through up to twice the rate.
    """

    def allow_request(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.num_requests, self.duration = self.parse_rate(self.get_rate())
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.retry_after = ratelimit.hit(key, self.num_requests, self.duration)
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after


class CostlyRead(APIView):
    """A read that costs the server (replays, records, remis candidates):
    limited per user, else per address (DRF's ``get_ident``; behind a proxy
    set ``TRUSTED_PROXY_COUNT`` so that the address is the client's)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "reads"


def _whole_number(request: Request, name: str, default: int, low: int, high: int) -> int:
    """A query parameter as a whole number, clamped to [low, high]."""
    raw = request.query_params.get(name, "")
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GameError(
            "bad_request", gettext_noop("%(name)s must be a whole number."), name=name
        ) from None
    return min(max(value, low), high)


class CreateTableIn(serializers.Serializer):
    ruleset = serializers.ChoiceField(choices=sorted(RULESETS))
    options = serializers.DictField(required=False, default=dict)
    seat_count = serializers.IntegerField(required=False, min_value=1, max_value=64)
    host_seat = serializers.JSONField(required=False, default=0)
    challenge = serializers.CharField(required=False, allow_blank=True, max_length=150)
    clock = serializers.JSONField(required=False)
    auto_start = serializers.BooleanField(required=False, default=True)


class QuickplayIn(serializers.Serializer):
    ruleset = serializers.ChoiceField(choices=sorted(RULESETS))
    options = serializers.DictField(required=False, default=dict)
    seat_count = serializers.IntegerField(required=False, min_value=1, max_value=64)
    clock = serializers.JSONField(required=False)


class JoinIn(serializers.Serializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=64)


class ActIn(serializers.Serializer):
    version = serializers.IntegerField(min_value=0)
    action = serializers.DictField()


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    title = serializers.CharField()
    options = serializers.DictField()
    status = serializers.CharField()
    seat_count = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField(allow_null=True))
    taken = serializers.IntegerField()
    host = serializers.CharField()
    challenged = serializers.CharField(allow_null=True)
    quickplay = serializers.BooleanField()
    created = serializers.DateTimeField()
    started = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()


class AckOut(serializers.Serializer):
    version = serializers.IntegerField()


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _table(game: Game) -> Response:
    return Response(tables.table_summary(seats.game_with_seats(game.pk)))


class RulesetList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "slug": rs.slug,
                    "title": gettext(rs.title),
                    "min_seats": rs.min_seats,
                    "max_seats": rs.max_seats,
                    "options": rs.option_fields(),
                }
                for rs in RULESETS.values()
            ]
        )


class TableList(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "tables"

    @extend_schema(responses={200: TableOut(many=True)})
    def get(self, request: Request) -> Response:
        return Response(tables.lobby_tables())

    @extend_schema(request=CreateTableIn, responses={201: TableOut})
    def post(self, request: Request) -> Response:
        data = _valid(CreateTableIn, request)
        game = lobby_services.table_create(host=request.user, **data)
        response = _table(game)
        response.status_code = 201
        return response


class TableJoin(APIView):
    @extend_schema(request=JoinIn, responses={200: TableOut})
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(JoinIn, request)
        return _table(lobby_services.table_join(game_id=pk, user=request.user, **data))


class TableLeave(APIView):
    @extend_schema(request=None, responses={200: TableOut})
    def post(self, request: Request, pk: int) -> Response:
        return _table(lobby_services.table_leave(game_id=pk, user=request.user))


class TableStart(APIView):
    @extend_schema(request=None, responses={200: TableOut})
    def post(self, request: Request, pk: int) -> Response:
        return _table(lobby_services.table_start(game_id=pk, user=request.user))


class TableDecline(APIView):
    @extend_schema(request=None, responses={200: TableOut})
    def post(self, request: Request, pk: int) -> Response:
        return _table(lobby_services.table_decline(game_id=pk, user=request.user))


class Quickplay(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "tables"

    @extend_schema(request=QuickplayIn, responses={200: TableOut})
    def post(self, request: Request) -> Response:
        data = _valid(QuickplayIn, request)
        return _table(lobby_services.quickplay(user=request.user, **data))


class GameDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int) -> Response:
        frame = game_frames.hello_frame(pk, request.user)
        if frame is None:
            raise no_such_game()
        frame.pop("type")
        return Response(frame)


class GameEvents(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("since", int, description="last version the client saw")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        try:
            since = int(request.query_params.get("since", "0"))
        except ValueError:
            raise GameError("bad_request", gettext_noop("since must be a whole number.")) from None
        if game_frames.current_version(pk) is None:
            raise no_such_game()
        frame, _seat = game_frames.sync_frame(pk, request.user, max(since, 0))
        frame.pop("type")
        return Response(frame)


class GameAct(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "acts"

    @extend_schema(request=ActIn, responses={200: AckOut})
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ActIn, request)
        version = play.game_act(game_id=pk, user=request.user, **data)
        return Response({"version": version})


class GameResign(APIView):
    @extend_schema(request=None, responses={200: AckOut})
    def post(self, request: Request, pk: int) -> Response:
        return Response({"version": endings.game_resign(game_id=pk, user=request.user)})


class ChatIn(serializers.Serializer):
    text = serializers.CharField(max_length=2000, allow_blank=True, trim_whitespace=False)


class ReadIn(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False)


def _seat_command(service):
    """A POST endpoint that runs one seat command service (draw offers, abort)."""

    class SeatCommand(APIView):
        @extend_schema(request=None, responses={200: AckOut})
        def post(self, request: Request, pk: int) -> Response:
            return Response({"version": service(game_id=pk, user=request.user)})

    SeatCommand.__name__ = f"SeatCommand_{service.__name__}"
    return SeatCommand


OfferDraw = _seat_command(endings.game_offer_draw)
AcceptDraw = _seat_command(endings.game_accept_draw)
DeclineDraw = _seat_command(endings.game_decline_draw)
Abort = _seat_command(endings.game_abort)


class GameChat(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "chat"

    @extend_schema(request=ChatIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(ChatIn, request)
        return Response(
            chat.chat_post(game_id=pk, user=request.user, text=data["text"]), status=201
        )


def _game(pk: int) -> Game:
    game = Game.objects.filter(pk=pk).first()
    if game is None:
        raise no_such_game()
    return game


def _eye(request: Request, game: Game) -> int | None:
    """The seat whose eyes a replay shows (None: a spectator's)."""
    raw = request.query_params.get("seat", "")
    try:
        seat = int(raw) if raw not in ("", "spectator") else None
    except ValueError:
        raise GameError("bad_request", gettext_noop("seat must be a whole number.")) from None
    if seat is not None and not 0 <= seat < game.seat_count:
        raise GameError("bad_request", gettext_noop("There is no such seat."))
    return seat


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
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = _game(pk)
        seat = _eye(request, game)
        views = request.query_params.get("views", "1") not in {"0", "false"}
        if views:
            default, most = replays.FRAMES_DEFAULT, replays.FRAMES_MAX
        else:
            default, most = replays.EVENTS_DEFAULT, replays.EVENTS_MAX
        first = _whole_number(request, "from", 1, 1, 2**31)
        limit = _whole_number(request, "limit", default, 1, most)
        page = replays.frames_page if views else replays.events_page
        frames = page(game, seat, first, limit)
        end = frames[-1]["version"] if frames else game.version
        more = end < game.version
        return Response(
            {
                "game": pk,
                "ruleset": game.ruleset,
                "status": game.status,
                "seat": seat,
                "seats": seats.seat_list(seats.game_with_seats(pk)),
                "result": game.result,
                "result_text": game_frames.result_text(game.result),
                "version": game.version,
                "frames": frames,
                "next": replace_query_param(request.build_absolute_uri(), "from", end + 1)
                if more
                else None,
            }
        )


class GameExport(CostlyRead):
    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int) -> Response:
        response = Response(replays.export_game(_game(pk)))
        response["Content-Disposition"] = f'attachment; filename="game-{pk}.json"'
        return response


class GameImport(APIView):
    @property
    def max_body_bytes(self) -> int:
        """Exports are larger than moves (see games.api.parsers)."""
        return settings.API_IMPORT_MAX_BYTES

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: TableOut})
    def post(self, request: Request) -> Response:
        game = game_import.import_game(user=request.user, data=request.data)
        response = _table(game)
        response.status_code = 201
        return response


class NotificationList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(notification_reads.unread(request.user))


class NotificationRead(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReadIn, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = _valid(ReadIn, request)
        return Response({"marked": notifications.mark_read(user=request.user, ids=data.get("ids"))})


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
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = _game(pk)
        full = request.query_params.get("full") in {"1", "true"}
        rows = MatchRecord.objects.filter(game=game).order_by("version", "index")
        if "round" in request.query_params:
            rows = rows.filter(summary__round=_whole_number(request, "round", 0, 0, 2**31))
        if "version" in request.query_params:
            rows = rows.filter(version=_whole_number(request, "version", 0, 0, 2**31))
        column = "data" if full else "summary"
        pages = FullRecordPages() if full else RecordPages()
        page = pages.paginate_queryset(rows.values("version", "index", column), request, self)
        return pages.get_paginated_response(
            [{"version": r["version"], "index": r["index"], **r[column]} for r in page]
        )


class GameRecord(CostlyRead):
    @extend_schema(operation_id="games_record_retrieve", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int, version: int, index: int) -> Response:
        record = MatchRecord.objects.filter(game_id=pk, version=version, index=index).first()
        if record is None:
            raise GameError("not_found", gettext_noop("There is no such record."), status=404)
        return Response({"version": record.version, "index": record.index, **record.data})


class RemisIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["repetition", "deadlock"])
    action = serializers.DictField(required=False)
    move_numbers = serializers.ListField(child=serializers.IntegerField(), required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class DecideIn(serializers.Serializer):
    approve = serializers.BooleanField()
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class GameRemis(APIView):
    @extend_schema(request=RemisIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(RemisIn, request)
        filed = remis.remis_request(game_id=pk, user=request.user, **data)
        return Response(remis_reads.request_summary(filed), status=201)


class GameRemisCandidates(CostlyRead):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int) -> Response:
        game = _game(pk)
        seat = seats.seat_of(seats.game_with_seats(pk), request.user)
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state) if game.state is not None else None
        allowed = remis_reads.remis_allowed(game, rs, state, seat, timezone.now())
        if RemisRequest.Kind.REPETITION not in allowed:
            return Response({"candidates": []})
        return Response({"candidates": _candidates(game, seat)})


def _candidates(game: Game, seat: int) -> list[dict[str, Any]]:
    """Remis candidates, found once per version: finding them replays the game."""
    if not remis_reads.candidates_possible(game):
        return []
    key = f"remis-candidates:{game.pk}:{game.version}:{seat}"
    found = cache.get(key)
    if found is None:
        found = remis_reads.repetition_candidates(game, seat)
        cache.set(key, found, 600)
    return found


class IsStaff(permissions.BasePermission):
    message = "Only admins may see the remis queue."

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


class RemisQueue(APIView):
    permission_classes = [IsStaff]

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int),
            OpenApiParameter("older_than_hours", float, description="only requests waiting longer"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        try:
            page = int(request.query_params.get("page", "1"))
            older = float(request.query_params.get("older_than_hours", "0") or 0)
        except ValueError:
            raise GameError(
                "bad_request", gettext_noop("page and older_than_hours must be numbers.")
            ) from None
        return Response(remis_reads.queue_page(page=page, older_than_hours=older))


class RemisDetail(APIView):
    permission_classes = [IsStaff]

    @extend_schema(operation_id="remis_detail_retrieve", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int) -> Response:
        item = (
            RemisRequest.objects.select_related("game", "requested_by", "decided_by")
            .filter(pk=pk)
            .first()
        )
        if item is None:
            raise GameError(
                "not_found", gettext_noop("There is no such remis request."), status=404
            )
        full = seats.game_with_seats(item.game_id)
        return Response(
            {
                **remis_reads.request_summary(item),
                "seats": seats.seat_list(full),
                "moves": remis_reads.move_list(item.game),
            }
        )


class RemisDecide(APIView):
    permission_classes = [IsStaff]

    @extend_schema(request=DecideIn, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        data = _valid(DecideIn, request)
        decided = remis.remis_decide(request_id=pk, admin=request.user, **data)
        return Response(remis_reads.request_summary(decided))
