"""The client's address, the one place that decides it: for HTTP requests
(login lock-outs, sign-ups, the API's throttles) and for socket scopes (the
cap on sockets per address). ``address_key`` turns it into the key all those
limits count under (an IPv6 address counts as its /64).

``TRUSTED_PROXY_COUNT`` proxies in front of Daphne each append the address
they saw to X-Forwarded-For. With 0 the socket's peer is the client and every
forwarded header is the client's own claim, so none is read. With N the client
is the Nth entry from the right; entries further left were written by the
client. A header with fewer entries, or an entry that is no IP address, gives
no address (None): such clients are counted together, never let through.

Daphne must run without ``--proxy-headers`` (docs/deploy.md): with it, Daphne
puts the leftmost, client-written entry where the peer's address belongs.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings

UNKNOWN = "unknown"  # the shared key of clients whose address cannot be read


def request_address(request: Any) -> str | None:
    """The client address of a Django (or DRF) request."""
    meta = request.META
    return _resolve(meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR"))


def scope_address(scope: dict[str, Any]) -> str | None:
    """The client address of an ASGI scope (a socket's)."""
    client = scope.get("client")
    peer = client[0] if client else None
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name.lower() == b"x-forwarded-for"
    ]
    return _resolve(peer, ",".join(forwarded) if forwarded else None)


def address_key(address: str | None) -> str:
    """``address`` as a counter's key part; unreadable ones share one key.

    An IPv6 address counts as its /64: one subscriber usually holds a whole
    /64 and could otherwise take a fresh address for every request.
    """
    if not address:
        return UNKNOWN
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return address


def request_key(request: Any) -> str:
    """``request_address`` as a counter's key (django-axes, sign-ups, throttles)."""
    return address_key(request_address(request))


def _resolve(peer: str | None, forwarded_for: str | None) -> str | None:
    hops = settings.TRUSTED_PROXY_COUNT
    if hops == 0:
        return _valid(peer)
    if not forwarded_for:
        return None
    entries = [entry.strip() for entry in forwarded_for.split(",")]
    if len(entries) < hops:
        return None
    return _valid(entries[-hops])


def _valid(text: str | None) -> str | None:
    if not text:
        return None
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None
