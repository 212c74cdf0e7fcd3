"""Page forms that do what an API write does spend the same per-user budget
(the API throttle's scope, games/api/throttles.py), so the page is no way
around it. Anonymous visitors count per address, as the API counts them."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from games import ratelimit
from games.addresses import request_key


def post_wait(request: HttpRequest, scope: str) -> int | None:
    """Count this POST into ``scope``'s budget: None, or the seconds to wait."""
    user = request.user
    ident = user.pk if user.is_authenticated else request_key(request)
    limit, seconds = ratelimit.scope_rate(scope)
    return ratelimit.hit(ratelimit.budget_key(scope, ident), limit, seconds)


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    message = ngettext(
        "Too many changes in a short time; try again in %(n)s second.",
        "Too many changes in a short time; try again in %(n)s seconds.",
        wait,
    ) % {"n": wait}
    response = render(request, "frontend/too_many.html", {"message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


def write_budget(scope: str) -> Callable:
    """A page view's POSTs spend the ``scope`` budget; over it, a 429 page."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST":
                wait = post_wait(request, scope)
                if wait is not None:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        wrapper.write_budget = scope  # type: ignore[attr-defined]
        return wrapper

    return decorate
