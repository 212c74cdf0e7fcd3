"""What every API view shares: throttles, permissions, parsing a request."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_noop
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from moderation import roles

from ..errors import GameError
from .throttles import ReadThrottle as ReadThrottle
from .throttles import WriteThrottle as WriteThrottle  # the views' throttle, as before

if TYPE_CHECKING:
    from accounts.models import User


def account(request: Request) -> User:
    """The signed-in caller of a view that requires a login (``IsAuthenticated``
    refused everyone else before the view ran); an anonymous one is refused."""
    user = request.user
    if isinstance(user, AnonymousUser):
        raise exceptions.NotAuthenticated()
    return user


class CostlyRead(APIView):
    """A read that costs the server (replays, records, remis candidates):
    limited per user, else per address (games/addresses.py; behind a proxy
    set ``TRUSTED_PROXY_COUNT`` so that the address is the client's)."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ReadThrottle]
    throttle_scope = "reads"


class IsStaff(permissions.BasePermission):
    message = "Only admins may see the remis queue."

    def has_permission(self, request, view) -> bool:
        # A browser session only, as moderation.api.IsModerator.
        return request.auth is None and roles.is_arbiter(request.user)


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request body checked and parsed by ``serializer_class`` (else a 400)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def answer(
    serializer_class: type[serializers.Serializer], data: Any, status: int = 200
) -> Response:
    """``data`` (built by a selector) as ``serializer_class`` describes it."""
    return Response(serializer_class(data).data, status=status)


def whole_number(request: Request, name: str, default: int, low: int, high: int) -> int:
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


def flag(request: Request, name: str, default: bool) -> bool:
    """A query parameter as yes or no (``1``/``true`` or ``0``/``false``)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if default:
        return raw not in {"0", "false"}
    return raw in {"1", "true"}
