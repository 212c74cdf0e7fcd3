"""One JSON error shape for the API: {"code", "message", ...}; never a traceback."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from .errors import GameError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        response = Response(exc.as_dict(), status=exc.status)
        if getattr(exc, "retry_after", None):  # e.g. a replay being prepared
            response["Retry-After"] = str(exc.retry_after)
        return response
    response = drf_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "bad_request",
            "message": _("Some fields are missing or invalid."),
            "fields": exc.detail,
        }
    elif isinstance(exc, exceptions.ParseError):
        # Malformed JSON, strings no database stores, nesting too deep.
        response.data = {"code": "bad_request", "message": str(exc.detail)}
    else:
        detail = getattr(exc, "detail", str(exc))
        response.data = {
            "code": getattr(detail, "code", None) or "error",
            "message": str(detail),
        }
    return response
