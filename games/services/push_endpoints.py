"""Which push endpoints the site posts to.

A subscription's endpoint is a URL a visitor hands in, and the sender posts
to it: so it is checked with the sender's own parse (pywebpush posts with
requests, which prepares the URL with urllib3's ``parse_url`` and then reads
the prepared URL back with ``urlsplit``), never with a parser of its own. Two
parsers reading one string differently is how
``https://evil.example\\@fcm.googleapis.com/`` passed a host check on
``fcm.googleapis.com`` while requests posted to ``evil.example``.

Only the plainest form passes: https, no user-info, no port but 443, a host
name (no IP literal, no trailing dot, nothing percent-encoded) that is one of
``PUSH_SERVICE_HOSTS`` or a subdomain of one, printable ASCII without
backslashes. Browsers' push endpoints all look like that. The API checks it on
subscribing, the sender again before each push (rows stored before a rule
was added are never posted to).
"""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit

import requests
from django.conf import settings
from urllib3.exceptions import LocationParseError
from urllib3.util import Url, parse_url

# Dot-separated DNS labels, lower case (urllib3 lower-cases http(s) hosts).
HOST_NAME = re.compile(
    r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
)


class BadEndpoint(ValueError):
    """An endpoint the site does not post to; ``kind`` says which rule it
    broke: "scheme", "form" (user-info, port, backslash, IP literal ...) or
    "host" (not a listed push service)."""

    def __init__(self, kind: str, reason: str, host: str = "") -> None:
        super().__init__(reason)
        self.kind = kind
        self.host = host


def push_endpoint_check(endpoint: str) -> Url:
    """The endpoint as the sender will reach it; raises ``BadEndpoint``."""
    prepared, url = _parse(endpoint)
    plain_http = url.scheme == "http" and settings.PUSH_ALLOW_HTTP  # tests' own services
    if url.scheme != "https" and not plain_http:
        raise BadEndpoint("scheme", f"scheme {url.scheme!r}")
    if url.auth is not None:
        raise BadEndpoint("form", "user-info")
    if url.port not in (None, 443) and not plain_http:
        raise BadEndpoint("form", f"port {url.port}")
    host = url.host or ""
    if not HOST_NAME.fullmatch(host) or _ip_literal(host):
        raise BadEndpoint("form", f"host {host!r} is no plain host name")
    again = urlsplit(prepared)  # what requests' adapter connects to
    if (again.hostname, again.port) != (host, url.port):
        raise BadEndpoint("form", "read two ways")
    if not _listed(host):
        raise BadEndpoint("host", f"host {host!r} is no listed push service", host)
    return url


def _parse(endpoint: str) -> tuple[str, Url]:
    """The URL as requests prepares it, and urllib3's reading of that."""
    if not endpoint.isascii() or not endpoint.isprintable() or " " in endpoint:
        raise BadEndpoint("form", "not printable ASCII")
    if "\\" in endpoint:
        raise BadEndpoint("form", "a backslash")
    try:
        authority = urlsplit(endpoint).netloc
        prepared = requests.Request("POST", endpoint).prepare().url or ""
        url = parse_url(prepared)
    except (requests.RequestException, LocationParseError, ValueError) as exc:
        raise BadEndpoint("form", "not a URL") from exc
    if set(authority) & set("@%"):  # user-info, however spelt or encoded
        raise BadEndpoint("form", "user-info or percent-encoding before the path")
    return prepared, url


def _listed(host: str) -> bool:
    """Whether ``host`` is one of ``PUSH_SERVICE_HOSTS`` or a subdomain of one
    ("*": any host)."""
    allowed = [h.lower() for h in settings.PUSH_SERVICE_HOSTS]
    return "*" in allowed or any(host == h or host.endswith("." + h) for h in allowed)


def _ip_literal(host: str) -> bool:
    """Also the forms the resolver takes for IPv4: 127.1, 2130706433, 0x7f.1."""
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True
