"""What a client is told when django-axes has locked its logins out.

django-axes (config/settings.py) counts failed logins per (account, address)
and per address and refuses that address's tries, the right password too,
for AXES_COOLOFF_TIME after the last try; many addresses' failures lock the
whole account (accounts/spread.py). Its middleware calls ``lockout_response``
(AXES_LOCKOUT_CALLABLE) to answer a locked-out login. When the account
itself is locked the answer offers a one-time log-in link by e-mail
(accounts/login_links.py): the owner is never shut out by strangers.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import spread


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


def link_offer() -> str:
    return _(
        "Many failed attempts from many places have locked this account for a while. "
        "If it is yours, get a one-time log-in link by e-mail."
    )


def lockout_json(username: Any = None) -> dict[str, Any]:
    """The API's answer (status 429), in its usual error shape; ``login_link``
    (where to ask for one) when the account itself is locked."""
    if spread.account_locked(username):
        return {
            "code": "locked_out",
            "message": link_offer(),
            "retry_after": lockout_seconds(),
            "login_link": reverse("login-link-request"),
        }
    return {"code": "locked_out", "message": lockout_message(), "retry_after": lockout_seconds()}


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """429: the login page with the lock-out message, or JSON under /api/."""
    username = request.POST.get("username", "")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(lockout_json(username), status=429)
    else:
        # Unbound: binding the form would try the password once more.
        form = AuthenticationForm(request, initial={"username": username})
        offer = spread.account_locked(username)
        context = {
            "form": form,
            "locked_out": link_offer() if offer else lockout_message(),
            "link_offer": offer,
            "next": request.POST.get("next", ""),
        }
        response = render(request, "accounts/login.html", context, status=429)
    response["Retry-After"] = str(lockout_seconds())
    return response
