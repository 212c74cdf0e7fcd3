"""Every request's body limit, checked before anything parses the body.

The limit is the view's (``max_body_setting``: the import takes 8 MiB), else
the API's 64 KiB (what the game socket takes in one frame), else a page
form's. A declared ``Content-Length`` over it is answered 413 at once: the
API's ``bad_request`` shape under ``/api/``, plain text elsewhere. Django's
own ``DATA_UPLOAD_MAX_MEMORY_SIZE`` sits at the largest limit, so it never
turns an allowed body into an error. Sync and async: on Daphne no request
pays a thread hop for it.

This spares the parsing only, not the reading: Daphne receives the whole
body and Django's ASGIHandler buffers it before any middleware runs. The
limits that keep a large body off the server are the proxy's
(``client_max_body_size`` in docs/deploy.md); Daphne never faces clients.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import gettext

from games.api.errors import too_large
from games.api.parsers import body_limit


def declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads no body for it either


def limit_for(request: HttpRequest) -> int:
    api = request.path_info.startswith("/api/")
    default = "API_MAX_BODY_BYTES" if api else "FORM_MAX_BODY_BYTES"
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return body_limit(None, default)
    return body_limit(getattr(view, "view_class", view), default)


def refusal(request: HttpRequest) -> HttpResponse | None:
    """A 413 for a body declared over its limit; None for every other request."""
    length = declared_length(request)
    if length <= settings.API_MAX_BODY_BYTES:  # the smallest limit: most requests end here
        return None
    limit = limit_for(request)
    if length <= limit:
        return None
    if request.path_info.startswith("/api/"):
        return JsonResponse(too_large(limit), status=413)
    text = gettext("The request is too large (at most %(n)s bytes).") % {"n": limit}
    return HttpResponse(text, status=413, content_type="text/plain; charset=utf-8")


@sync_and_async_middleware
def body_limit_middleware(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    if iscoroutinefunction(get_response):

        async def amiddleware(request: HttpRequest) -> HttpResponse:
            return refusal(request) or await get_response(request)

        return amiddleware

    def middleware(request: HttpRequest) -> HttpResponse:
        return refusal(request) or get_response(request)

    return middleware
