"""One write at a time per personal token: a second write while the first
is being answered is 429 with ``retry_after`` (across processes, games/ratelimit.py).

A middleware, since the hold spans the whole request: taken before the view
runs, let go when its answer is made. Keyed by the secret's hash, before
the token is looked up, so an unknown token costs no extra query here.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from games import ratelimit

from .tokens import digest_of

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The longest a hold lasts if its request never lets go (a process killed mid-request).
HOLD_SECONDS = 30
RETRY_AFTER = 1


def bearer_of(request: HttpRequest) -> str | None:
    parts = request.headers.get("Authorization", "").split()
    if len(parts) == 2 and parts[0].lower() == "bearer":
        return parts[1]
    return None


class TokenWriteLock:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        secret = bearer_of(request) if request.method not in SAFE_METHODS else None
        if secret is None:
            return self.get_response(request)
        key, holder = f"token-write:{digest_of(secret)}", secrets.token_hex(8)
        if not ratelimit.hold(key, holder, HOLD_SECONDS):
            return busy()
        try:
            return self.get_response(request)
        finally:
            ratelimit.let_go(key, holder)


def busy() -> JsonResponse:
    response = JsonResponse(
        {
            "code": "rate_limited",
            "message": _("This token already has a request being answered; send one at a time."),
            "retry_after": RETRY_AFTER,
        },
        status=429,
    )
    response["Retry-After"] = str(RETRY_AFTER)
    return response
