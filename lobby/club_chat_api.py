"""A club's chat over the API: ``GET /api/clubs/<id>/chat/`` (whoever may
read it: an open club's everyone, a closed club's members and moderators)
and ``POST`` a line (members; the games' chat rules and budget)."""

from __future__ import annotations

from django.utils.translation import gettext_noop
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import WriteThrottle, answer, valid
from games.api.serializers import answers
from games.errors import GameError
from lobby.api import ChatLineIn, ChatLineOut, ChatLinesOut
from lobby.clubs.chat import club_chat_post
from lobby.selectors import club_page
from lobby.selectors.clubs import club_or_404


class ClubChat(APIView):
    """The club page's chat: the newest lines; a member adds one."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [WriteThrottle]
    throttle_scope = "chat"

    @extend_schema(operation_id="club_chat_list", responses=answers({200: ChatLinesOut}))
    def get(self, request: Request, pk: int) -> Response:
        club = club_or_404(pk)
        if not club_page.may_read_chat(club, request.user):
            raise GameError(
                "members_only", gettext_noop("A closed club's chat is its members'."), status=403
            )
        return answer(ChatLinesOut, {"items": club_page.chat_lines(club)})

    @extend_schema(request=ChatLineIn, responses=answers({201: ChatLineOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ChatLineIn, request)
        line = club_chat_post(club_id=pk, user=request.user, text=data["text"])
        return answer(ChatLineOut, line, 201)
