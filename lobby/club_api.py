"""Clubs over the API (shapes fixed in the design card, extended with pages
and counts): list, create, detail, join, leave, roles, the invite code.
Thin: parse, call one service or selector (docs/protocol.md, "Clubs")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import WriteThrottle, answer, valid, whole_number
from games.api.serializers import answers
from lobby import clubs as services
from lobby.models import Club
from lobby.selectors import clubs as read

MAX_PAGE = 10_000


class CreateClubIn(serializers.Serializer):
    # Each field is checked by the service, with its own clear messages.
    name = serializers.JSONField(allow_null=True)
    description = serializers.JSONField(
        allow_null=True,
        required=False,
        default="",  # type: ignore[arg-type]  # any JSON value is a JSONField's default
    )
    open = serializers.JSONField(
        allow_null=True,
        required=False,
        default=True,  # type: ignore[arg-type]  # any JSON value is a JSONField's default
        help_text="false: joined with the invite code only",
    )


class ClubJoinIn(serializers.Serializer):
    invite = serializers.JSONField(
        allow_null=True, required=False, default=None, help_text="a closed club's code"
    )


class RoleIn(serializers.Serializer):
    role = serializers.JSONField(
        allow_null=True, help_text='"admin", "member", "removed", or "owner" (the owner hands over)'
    )


class MemberOut(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.CharField(help_text='"owner", "admin" or "member"')
    joined = serializers.CharField()
    ratings = serializers.DictField(
        child=serializers.IntegerField(), help_text="per game: the rating of the speed played most"
    )


class ClubGameOut(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(allow_null=True))


class ClubSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    open = serializers.BooleanField()
    created = serializers.CharField()
    member_count = serializers.IntegerField()


class ClubOut(ClubSummaryOut):
    members = MemberOut(many=True, help_text="one page: the owner, admins, members")
    members_page = serializers.IntegerField()
    page_size = serializers.IntegerField(help_text="members per page")
    games = ClubGameOut(many=True, help_text="one page of the members' running games")
    games_page = serializers.IntegerField()
    games_count = serializers.IntegerField(help_text="counted up to 1,000")
    games_capped = serializers.BooleanField(help_text="more than games_count")
    tournaments = serializers.ListField(child=serializers.IntegerField(), help_text="the newest")
    my_role = serializers.CharField(allow_null=True)
    invite = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="owners and admins only (no key for others); null: no code",
    )

    def to_representation(self, instance: Any) -> Any:
        # DRF answers a missing nullable key as null: a key the selector left
        # out (the code, for a non-admin) stays out.
        data = super().to_representation(instance)
        if "invite" not in instance:
            data.pop("invite", None)
        return data


class ClubListOut(serializers.Serializer):
    items = ClubSummaryOut(many=True)
    page = serializers.IntegerField()
    more = serializers.BooleanField(help_text="a next page exists")


class LeftOut(serializers.Serializer):
    id = serializers.IntegerField()
    dissolved = serializers.BooleanField(help_text="you were its last member")


def _club_answer(request: Request, club: Club | int, status: int = 200) -> Response:
    """The club (read again after a change) as its caller sees it (the code
    for its owner and admins)."""
    page = whole_number(request, "page", 1, 1, MAX_PAGE)
    return answer(
        ClubOut,
        read.club_detail(
            read.club_or_404(club if isinstance(club, int) else club.pk),
            request.user,
            members_page=whole_number(request, "members_page", page, 1, MAX_PAGE),
            games_page=whole_number(request, "games_page", page, 1, MAX_PAGE),
        ),
        status,
    )


class ClubList(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [WriteThrottle]
    throttle_scope = "clubs"

    @extend_schema(
        operation_id="clubs_list",
        parameters=[
            OpenApiParameter("q", str, description="names holding this (look-alikes too)"),
            OpenApiParameter("page", int, description="from 1"),
        ],
        responses=answers({200: ClubListOut}),
    )
    def get(self, request: Request) -> Response:
        query = request.query_params.get("q", "")
        page = whole_number(request, "page", 1, 1, MAX_PAGE)
        return answer(ClubListOut, read.club_listing(query, page))

    @extend_schema(request=CreateClubIn, responses=answers({201: ClubOut}))
    def post(self, request: Request) -> Response:
        data = valid(CreateClubIn, request)
        return _club_answer(request, services.club_create(creator=request.user, **data), 201)


PAGES = [
    OpenApiParameter("page", int, description="both lists' page, from 1"),
    OpenApiParameter("members_page", int, description="the members' page (default: page)"),
    OpenApiParameter("games_page", int, description="the games' page (default: page)"),
]


class ClubDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=PAGES, responses=answers({200: ClubOut}))
    def get(self, request: Request, pk: int) -> Response:
        return _club_answer(request, pk)


class ClubJoin(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "clubs"

    @extend_schema(request=ClubJoinIn, responses=answers({200: ClubOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ClubJoinIn, request)
        return _club_answer(request, services.club_join(club_id=pk, user=request.user, **data))


class ClubLeave(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "clubs"

    @extend_schema(request=None, responses=answers({200: LeftOut}))
    def post(self, request: Request, pk: int) -> Response:
        club = services.club_leave(club_id=pk, user=request.user)
        return answer(LeftOut, {"id": club.pk, "dissolved": club.dissolved is not None})


class ClubMemberRole(APIView):
    """The owner or an admin gives a member a role, or removes them."""

    @extend_schema(request=RoleIn, responses=answers({200: ClubOut}))
    def post(self, request: Request, pk: int, username: str) -> Response:
        data = valid(RoleIn, request)
        club = services.club_set_role(
            club_id=pk, user=request.user, username=username, role=data["role"]
        )
        return _club_answer(request, club)


class ClubInvite(APIView):
    """The owner or an admin renews the invite code (POST) or revokes it (DELETE)."""

    throttle_classes = [WriteThrottle]
    throttle_scope = "clubs"

    @extend_schema(request=None, responses=answers({200: ClubOut}))
    def post(self, request: Request, pk: int) -> Response:
        return _club_answer(request, services.club_invite_renew(club_id=pk, user=request.user))

    @extend_schema(request=None, responses=answers({200: ClubOut}))
    def delete(self, request: Request, pk: int) -> Response:
        return _club_answer(request, services.club_invite_revoke(club_id=pk, user=request.user))
