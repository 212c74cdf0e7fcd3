"""Requests no page can answer, refused before any view runs.

A NUL byte in the path or the query string reached the database as a lookup
value: PostgreSQL refuses NUL in text (DataError, a 500 on /players/%00/,
a 503 from the API). No route, username, code or parameter holds one, so
the path is simply not found and the query is a bad request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse


class NulBytesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            raise Http404("no such page")
        if any("\x00" in k + v for k, values in request.GET.lists() for v in values):
            raise BadRequest("NUL in the query string")
        return self.get_response(request)
