"""The site's VAPID key pair: production refuses to start without it (hosts
that each generated their own would break every subscription), one key
without the other is an error everywhere, and the generated key file is the
owner's only from the moment it exists."""

from __future__ import annotations

import json
import os
import secrets
import stat

import pytest

from games.services import push_keys
from tests.security.test_hardening import run_django

SETUP = "import django; django.setup(); from django.conf import settings; "
BASE = {"DJANGO_SETTINGS_MODULE": "config.settings"}
PRODUCTION = {
    **BASE,
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "SITE_URL": "https://brettspiele.example",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "VAPID_PUBLIC_KEY": "",
    "VAPID_PRIVATE_KEY": "",
}


def test_production_refuses_to_start_without_vapid_keys():
    result = run_django(["-c", SETUP], **PRODUCTION)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "VAPID_PUBLIC_KEY" in result.stderr and "generate" in result.stderr


def test_production_starts_with_both_vapid_keys():
    public, private = push_keys.push_keys_generate()
    env = {**PRODUCTION, "VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}
    result = run_django(["-c", SETUP + "print(settings.VAPID_PUBLIC_KEY)"], **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == public


@pytest.mark.parametrize("which", ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"])
@pytest.mark.parametrize("env", ["development", "production"])
def test_one_vapid_key_without_the_other_is_an_error_everywhere(which, env):
    public, private = push_keys.push_keys_generate()
    keys = {"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}
    half = {**PRODUCTION, "DJANGO_ENV": env, "VAPID_PUBLIC_KEY": "", "VAPID_PRIVATE_KEY": ""}
    half[which] = keys[which]
    result = run_django(["-c", SETUP], **half)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "both" in result.stderr


def test_the_key_file_is_private_from_its_creation(settings, tmp_path, monkeypatch):
    """Created 0600, not made so afterwards: with no chmod at all (and a
    umask that would leave it readable to all), it is still the owner's only."""
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_FILE = str(tmp_path / ".vapid.json")
    monkeypatch.setattr(os, "chmod", lambda *args, **kwargs: None)
    old = os.umask(0o022)
    try:
        public = push_keys.push_keys_get().public_key
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / ".vapid.json").stat().st_mode) == 0o600
    assert json.loads((tmp_path / ".vapid.json").read_text())["public_key"] == public
    assert [p.name for p in tmp_path.iterdir()] == [".vapid.json"]  # no temporary file left
