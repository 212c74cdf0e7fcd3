"""Device cookies (OWASP, "Slow down online guessing attacks with device
cookies"): a browser that has logged in to an account before keeps logging in
while strangers' failures have the account locked out.

After a login the browser gets a signed, HttpOnly cookie naming the accounts
it logged in to and a random nonce. django-axes asks ``trusted_attempt``
(AXES_WHITELIST_CALLABLE) about every try: one that presents a valid cookie
for the name it tries is neither refused by nor counted into the lock-outs of
the account or the address. It has its own budget instead, per nonce: after
DEVICE_FAILURE_LIMIT failures within the cool-off time the cookie is worth
nothing and the browser is a stranger again, so a stolen cookie buys a few
guesses, not a brute force.
"""

from __future__ import annotations

import secrets
from typing import Any

from axes.helpers import get_client_username
from django.conf import settings
from django.core import signing
from django.core.cache import cache

SALT = "accounts.devices"
MAX_NAMES = 5  # accounts one browser is trusted for (a family's computer)


def _cookie(request: Any) -> dict[str, Any] | None:
    """The request's device cookie, if it is one this site signed and not too old."""
    raw = request.COOKIES.get(settings.DEVICE_COOKIE_NAME)
    if not raw:
        return None
    try:
        found = signing.loads(raw, salt=SALT, max_age=settings.DEVICE_COOKIE_DAYS * 86400)
    except signing.BadSignature:
        return None
    if not isinstance(found, dict) or not isinstance(found.get("u"), list):
        return None
    return found


def device_for(request: Any, username: Any) -> str | None:
    """The nonce of the request's device cookie when it names ``username``."""
    found = _cookie(request)
    if found is None or not isinstance(username, str) or username not in found["u"]:
        return None
    return str(found.get("n", ""))


def _failures_key(nonce: str) -> str:
    return f"device-failures:{nonce}"


def _cooloff() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def trusted_attempt(request: Any, credentials: dict | None = None) -> bool:
    """django-axes' whitelist: a known device for this name, within its own budget."""
    nonce = device_for(request, get_client_username(request, credentials))
    if not nonce:
        return False
    return cache.get(_failures_key(nonce), 0) < settings.DEVICE_FAILURE_LIMIT


def count_failure(sender: Any, credentials: dict, request: Any = None, **kwargs: Any) -> None:
    """user_login_failed: a known device's failure counts into its own budget."""
    if request is None:
        return
    nonce = device_for(request, get_client_username(request, credentials))
    if not nonce:
        return
    key = _failures_key(nonce)
    if not cache.add(key, 1, timeout=_cooloff()):
        cache.incr(key)
        cache.touch(key, timeout=_cooloff())


def remember(request: Any, response: Any, username: str) -> None:
    """Trust this browser for ``username`` from now on (after a login)."""
    found = _cookie(request) or {}
    names = [name for name in found.get("u", []) if name != username]
    value = {"u": [username, *names][:MAX_NAMES], "n": found.get("n") or secrets.token_hex(16)}
    response.set_cookie(
        settings.DEVICE_COOKIE_NAME,
        signing.dumps(value, salt=SALT),
        max_age=settings.DEVICE_COOKIE_DAYS * 86400,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
