"""Blocking and following players: ``/api/blocks/`` and ``/api/follows/``."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import relations

from ..selectors import relations as reads
from .common import WriteThrottle, answer
from .serializers import NamesOut, answers


def name_list(read: Callable) -> type[APIView]:
    class NameList(APIView):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(responses=answers({200: NamesOut}))
        def get(self, request: Request) -> Response:
            return answer(NamesOut, {"users": read(request.user)})

    NameList.__name__ = f"NameList_{read.__name__}"
    return NameList


def name_toggle(on: Callable, off: Callable, read: Callable) -> type[APIView]:
    """POST adds the named user, DELETE removes them; both answer the new list."""

    class NameToggle(APIView):
        permission_classes = [permissions.IsAuthenticated]
        throttle_classes = [WriteThrottle]
        throttle_scope = "acts"

        @extend_schema(request=None, responses=answers({200: NamesOut}))
        def post(self, request: Request, username: str) -> Response:
            on(user=request.user, name=username)
            return answer(NamesOut, {"users": read(request.user)})

        @extend_schema(request=None, responses=answers({200: NamesOut}))
        def delete(self, request: Request, username: str) -> Response:
            off(user=request.user, name=username)
            return answer(NamesOut, {"users": read(request.user)})

    NameToggle.__name__ = f"NameToggle_{on.__name__}"
    return NameToggle


BlockList = name_list(reads.blocked_names)
FollowList = name_list(reads.followed_names)
BlockDetail = name_toggle(relations.user_block, relations.user_unblock, reads.blocked_names)
FollowDetail = name_toggle(relations.user_follow, relations.user_unfollow, reads.followed_names)
