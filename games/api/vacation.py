"""A player's vacation: its status, starting it, ending it early."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..services import vacation
from .common import WriteThrottle, account, answer, valid
from .serializers import answers


class VacationIn(serializers.Serializer):
    until = serializers.JSONField(
        required=False,
        help_text="the end: a date (through that day, UTC) or an ISO date and time; "
        "absent: as long as this year's allowance lasts",
    )


class VacationOut(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    start = serializers.CharField(allow_null=True)
    until = serializers.CharField(allow_null=True)
    next_start = serializers.CharField(
        allow_null=True, help_text="when a new vacation may start, if not now (null: now)"
    )
    year = serializers.IntegerField()
    days_used = serializers.FloatField()
    days_left = serializers.FloatField()
    allowance_days = serializers.IntegerField()


class VacationView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]
    throttle_scope = "tables"  # a few writes a minute, like a table's

    @extend_schema(responses=answers({200: VacationOut}))
    def get(self, request: Request) -> Response:
        return answer(
            VacationOut, vacation.vacation_status(account(request).pk, now=timezone.now())
        )

    @extend_schema(request=VacationIn, responses=answers({201: VacationOut}))
    def post(self, request: Request) -> Response:
        until = vacation.vacation_until_parse(valid(VacationIn, request).get("until"))
        now = timezone.now()
        vacation.vacation_start(user=account(request), until=until, now=now)
        return answer(
            VacationOut, vacation.vacation_status(account(request).pk, now=now), status=201
        )

    @extend_schema(request=None, responses=answers({200: VacationOut}))
    def delete(self, request: Request) -> Response:
        now = timezone.now()
        vacation.vacation_stop(user=account(request), now=now)
        return answer(VacationOut, vacation.vacation_status(account(request).pk, now=now))
