"""A user's notifications: the newest, and marking them read."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..selectors import notifications as notification_reads
from ..services.internal import notifications
from .common import account, answer, valid
from .serializers import MarkedOut, NotificationOut, ReadIn, answers


class NotificationList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=answers({200: NotificationOut(many=True)}))
    def get(self, request: Request) -> Response:
        return Response(NotificationOut(notification_reads.unread(request.user), many=True).data)


class NotificationRead(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReadIn, responses=answers({200: MarkedOut}))
    def post(self, request: Request) -> Response:
        data = valid(ReadIn, request)
        marked = notifications.notifications_mark_read(user=account(request), ids=data.get("ids"))
        return answer(MarkedOut, {"marked": marked})
