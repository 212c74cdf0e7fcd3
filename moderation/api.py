"""``/api/reports/`` (players) and ``/api/moderation/...`` (moderators only:
anyone else gets 403 and learns nothing about reports)."""

from __future__ import annotations

from django.utils.translation import gettext_noop
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import WriteThrottle, valid
from games.api.serializers import answers

from . import roles, selectors, services
from .models import Report, Sanction


class IsModerator(permissions.BasePermission):
    message = gettext_noop("Only moderators may see this.")

    def has_permission(self, request, view) -> bool:
        # A browser session only: no token (the password's or a personal
        # one, whose ``auth`` is set) reads or acts on the staff's queues.
        return request.auth is None and roles.is_moderator(request.user)


class ReportIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    game = serializers.IntegerField(required=False, allow_null=True, default=None)
    reason = serializers.ChoiceField(choices=["cheating", "abuse", "stalling", "other"])
    # Checked by the service (``too_long`` over 1,000 characters).
    text = serializers.CharField(required=False, allow_blank=True, default="", trim_whitespace=True)
    chat = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="the reported chat line's id"
    )
    club = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="the club whose chat the line is in (instead of a game)",
    )


REPORT_OUT = inline_serializer(
    "ReportOut",
    {
        "id": serializers.IntegerField(),
        "username": serializers.CharField(),
        "game": serializers.IntegerField(allow_null=True),
        "reason": serializers.CharField(),
        "status": serializers.CharField(),
        "created": serializers.CharField(),
    },
)


class Reports(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]
    throttle_scope = "writes"

    @extend_schema(
        responses=answers({200: inline_serializer("MyReports", {"items": serializers.ListField()})})
    )
    def get(self, request: Request) -> Response:
        """The caller's own reports: open, acted (on) or cleared."""
        return Response(selectors.mine(request.user))

    @extend_schema(request=ReportIn, responses=answers({201: REPORT_OUT}))
    def post(self, request: Request) -> Response:
        data = valid(ReportIn, request)
        report = services.report_file(reporter=request.user, **data)
        summary = selectors.report_summary(report)
        summary.pop("text")
        summary.pop("reporter")
        return Response(summary, status=201)


class Queue(APIView):
    permission_classes = [IsModerator]

    @extend_schema(
        operation_id="moderation_reports_list",
        responses=answers(
            {200: inline_serializer("ReportQueue", {"items": serializers.ListField()})}
        ),
    )
    def get(self, request: Request) -> Response:
        status = request.query_params.get("status", Report.Status.OPEN)
        return Response(selectors.queue(status))


class Case(APIView):
    permission_classes = [IsModerator]

    @extend_schema(
        responses=answers(
            {200: inline_serializer("ReportCase", {"id": serializers.IntegerField()})}
        )
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.case(pk))


class ModerateIn(serializers.Serializer):
    action = serializers.ChoiceField(choices=Sanction.Action.values)
    days = serializers.IntegerField(required=False, allow_null=True, default=None)
    note = serializers.CharField(required=False, allow_blank=True, default="")


class Moderate(APIView):
    permission_classes = [IsModerator]
    throttle_classes = [WriteThrottle]
    throttle_scope = "writes"

    @extend_schema(
        request=ModerateIn,
        responses=answers(
            {200: inline_serializer("ModerationDone", {"action": serializers.CharField()})}
        ),
    )
    def post(self, request: Request, username: str) -> Response:
        data = valid(ModerateIn, request)
        entry = services.user_moderate(moderator=request.user, username=username, **data)
        return Response(
            {
                "username": username,
                "action": entry.action,
                "days": entry.days,
                "detail": entry.detail,
                "history": selectors.history(entry.user),
            }
        )


class WarningAcknowledge(APIView):
    """The warned player's "Understood" on the warning banner (base.html):
    their own warnings only, CSRF-checked like every session write."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]
    throttle_scope = "writes"

    @extend_schema(
        request=None,
        responses=answers(
            {
                200: inline_serializer(
                    "WarningAcknowledged",
                    {"id": serializers.IntegerField(), "acknowledged": serializers.CharField()},
                )
            }
        ),
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = services.warning_acknowledge(user=request.user, warning=pk)
        return Response({"id": entry.pk, "acknowledged": entry.detail["acknowledged"]})
