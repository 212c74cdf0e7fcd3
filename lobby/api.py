"""Tournaments over the API (shapes fixed in the design card): list, create,
detail, join, withdraw, start. Thin: parse, call one service or selector."""

from __future__ import annotations

from django.utils.translation import gettext_noop
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import WriteThrottle, answer, valid, whole_number
from games.api.serializers import answers
from games.errors import GameError
from lobby import tournaments as services
from lobby.models import Tournament
from lobby.selectors import tournaments as read
from lobby.tournaments.chat import tournament_chat_post


class CreateTournamentIn(serializers.Serializer):
    # Each field is checked by the service, with its own clear messages.
    name = serializers.JSONField(allow_null=True)
    ruleset = serializers.JSONField(allow_null=True)
    system = serializers.JSONField(allow_null=True, help_text='"swiss" or "round_robin"')
    seat_count = serializers.JSONField(allow_null=True, required=False, default=None)
    rounds = serializers.JSONField(
        allow_null=True, required=False, default=None, help_text="Swiss only"
    )
    clock = serializers.JSONField(allow_null=True, required=False, default=None)
    rated = serializers.JSONField(
        allow_null=True,
        required=False,
        default=False,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
    )
    starts_at = serializers.JSONField(
        allow_null=True,
        required=False,
        default=None,
        help_text="ISO-8601; null: the creator starts it",
    )
    round_pause_seconds = serializers.JSONField(
        allow_null=True,
        required=False,
        default=0,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
    )
    options = serializers.JSONField(allow_null=True, required=False, default=None)
    double = serializers.JSONField(
        allow_null=True,
        required=False,
        default=False,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
        help_text="round robin: every pair twice, seats swapped",
    )
    min_rating = serializers.JSONField(allow_null=True, required=False, default=None)
    min_games = serializers.JSONField(allow_null=True, required=False, default=None)
    round_days = serializers.JSONField(
        allow_null=True,
        required=False,
        default=None,
        help_text="correspondence: each round's deadline in days; unfinished games are adjudicated",
    )
    featured = serializers.JSONField(
        allow_null=True,
        required=False,
        default=False,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
        help_text="staff only: listed first",
    )
    play = serializers.JSONField(
        allow_null=False,
        required=False,
        default=True,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
        help_text="false: the creator organises and does not play (default: entered as a player)",
    )
    club = serializers.JSONField(
        allow_null=True,
        required=False,
        default=None,
        help_text="a club's id: club-only (its owner and admins create it, its members join)",
    )


class PairingOut(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField())
    bye = serializers.BooleanField()
    points = serializers.DictField(child=serializers.FloatField(), allow_null=True)


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    pairings = PairingOut(many=True)


class StandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.FloatField()
    tiebreaks = serializers.ListField(child=serializers.FloatField())
    withdrawn = serializers.BooleanField()


class TournamentSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    system = serializers.CharField()
    seat_count = serializers.IntegerField()
    rounds_planned = serializers.IntegerField()
    status = serializers.CharField()
    current_round = serializers.IntegerField()
    pairing = serializers.BooleanField(
        help_text="the sweeper pairs it now: a big field's start or a round under way"
    )
    rated = serializers.BooleanField()
    clock = serializers.JSONField()
    starts_at = serializers.CharField(allow_null=True)
    round_pause_seconds = serializers.IntegerField()
    creator = serializers.CharField(allow_null=True)
    player_count = serializers.IntegerField(help_text="players entered, withdrawn ones too")
    round_days = serializers.IntegerField(allow_null=True)
    round_deadline = serializers.CharField(allow_null=True)
    featured = serializers.BooleanField()
    club = serializers.IntegerField(allow_null=True, help_text="a club-only tournament's club")


class TournamentOut(TournamentSummaryOut):
    players = serializers.ListField(child=serializers.CharField())
    rounds = RoundOut(many=True)
    standings = StandingOut(many=True)


class TournamentListOut(serializers.Serializer):
    items = TournamentSummaryOut(many=True)


def tournament_answer(tournament: Tournament, status: int = 200) -> Response:
    tournament.refresh_from_db()
    return answer(TournamentOut, read.detail(tournament), status)


class TournamentList(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [WriteThrottle]
    throttle_scope = "tournaments"

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[OpenApiParameter("status", str, enum=list(Tournament.Status.values))],
        responses=answers({200: TournamentListOut}),
    )
    def get(self, request: Request) -> Response:
        status = request.query_params.get("status")
        if status is not None and status not in Tournament.Status.values:
            raise GameError(
                "bad_request", gettext_noop('"status" must be open, running or finished.')
            )
        return answer(TournamentListOut, {"items": read.listing(status)})

    @extend_schema(request=CreateTournamentIn, responses=answers({201: TournamentOut}))
    def post(self, request: Request) -> Response:
        data = valid(CreateTournamentIn, request)
        return tournament_answer(services.tournament_create(creator=request.user, **data), 201)


def _tournament(pk: int) -> Tournament:
    found = Tournament.objects.filter(pk=pk).first()
    if found is None:
        raise GameError("not_found", gettext_noop("There is no such tournament."), status=404)
    return found


class TournamentDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round", int, description="only this round in `rounds` (default: every round)"
            )
        ],
        responses=answers({200: TournamentOut}),
    )
    def get(self, request: Request, pk: int) -> Response:
        number = whole_number(request, "round", 0, 0, 2**15)
        found = _tournament(pk)
        return answer(TournamentOut, read.detail(found, only_round=number or None))


class TournamentJoin(APIView):
    @extend_schema(request=None, responses=answers({200: TournamentOut}))
    def post(self, request: Request, pk: int) -> Response:
        return tournament_answer(services.tournament_join(tournament_id=pk, user=request.user))


class TournamentWithdraw(APIView):
    @extend_schema(request=None, responses=answers({200: TournamentOut}))
    def post(self, request: Request, pk: int) -> Response:
        return tournament_answer(services.tournament_withdraw(tournament_id=pk, user=request.user))


class TournamentStart(APIView):
    @extend_schema(request=None, responses=answers({200: TournamentOut}))
    def post(self, request: Request, pk: int) -> Response:
        return tournament_answer(services.tournament_start(tournament_id=pk, user=request.user))


class FeatureIn(serializers.Serializer):
    featured = serializers.JSONField(allow_null=True, help_text="true or false")


class TournamentFeature(APIView):
    """Staff only: list a tournament first (or not)."""

    @extend_schema(request=FeatureIn, responses=answers({200: TournamentOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(FeatureIn, request)
        return tournament_answer(
            services.tournament_feature(tournament_id=pk, user=request.user, **data)
        )


class ChatLineIn(serializers.Serializer):
    text = serializers.JSONField(allow_null=True)


class ChatLineOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    text = serializers.CharField()
    created = serializers.CharField()


class ChatLinesOut(serializers.Serializer):
    items = ChatLineOut(many=True)


class TournamentChat(APIView):
    """The tournament page's chat: the newest lines; a logged-in player or
    spectator adds one (the games' chat rules and budget)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [WriteThrottle]
    throttle_scope = "chat"

    @extend_schema(operation_id="tournament_chat_list", responses=answers({200: ChatLinesOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(ChatLinesOut, {"items": read.chat_lines(_tournament(pk))})

    @extend_schema(request=ChatLineIn, responses=answers({201: ChatLineOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ChatLineIn, request)
        line = tournament_chat_post(tournament_id=pk, user=request.user, text=data["text"])
        return answer(ChatLineOut, line, 201)
