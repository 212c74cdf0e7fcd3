"""The API's default throttle: its own module, since DRF imports it from the
settings while its views module is still loading (so no APIView here)."""

from __future__ import annotations

from rest_framework import permissions
from rest_framework.throttling import ScopedRateThrottle

from .. import ratelimit
from ..addresses import request_key

# A bot account (accounts/bot_upgrade.py) gets this fraction of each budget.
BOT_SHARE = 4


class AddressIdent:
    """Anonymous clients told apart by the address games/addresses.py resolves
    (DRF's own get_ident believes X-Forwarded-For by NUM_PROXIES alone)."""

    def get_ident(self, request) -> str:
        return request_key(request)


class SharedThrottle(AddressIdent, ScopedRateThrottle):
    """The view's ``throttle_scope`` (else ``default_scope``) per user, else
    per address (``AddressIdent``), under the key the sockets count their twin
    frames with (``ratelimit.API_SCOPES``). Counted with ratelimit.hit() in
    the shared cache: DRF's own history is a read-modify-write that racing
    requests overwrite, so two processes (or threads) let through up to twice
    the rate.
    """

    default_scope = "writes"

    def allow_request(self, request, view) -> bool:
        self.scope = getattr(view, self.scope_attr, None) or self.default_scope
        self.num_requests, self.duration = ratelimit.scope_rate(self.scope)
        if getattr(request.user, "plays_by_api", False):  # a person's bot: tighter
            self.num_requests = max(1, self.num_requests // BOT_SHARE)
        key = self.get_cache_key(request, view)
        self.retry_after = ratelimit.hit(key, self.num_requests, self.duration)
        return self.retry_after is None

    def get_cache_key(self, request, view) -> str:
        user = request.user
        ident = user.pk if user and user.is_authenticated else self.get_ident(request)
        return ratelimit.budget_key(self.scope or self.default_scope, ident)

    def wait(self) -> float | None:
        return self.retry_after


class WriteThrottle(SharedThrottle):
    """Per-user limits on writes only (reads stay free): the view's
    ``throttle_scope``, else the ``writes`` budget. The default throttle of
    every API view (settings), so a new write view cannot forget one."""

    def allow_request(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return super().allow_request(request, view)


class ReadThrottle(SharedThrottle):
    """Costly reads (and whatever else the view's scope names) counted too."""

    default_scope = "reads"
