"""The site's VAPID key pair: it signs every push, and pages subscribe with
its public half (the Push API's ``applicationServerKey``).

From the environment (``VAPID_PUBLIC_KEY``, ``VAPID_PRIVATE_KEY``,
``VAPID_SUBJECT``) when set; otherwise generated once into ``VAPID_FILE`` (by
default ``.vapid.json`` beside the SQLite database, which git ignores), so the
embedded default has push without any set-up. Keys are base64url: the public
key an uncompressed P-256 point (65 bytes), the private key its 32-byte scalar
(the format of the web-push libraries' key generators). One key without the
other is an error (config/settings.py refuses it at start; production demands
both, since processes on several machines would each generate their own).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from py_vapid import Vapid02

_lock = threading.Lock()


@dataclass(frozen=True)
class VapidKeys:
    public_key: str
    private_key: str
    subject: str

    def signer(self) -> Vapid02:
        return _signer(self.private_key)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def push_keys_generate() -> tuple[str, str]:
    """A fresh key pair: (public, private), both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64url(public), _b64url(private)


# The name docs/deploy.md's key command used before (operators' scripts may keep it).
generate = push_keys_generate


@cache
def push_keys_get() -> VapidKeys:
    """The key pair in use (read or generated once per process)."""
    subject = settings.VAPID_SUBJECT
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    if public:  # config/settings.py refuses to start with one of the pair alone
        return VapidKeys(public, private, subject)
    public, private = _from_file(Path(settings.VAPID_FILE))
    return VapidKeys(public, private, subject)


def _from_file(path: Path) -> tuple[str, str]:
    with _lock:
        if not path.exists():
            public, private = push_keys_generate()
            # Written aside and renamed: a second process never reads half a file,
            # and the first one to rename wins for good.
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            _write_private(tmp, json.dumps({"public_key": public, "private_key": private}))
            try:
                os.link(tmp, path)  # fails if another process got there first
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
        data = json.loads(path.read_text())
        return data["public_key"], data["private_key"]


def _write_private(path: Path, text: str) -> None:
    """Write a new file that only its owner can read, from its first byte
    (a chmod after writing leaves a moment when anyone may read it)."""
    path.unlink(missing_ok=True)  # left by a process that died here, with our pid
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(text)


@cache
def _signer(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key=private_key)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: object) -> None:
    if setting.startswith("VAPID_"):
        push_keys_get.cache_clear()
