"""Club matches over the API (docs/protocol.md, "Club matches"): a club
challenges another, the challenged club answers, each club names its
players, either starts; the match with its boards, games and score. Thin:
parse, call one service or selector."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import WriteThrottle, answer, valid
from games.api.serializers import answers
from lobby.clubs import matches as services
from lobby.models import ClubMatch
from lobby.selectors import club_matches as read
from lobby.selectors.clubs import club_or_404


class ClubMatchChallengeIn(serializers.Serializer):
    # Each field is checked by the service, with its own clear messages.
    opponent = serializers.JSONField(allow_null=True, help_text="the challenged club's id")
    ruleset = serializers.JSONField(allow_null=True, help_text="a game of two seats")
    boards = serializers.JSONField(allow_null=True, help_text="1 to 20")
    clock = serializers.JSONField(
        allow_null=True, required=False, default=None, help_text="a table's time control"
    )


class ClubMatchPlayersIn(serializers.Serializer):
    players = serializers.JSONField(allow_null=True, help_text="usernames, at most one a board")
    club = serializers.JSONField(
        allow_null=True,
        required=False,
        default=None,
        help_text="which club's lineup: only for someone who runs both",
    )


class ClubMatchClubOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ClubMatchScoreOut(serializers.Serializer):
    home = serializers.FloatField()
    away = serializers.FloatField()


class ClubMatchPlayerOut(serializers.Serializer):
    username = serializers.CharField(allow_null=True)
    rating = serializers.IntegerField(allow_null=True)


class ClubMatchLineupsOut(serializers.Serializer):
    home = ClubMatchPlayerOut(many=True)
    away = ClubMatchPlayerOut(many=True)


class ClubMatchBoardOut(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    game_status = serializers.CharField(allow_null=True)
    home_seat = serializers.IntegerField(help_text="the home club's seat: 0 on odd boards")
    home = ClubMatchPlayerOut()
    away = ClubMatchPlayerOut()
    seats = serializers.ListField(child=serializers.CharField(allow_null=True))
    points = ClubMatchScoreOut(allow_null=True, help_text="null until the board's game ends")


class ClubMatchSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    home = ClubMatchClubOut()
    away = ClubMatchClubOut()
    ruleset = serializers.CharField()
    title = serializers.CharField()
    boards = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ClubMatch.Status.values)
    score = ClubMatchScoreOut()


class ClubMatchOut(ClubMatchSummaryOut):
    clock = serializers.JSONField()
    created = serializers.CharField()
    started = serializers.CharField(allow_null=True)
    ended = serializers.CharField(allow_null=True)
    players = ClubMatchLineupsOut()
    board_list = ClubMatchBoardOut(many=True)


class ClubMatchesOut(serializers.Serializer):
    items = ClubMatchSummaryOut(many=True)


def match_answer(match: ClubMatch, status: int = 200) -> Response:
    return answer(ClubMatchOut, read.club_match_detail(read.club_match_or_404(match.pk)), status)


class ClubMatches(APIView):
    """A club's newest matches; its owner or an admin challenges another club."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [WriteThrottle]
    throttle_scope = "club_matches"

    @extend_schema(operation_id="club_matches_list", responses=answers({200: ClubMatchesOut}))
    def get(self, request: Request, pk: int) -> Response:
        club = club_or_404(pk)
        return answer(ClubMatchesOut, {"items": read.club_matches_of(club.pk)})

    @extend_schema(request=ClubMatchChallengeIn, responses=answers({201: ClubMatchOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ClubMatchChallengeIn, request)
        match = services.club_match_challenge(user=request.user, club_id=pk, **data)
        return match_answer(match, 201)


class ClubMatchDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=answers({200: ClubMatchOut}))
    def get(self, request: Request, pk: int) -> Response:
        return answer(ClubMatchOut, read.club_match_detail(read.club_match_or_404(pk)))


class ClubMatchAccept(APIView):
    @extend_schema(request=None, responses=answers({200: ClubMatchOut}))
    def post(self, request: Request, pk: int) -> Response:
        return match_answer(services.club_match_accept(user=request.user, match_id=pk))


class ClubMatchDecline(APIView):
    @extend_schema(request=None, responses=answers({200: ClubMatchOut}))
    def post(self, request: Request, pk: int) -> Response:
        return match_answer(services.club_match_decline(user=request.user, match_id=pk))


class ClubMatchCancel(APIView):
    @extend_schema(request=None, responses=answers({200: ClubMatchOut}))
    def post(self, request: Request, pk: int) -> Response:
        return match_answer(services.club_match_cancel(user=request.user, match_id=pk))


class ClubMatchStart(APIView):
    @extend_schema(request=None, responses=answers({200: ClubMatchOut}))
    def post(self, request: Request, pk: int) -> Response:
        return match_answer(services.club_match_start(user=request.user, match_id=pk))


class ClubMatchPlayers(APIView):
    @extend_schema(request=ClubMatchPlayersIn, responses=answers({200: ClubMatchOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ClubMatchPlayersIn, request)
        return match_answer(services.club_match_players_set(user=request.user, match_id=pk, **data))
