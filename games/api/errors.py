"""One JSON error shape for the API: {"code", "message", ...}; never a traceback."""

from __future__ import annotations

import logging
import math
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from ..errors import GameError, unexpected
from .parsers import body_limit

log = logging.getLogger(__name__)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        refused = Response(exc.as_dict(), status=exc.status)
        if getattr(exc, "retry_after", None) is not None:  # a limit, a replay being prepared
            refused["Retry-After"] = str(exc.retry_after)
        return refused
    if isinstance(exc, RequestDataTooBig):  # Django's own limit, read before any parser
        return Response(too_large(body_limit(context.get("view"))), status=413)
    response = drf_handler(exc, context)
    if response is None:
        # Not a client's mistake: a clear JSON error all the same, never a traceback.
        log.warning("API request failed", exc_info=exc)
        error = unexpected(exc)
        return Response(error.as_dict(), status=error.status)
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
        wait = getattr(exc, "wait", None)  # a Throttled's (its stubs do not name it)
        if isinstance(exc, exceptions.Throttled) and wait is not None:
            response.data["retry_after"] = math.ceil(wait)
    return response


def too_large(limit: int) -> dict[str, Any]:
    """The answer to a body over its endpoint's limit (status 413)."""
    return {
        "code": "bad_request",
        "message": _("The request is too large (at most %(n)s bytes).") % {"n": limit},
    }
