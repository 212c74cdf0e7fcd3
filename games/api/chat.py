"""A game's chat: posting a line (the history comes with the game's state)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..services import chat
from .common import WriteThrottle, answer, valid
from .serializers import ChatIn, ChatMessageOut, answers


class GameChat(APIView):
    throttle_classes = [WriteThrottle]
    throttle_scope = "chat"

    @extend_schema(request=ChatIn, responses=answers({201: ChatMessageOut}))
    def post(self, request: Request, pk: int) -> Response:
        data = valid(ChatIn, request)
        message = chat.chat_post(game_id=pk, user=request.user, text=data["text"])
        return answer(ChatMessageOut, message, 201)
