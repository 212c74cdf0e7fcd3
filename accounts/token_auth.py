"""``Authorization: Bearer <token>`` for the API, with the token's scopes.

``read`` covers every GET (and the streams, and asking for an analysis), ``play`` the seat's writes
(moves, resigning, draws, chat, joining, rematches), ``challenge`` tables
that name a challenged user. Anything else a token may not do (its own
tokens, the settings, the staff's queues): 403 ``scope``. The scope is checked here, where the
token is known, from the URL's name: every view is covered, whatever its
own permission classes.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions, permissions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from .tokens import token_holder

KEYWORD = "Bearer"


class BadToken(exceptions.APIException):
    """401, whatever authentication class comes first (DRF would answer an
    ``AuthenticationFailed`` with 403 when the first one names no scheme)."""

    status_code = 401
    default_code = "bad_token"


# URL names (games/api/urls.py) a ``play`` token may write to.
PLAY_URLS = frozenset(
    {
        "api-game-act",
        "api-game-resign",
        "api-draw-offer",
        "api-draw-accept",
        "api-draw-decline",
        "api-game-chat",
        "api-game-rematch",
        "api-game-abort",
        "api-game-handover",
        "api-game-conditional",
        "api-game-conditional-preview",
        "api-game-forced",
        "api-table-join",
        "api-table-leave",
        "api-table-decline",
        "api-table-start",
        "api-table-bot",
        "api-quickplay",
        "api-game-continue",  # a casual game against bots, as a table with a bot
        "api-tables",  # a table without a challenge; with one: "challenge"
    }
)
# Writes a ``read`` token may make: asking for a finished game's analysis
# helps nobody during a game (it refuses running games).
READ_WRITE_URLS = frozenset({"api-game-analysis"})
# Only with a session or the account's own ``Token``: never with a personal token.
ACCOUNT_URLS = frozenset(
    {"api-token", "api-account-tokens", "api-account-token", "api-bot-upgrade"}
)
# The staff's queues and actions (moderation/urls.py, games/api/urls.py): no
# scope of a personal token reaches them, ``read`` included, so a moderator's
# token lent to a bot or a board never reads the reports.
STAFF_URLS = frozenset(
    {
        "api-moderation-reports",
        "api-moderation-case",
        "api-moderation-user",
        "api-remis-queue",
        "api-remis-detail",
        "api-remis-decide",
    }
)


def bearer_secret(header: bytes) -> str | None:
    """The secret of an ``Authorization: Bearer`` header; None for another scheme."""
    parts = header.split()
    if not parts or parts[0].lower() != KEYWORD.lower().encode():
        return None
    if len(parts) != 2:
        raise BadToken(_("Send the header as: Authorization: Bearer <token>."))
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError:
        raise BadToken(_("Unknown or revoked token.")) from None


def required_scope(request: Any) -> str | None:
    """The scope this request needs; None: no personal token may make it."""
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match is not None else None
    if name in ACCOUNT_URLS or name in STAFF_URLS:
        return None
    if request.method in permissions.SAFE_METHODS or name in READ_WRITE_URLS:
        return "read"
    if name not in PLAY_URLS:
        return None
    if name == "api-tables" and isinstance(request.data, dict) and request.data.get("challenge"):
        return "challenge"
    return "play"


class BearerAuthentication(BaseAuthentication):
    """A personal token; ``request.auth`` is the ``ApiToken``."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        secret = bearer_secret(get_authorization_header(request))
        if secret is None:
            return None
        found = token_holder(secret)
        if found is None:
            raise BadToken(_("Unknown or revoked token."))
        user, token = found
        needed = required_scope(request)
        if needed is None or needed not in token.scopes:
            raise exceptions.PermissionDenied(scope_message(needed), code="scope")
        return user, token

    def authenticate_header(self, request: Any) -> str:
        return KEYWORD


def scope_message(needed: str | None) -> str:
    if needed is None:
        return _("A personal token cannot do this; use the site or your account's token.")
    return _("This token lacks the scope %(scope)s.") % {"scope": needed}


class BearerScheme(OpenApiAuthenticationExtension):
    """How the API schema (/api/schema/) describes personal tokens."""

    target_class = "accounts.token_auth.BearerAuthentication"
    name = "personalToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=KEYWORD
        )
