"""What a client is told when django-axes has locked its logins out.

django-axes (config/settings.py) counts failed logins per account and per
client address and refuses them all, the right password too, for
AXES_COOLOFF_TIME after the last try. Its middleware calls
``lockout_response`` (AXES_LOCKOUT_CALLABLE) to answer a locked-out login.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def lockout_seconds() -> int:
    """How long a lock-out lasts after the latest try (each try during it restarts it)."""
    return math.ceil(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = max(1, math.ceil(lockout_seconds() / 60))
    return ngettext(
        "Too many failed attempts; try again in %(n)s minute.",
        "Too many failed attempts; try again in %(n)s minutes.",
        minutes,
    ) % {"n": minutes}


def lockout_json() -> dict[str, Any]:
    """The API's answer (status 429), in its usual error shape."""
    return {"code": "locked_out", "message": lockout_message(), "retry_after": lockout_seconds()}


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """429: the login page with the lock-out message, or JSON under /api/."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(lockout_json(), status=429)
    else:
        # Unbound: binding the form would try the password once more.
        form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
        context = {
            "form": form,
            "locked_out": lockout_message(),
            "next": request.POST.get("next", ""),
        }
        response = render(request, "accounts/login.html", context, status=429)
    response["Retry-After"] = str(lockout_seconds())
    return response
