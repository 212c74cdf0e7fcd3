"""A guest's visits keep it alive (accounts/services/guests.py cleans up those
idle for a day): one UPDATE at most every ten minutes, and nothing at all for
requests without a session cookie."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from accounts.services.guests import guest_seen


class GuestSeenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and getattr(user, "is_guest", False):
                guest_seen(user)
        return self.get_response(request)
