"""A push service for tests: an HTTP server on 127.0.0.1 that records what it
is sent and answers as the test tells it; and a device's keys, which decrypt
what the site sent."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's push keys: the P-256 pair and the auth secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def check_vapid(authorization: str, public_key: str, audience: str) -> dict[str, Any]:
    """The ``vapid t=<JWT>, k=<key>`` header: signed (ES256) by ``public_key``
    for ``audience``; returns the JWT's claims."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert parts["k"] == public_key
    head, claims, signature = parts["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    data = json.loads(unb64url(claims))
    assert data["aud"] == audience
    return data


class PushService:
    """Answers ``status`` (201 unless told otherwise), with a ``Location``
    header when ``location`` is set; with ``hang`` set, holds every request
    until ``release`` is set."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        self.location: str | None = None
        self.hang = False
        self.entered = threading.Event()
        self.release = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append((self.path, headers, body))
                service.entered.set()
                if service.hang:
                    service.release.wait(30)
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://localhost:{self.server.server_address[1]}"  # a host name: the site posts to no IP literal

    def endpoint(self, name: str = "device") -> str:
        return f"{self.origin}/push/{name}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def use_test_push_service(settings: Any, hosts: list[str]) -> None:
    """Settings that let the site push to a PushService on plain http, signed
    with fresh VAPID keys."""
    from games.services import push_keys

    settings.PUSH_ALLOW_HTTP = True  # the test's push service is plain http
    settings.PUSH_SERVICE_HOSTS = hosts
    settings.PUSH_TIMEOUT = 2.0
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push_keys.push_keys_generate()
    settings.VAPID_SUBJECT = "mailto:admin@example.org"
