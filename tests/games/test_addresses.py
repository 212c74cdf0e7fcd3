"""games/addresses.py: the one place that decides a client's address, for
requests and socket scopes alike (TRUSTED_PROXY_COUNT semantics)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from games.addresses import address_key, request_address, request_key, scope_address

CASES = [
    # (proxies, peer, X-Forwarded-For, the client's address)
    (0, "203.0.113.1", None, "203.0.113.1"),
    (0, "203.0.113.1", "198.51.100.9", "203.0.113.1"),  # the client's claim: ignored
    (0, "2001:db8::1", "198.51.100.9", "2001:db8::1"),
    (1, "127.0.0.1", "198.51.100.9", "198.51.100.9"),
    (1, "127.0.0.1", "10.0.0.1, 10.0.0.2,198.51.100.9", "198.51.100.9"),
    (2, "127.0.0.1", "10.0.0.1, 198.51.100.9, 192.0.2.1", "198.51.100.9"),
    (2, "127.0.0.1", "198.51.100.9", None),  # fewer entries than proxies
    (1, "127.0.0.1", None, None),  # no proxy's entry at all
    (1, "127.0.0.1", "198.51.100.9, junk", None),
    (1, "127.0.0.1", "", None),
]


@pytest.mark.parametrize(("proxies", "peer", "forwarded", "expected"), CASES)
def test_requests_and_scopes_agree(settings, proxies, peer, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    extra = {"REMOTE_ADDR": peer}
    headers = []
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
        headers.append((b"x-forwarded-for", forwarded.encode()))
    request = RequestFactory().get("/", **extra)
    assert request_address(request) == expected
    assert scope_address({"client": (peer, 5000), "headers": headers}) == expected
    key = "2001:db8::/64" if expected == "2001:db8::1" else expected
    assert request_key(request) == (key or "unknown")


def test_x_real_ip_is_never_read(settings):
    for proxies in (0, 1):
        settings.TRUSTED_PROXY_COUNT = proxies
        request = RequestFactory().get(
            "/", REMOTE_ADDR="203.0.113.1", HTTP_X_REAL_IP="198.51.100.1"
        )
        assert request_address(request) in ("203.0.113.1", None)


def test_a_scope_without_a_peer_has_no_address(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert scope_address({"client": None, "headers": []}) is None


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("192.0.2.1", "192.0.2.1"),
        (None, "unknown"),
    ],
)
def test_limits_count_an_ipv6_address_as_its_64(address, key):
    assert address_key(address) == key
