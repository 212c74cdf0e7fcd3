"""The account's personal tokens and the bot upgrade over the API (a session
or the account's own ``Token``; never a personal token: token_auth.ACCOUNT_URLS)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import WriteThrottle, valid
from games.api.serializers import answers

from . import tokens
from .bot_upgrade import bot_upgrade


class ApiTokenIn(serializers.Serializer):
    name = serializers.JSONField()
    scopes = serializers.JSONField(help_text='some of "read", "play", "challenge"')


class ApiTokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.CharField())
    prefix = serializers.CharField()
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)


class NewApiTokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.CharField())
    token = serializers.CharField(help_text="shown once: send as `Authorization: Bearer <token>`")


class ApiTokenListOut(serializers.Serializer):
    items = ApiTokenOut(many=True)


class BotOut(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()


class AccountTokens(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(responses=answers({200: ApiTokenListOut}))
    def get(self, request: Request) -> Response:
        return Response({"items": tokens.token_list(user=request.user)})

    @extend_schema(request=ApiTokenIn, responses=answers({201: NewApiTokenOut}))
    def post(self, request: Request) -> Response:
        data = valid(ApiTokenIn, request)
        token, secret = tokens.token_create(user=request.user, **data)
        out = {"id": token.pk, "name": token.name, "scopes": token.scopes, "token": secret}
        return Response(out, status=201)


class AccountToken(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(responses=answers({200: ApiTokenListOut}))
    def delete(self, request: Request, pk: int) -> Response:
        """Revoke the token at once (its open streams end); the tokens left."""
        tokens.token_revoke(user=request.user, token_id=pk)
        return Response({"items": tokens.token_list(user=request.user)})


class BotUpgrade(APIView):
    """Irreversible: this account becomes a bot account (only one that never played)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [WriteThrottle]

    @extend_schema(request=None, responses=answers({200: BotOut}))
    def post(self, request: Request) -> Response:
        account = bot_upgrade(user=request.user)
        return Response({"username": account.username, "bot": True})
