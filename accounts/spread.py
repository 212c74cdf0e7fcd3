"""An account-wide lock-out needs failures from many addresses (issue 47).

django-axes counts failed logins per (account, address) and per address
(config/settings.py): a stranger's wrong passwords lock out the stranger's
address, never the owner's. Failures from many addresses at once (a botnet)
are another matter: when ``LOGIN_SPREAD_LIMIT`` (20) different addresses
fail for one account within ``LOGIN_SPREAD_MINUTES`` (15), every stranger's
login to it is refused for the cool-off time. The owner still gets in: a
browser that logged in before (accounts/devices.py, axes' whitelist, asked
first) or a one-time log-in link e-mailed to the account
(accounts/login_links.py), which the lock-out page offers (OWASP's advice
against lock-out denial of service).

Counted in the shared cache and games/ratelimit.py (Redis in production), so
every process sees the same addresses.
"""

from __future__ import annotations

import hashlib
from typing import Any

from axes.handlers.cache import AxesCacheHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.core.cache import cache

from games import ratelimit


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _lock_key(username: str) -> str:
    return f"login-spread-lock:{_digest(username)}"


def account_locked(username: Any) -> bool:
    """Have many addresses' failures locked this account for strangers?"""
    return isinstance(username, str) and bool(cache.get(_lock_key(username)))


def count_failure(username: str, address: str) -> None:
    """One failure of ``address`` for ``username``: only an address new to the
    account within the window counts towards the account-wide lock."""
    window = settings.LOGIN_SPREAD_MINUTES * 60
    account = _digest(username)
    if not cache.add(f"login-spread:{account}:{_digest(address)}", 1, timeout=window):
        return
    limit = settings.LOGIN_SPREAD_LIMIT
    if ratelimit.hit(f"login-spread:{account}", limit - 1, window) is not None:
        cooloff = int(settings.AXES_COOLOFF_TIME.total_seconds())
        cache.set(_lock_key(username), 1, timeout=cooloff)


class SpreadLockHandler(AxesCacheHandler):
    """django-axes' cache handler (AXES_HANDLER), and the account-wide lock."""

    def is_locked(self, request: Any, credentials: dict | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        return account_locked(get_client_username(request, credentials))

    def user_login_failed(
        self, sender: Any, credentials: dict, request: Any = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is None or self.is_whitelisted(request, credentials):
            return
        username = get_client_username(request, credentials)
        if not isinstance(username, str) or not username:
            return
        count_failure(username, str(request.axes_ip_address))
        if account_locked(username) and not getattr(request, "axes_locked_out", False):
            # axes' middleware answers with the lock-out page when this is set
            # (its own counts set it only past the per-address limit).
            request.axes_locked_out = True
            request.axes_credentials = credentials
