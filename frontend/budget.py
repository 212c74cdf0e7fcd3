"""The budgets of views that are not the API's (pages, their forms, the
pictures, TV): each use counted with ``ratelimit.spend`` into the API
throttle's scope under its key (games/api/throttles.py), so a page is no way
around the API's budget, and one answer past it (``too_many``). Anonymous
visitors count per address, as the API counts them."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from games import ratelimit
from games.addresses import request_key


class OverBudget(Exception):
    """A request past its budget; ``wait``: the seconds until it opens again."""

    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


def spend(request: HttpRequest, scope: str, *, per_address: bool = False) -> None:
    """Count this request into ``scope``'s budget: the user's, else (or with
    ``per_address``) the address's. Past it, ``OverBudget``."""
    user = request.user
    ident = user.pk if user.is_authenticated and not per_address else request_key(request)
    wait = ratelimit.spend(scope, ident)
    if wait is not None:
        raise OverBudget(wait)


def too_many(request: HttpRequest, wait: int, *, page: bool = True) -> HttpResponse:
    """The one 429 of these views: ``Retry-After`` and a message saying how
    long to wait, on a page (``page``) or as the API's error body
    (``{"code": "rate_limited", "message", "retry_after"}``) for what a
    script or the page's own code reads."""
    message = _message(request, wait)
    if page:
        response = render(request, "frontend/too_many.html", {"message": message}, status=429)
    else:
        body = {"code": "rate_limited", "message": message, "retry_after": wait}
        response = JsonResponse(body, status=429)
    response["Retry-After"] = str(wait)
    return response


def _message(request: HttpRequest, wait: int) -> str:
    if request.method == "POST":
        text = ngettext(
            "Too many changes in a short time; try again in %(n)s second.",
            "Too many changes in a short time; try again in %(n)s seconds.",
            wait,
        )
    else:
        text = ngettext(
            "Too many requests in a short time; try again in %(n)s second.",
            "Too many requests in a short time; try again in %(n)s seconds.",
            wait,
        )
    return text % {"n": wait}


def budget(
    scope: str,
    *,
    methods: Collection[str] = ("POST",),
    page: bool = True,
    per_address: bool = False,
) -> Callable:
    """A view's requests of ``methods`` spend the ``scope`` budget (``spend``);
    past it, ``too_many`` answers instead of the view."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method in methods:
                try:
                    spend(request, scope, per_address=per_address)
                except OverBudget as over:
                    return too_many(request, over.wait, page=page)
            return view(request, *args, **kwargs)

        wrapper.write_budget = scope  # type: ignore[attr-defined]
        return wrapper

    return decorate


def write_budget(scope: str) -> Callable:
    """A page view's POSTs spend the ``scope`` budget; past it, a 429 page."""
    return budget(scope)
