"""The API's token view: failed tries count towards django-axes' lock-out."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from games.api.common import WriteThrottle
from games.api.serializers import answers

from . import devices
from .lockout import lockout_json, lockout_seconds


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="send as `Authorization: Token <token>`")


class ObtainToken(ObtainAuthToken):
    """POST username and password, get the user's token.

    DRF's serializer calls authenticate() with this DRF request, so django-axes
    marks the lock-out on it (not on the Django request its middleware
    answers): a locked-out try is told so here, not "unable to log in". A
    client that keeps cookies is trusted for the account afterwards, as after
    the login form (accounts/devices.py). DRF's view turns throttles off;
    here the default write budget holds, by address.
    """

    throttle_classes = [WriteThrottle]

    @extend_schema(request=AuthTokenSerializer, responses=answers({200: TokenOut}))
    def post(self, request, *args, **kwargs):
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            if getattr(request, "axes_locked_out", False):
                return Response(
                    lockout_json(request.data.get("username")),
                    status=429,
                    headers={"Retry-After": str(lockout_seconds())},
                )
            raise
        devices.remember(request, response, request.data.get("username", ""))
        return response


obtain_token = ObtainToken.as_view()
