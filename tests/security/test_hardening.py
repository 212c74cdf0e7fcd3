"""Deployment hardening: production settings, CSRF on the HTML forms, socket origins."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from tests.db_threads import sync_to_async
from tests.factories import make_user, started_game

ROOT = Path(__file__).resolve().parents[2]


def run_django(args: list[str], **env: str) -> subprocess.CompletedProcess:
    """A fresh interpreter with a clean Django environment (no test settings leak in)."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL", "SQLITE_"))
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def vapid_keys() -> dict[str, str]:
    """The web push key pair production demands."""
    from games.services.push_keys import push_keys_generate

    public, private = push_keys_generate()
    return {"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}


# What a production start needs besides the secret key (docs/deploy.md).
PRODUCTION = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
    "SITE_URL": "https://brettspiele.example",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    **vapid_keys(),
}


def test_check_deploy_is_clean_in_production():
    result = run_django(
        ["manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        **PRODUCTION,
        DJANGO_ALLOWED_HOSTS="brettspiele.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_django(["manage.py", "check"], DJANGO_ENV="production")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SITE_URL", None),  # the default, http://localhost:8000
        ("SITE_URL", "http://brettspiele.example"),
        ("SITE_URL", "https://127.0.0.1:8443"),
        ("EMAIL_BACKEND", None),  # the default, the console
        ("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend"),
        ("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend"),
    ],
)
def test_production_refuses_to_start_with_a_local_site_url_or_no_real_mail(name, value):
    env = {k: v for k, v in PRODUCTION.items() if k != name}
    if value is not None:
        env[name] = value
    for args in (["manage.py", "check"], ["-m", "daphne", "config.asgi:application"]):
        result = run_django(args, **env)
        assert result.returncode != 0
        assert "ImproperlyConfigured" in result.stderr and name in result.stderr, result.stderr


def test_debug_is_off_unless_asked_for():
    code = "from django.conf import settings; print(settings.DEBUG)"
    setup = "import django; django.setup(); "
    base = {"DJANGO_SETTINGS_MODULE": "config.settings"}
    assert run_django(["-c", setup + code], **base).stdout.strip() == "False"
    production = {**base, **PRODUCTION, "DJANGO_DEBUG": "true"}
    assert run_django(["-c", setup + code], **production).stdout.strip() == "False"
    assert settings.DEBUG is False  # and the suite itself runs without it


# --- CSRF on the HTML forms ---------------------------------------------------------


@pytest.fixture
def csrf_client():
    return Client(enforce_csrf_checks=True)


def _token(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return client.cookies["csrftoken"].value


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "data", "login"),
    [
        ("/accounts/login/", {"username": "csrfuser", "password": "pw-123456789"}, False),
        (
            "/accounts/signup/",
            {"username": "newbie", "password1": "Zebra-Kite-4711", "password2": "Zebra-Kite-4711"},
            False,
        ),
        ("/accounts/settings/", {"email": "a@b.example", "email_notifications": "on"}, True),
        ("/i18n/setlang/", {"language": "de", "next": "/"}, False),
    ],
)
def test_html_forms_refuse_posts_without_a_csrf_token(csrf_client, url, data, login):
    user = make_user("csrfuser")
    if login:
        csrf_client.force_login(user)
    refused = csrf_client.post(url, data)
    assert refused.status_code == 403, (url, refused.status_code)
    # a wrong token is refused too
    csrf_client.get("/accounts/login/")
    wrong = csrf_client.post(url, {**data, "csrfmiddlewaretoken": "x" * 64})
    assert wrong.status_code == 403
    # with the page's token the same post goes through
    page = url if url != "/i18n/setlang/" else "/accounts/login/"
    token = _token(csrf_client, page)
    accepted = csrf_client.post(url, {**data, "csrfmiddlewaretoken": token})
    assert accepted.status_code == 302, (url, accepted.status_code)


@pytest.mark.django_db
def test_logout_needs_a_csrf_token(csrf_client):
    csrf_client.force_login(make_user())
    assert csrf_client.post("/accounts/logout/").status_code == 403
    assert "_auth_user_id" in csrf_client.session


@pytest.mark.django_db
def test_session_api_posts_need_a_csrf_token(csrf_client):
    """Browsers use the session cookie on the API: a cross-site post is refused."""
    csrf_client.force_login(make_user())
    response = csrf_client.post(
        "/api/tables/", {"ruleset": "halma"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["code"]


# --- websocket origins --------------------------------------------------------------

FOREIGN = [
    b"http://evil.example",
    b"https://localhost.evil.example",
    b"http://127.0.0.1.evil.example",
    b"null",
    b"file://",
    b"",
]


def _session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("url", ["game", "lobby", "notify", "remis"])
async def test_sockets_refuse_foreign_origins(url):
    """Staff with a seat would be let in everywhere: only the Origin refuses them."""

    def build():
        staff, other = make_user(staff=True), make_user()
        game = started_game(players=[staff, other])
        return game, _session_cookie(staff)

    game, cookie = await sync_to_async(build)()
    path = f"/ws/game/{game.pk}/" if url == "game" else f"/ws/{url}/"

    async def connects(headers) -> bool:
        comm = WebsocketCommunicator(application, path, headers=[(b"cookie", cookie), *headers])
        connected, _ = await comm.connect(timeout=3)
        if connected:
            await comm.disconnect()
        return connected

    assert await connects([(b"origin", b"http://localhost")]), "the control must connect"
    for origin in FOREIGN:
        assert not await connects([(b"origin", origin)]), (path, origin)
    assert not await connects([]), f"{path} without an Origin header"


@pytest.mark.django_db
def test_a_nul_in_the_query_is_a_json_400_in_the_api_and_a_page_elsewhere():
    api = Client().get("/api/tournaments/?q=a%00b")
    assert api.status_code == 400 and api["Content-Type"] == "application/json"
    assert api.json()["code"] == "bad_request"
    page = Client().get("/leaderboard/halma/?q=a%00b")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
