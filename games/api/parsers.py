"""The API's JSON parser: the same limits as the game socket's frames.

DRF's own JSONParser reads a body of any size, lets a deeply nested body's
RecursionError through as a server error and hands on strings no database
can store. This one refuses all three as a ``bad_request`` (status 413 for
size, as the socket refuses a frame over 64 KiB) before a view sees the data.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.parsers import (  # type: ignore[attr-defined]  # in DRF 3.18.3, not its stubs
    JSONParser,
    get_encoding,
)

from .. import plain_json


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "bad_request"
    default_detail = gettext_lazy("The request is too large.")


def _no_constants(name: str) -> Any:
    """NaN and Infinity are not JSON; refuse them rather than store them."""
    raise ValueError(name)


def body_limit(view: Any, default: str = "API_MAX_BODY_BYTES") -> int:
    """Bytes a view (or view class) accepts: the setting its ``max_body_setting``
    names, else ``default`` (for the API the socket's frame limit, 64 KiB)."""
    return getattr(settings, getattr(view, "max_body_setting", None) or default)


class PlainJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        parser_context = parser_context or {}
        limit = body_limit(parser_context.get("view"))
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise RequestTooLarge(
                gettext("The request is too large (at most %(n)s bytes).") % {"n": limit}
            )
        try:
            text = raw.decode(get_encoding(parser_context))
            data = json.loads(text, parse_constant=_no_constants)
        except RecursionError:  # nested deeper than the interpreter's stack
            raise exceptions.ParseError(gettext(plain_json.TOO_DEEP)) from None
        except ValueError as exc:  # UnicodeDecodeError is one too
            raise exceptions.ParseError(
                gettext("The body is not valid JSON: %(error)s") % {"error": str(exc)[:200]}
            ) from None
        found = plain_json.problem(data)
        if found:
            raise exceptions.ParseError(gettext(found))
        return data
