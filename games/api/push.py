"""Web push subscriptions: this device's, added and removed (docs/protocol.md)."""

from __future__ import annotations

import base64
import binascii
import re

from cryptography.hazmat.primitives.asymmetric import ec
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..services import push, push_endpoints, push_keys
from .common import WriteThrottle, account, answer, valid
from .serializers import answers

BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def _b64url(value: str) -> bytes:
    try:
        if not BASE64URL.fullmatch(value):
            raise ValueError(value)
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise serializers.ValidationError(_("This is not base64url text.")) from None


class KeysIn(serializers.Serializer):
    p256dh = serializers.CharField(max_length=100, help_text="the device's P-256 public key")
    auth = serializers.CharField(max_length=40, help_text="the 16-byte authentication secret")

    def validate_p256dh(self, value: str) -> str:
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _b64url(value))
        except ValueError:
            raise serializers.ValidationError(
                _("This is not an uncompressed P-256 public key.")
            ) from None
        return value

    def validate_auth(self, value: str) -> str:
        if len(_b64url(value)) != 16:
            raise serializers.ValidationError(_("The authentication secret must be 16 bytes."))
        return value


class EndpointIn(serializers.Serializer):
    """A device to forget: any of the caller's own, whatever its address."""

    endpoint = serializers.URLField(max_length=1000, help_text="the push service's address")


class SubscriptionIn(EndpointIn):
    """The JSON of the browser's ``PushSubscription`` (``subscription.toJSON()``)."""

    keys = KeysIn()
    expirationTime = serializers.IntegerField(required=False, allow_null=True)

    def validate_endpoint(self, value: str) -> str:
        """Only a listed push service's plain https address: the server posts
        to it, so no visitor may point it anywhere else (push_endpoints.py)."""
        try:
            push_endpoints.push_endpoint_check(value)
        except push_endpoints.BadEndpoint as exc:
            raise serializers.ValidationError(_refusal(exc)) from None
        return value


def _refusal(exc: push_endpoints.BadEndpoint) -> str:
    if exc.kind == "scheme":
        return _("A push service's address starts with https://.")
    if exc.kind == "host":
        return _("The site sends no pushes to %(host)s: use a browser's own push service.") % {
            "host": exc.host
        }
    return _(
        "A push service's address is plain: no user name, password, port, backslash "
        "or numeric host."
    )


class SubscriptionOut(serializers.Serializer):
    endpoint = serializers.CharField()
    created = serializers.DateTimeField()
    last_success = serializers.DateTimeField(allow_null=True)


class RemovedOut(serializers.Serializer):
    removed = serializers.BooleanField(help_text="whether it was one of the caller's devices")


class PushStateOut(serializers.Serializer):
    public_key = serializers.CharField(help_text="the applicationServerKey, base64url")
    subscriptions = SubscriptionOut(many=True)


class PushSubscriptions(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]
    throttle_scope = "push"

    @extend_schema(responses=answers({200: PushStateOut}))
    def get(self, request: Request) -> Response:
        subs = account(request).push_subscriptions.order_by("created")
        return answer(
            PushStateOut,
            {"public_key": push_keys.push_keys_get().public_key, "subscriptions": list(subs)},
        )

    @extend_schema(
        request=SubscriptionIn, responses=answers({200: SubscriptionOut, 201: SubscriptionOut})
    )
    def post(self, request: Request) -> Response:
        data = valid(SubscriptionIn, request)
        sub, created = push.push_subscribe(
            user=account(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return answer(SubscriptionOut, sub, status=201 if created else 200)

    @extend_schema(request=EndpointIn, responses=answers({200: RemovedOut}))
    def delete(self, request: Request) -> Response:
        data = valid(EndpointIn, request)
        removed = push.push_unsubscribe(user=account(request), endpoint=data["endpoint"])
        return answer(RemovedOut, {"removed": removed})  # gone either way
