"""Who may hold a personal token (issue 47, items 1 and 8): a guest never
(its account may become someone else's), and claiming a guest ends every
token and every other session it had; no token reaches the staff's queues."""

from __future__ import annotations

import secrets

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.tokens import PREFIX, digest_of
from moderation import roles
from tests.factories import make_user

pytestmark = pytest.mark.django_db
ADDRESS = "203.0.113.91"


@pytest.fixture(autouse=True)
def _cheap_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def new_guest() -> tuple[Client, object]:
    client = Client(REMOTE_ADDR=ADDRESS)
    assert client.post("/accounts/guest/", {"next": "/"}).status_code == 302
    return client, get_user_model().objects.get(pk=client.session["_auth_user_id"])


def planted_token(user, scopes=("read", "play", "challenge")) -> str:
    """A token as a guest could make one before this fix (straight in the table)."""
    secret = PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(
        user=user, name="left", scopes=list(scopes), digest=digest_of(secret), prefix=secret[:8]
    )
    return secret


def test_a_guest_cannot_make_a_token_over_the_api_or_the_settings_page():
    client, guest = new_guest()
    answer = client.post(
        "/api/account/tokens/",
        {"name": "bot", "scopes": ["read", "play"]},
        content_type="application/json",
    )
    assert answer.status_code == 403 and answer.json()["code"] == "guest", answer.content
    page = client.post("/accounts/settings/tokens/", {"name": "bot", "scopes": ["read"]})
    assert page.status_code == 403 and 'data-testid="token-error"' in page.content.decode()
    assert not ApiToken.objects.filter(user=guest).exists()
    settings_page = client.get("/accounts/settings/").content.decode()
    assert 'data-testid="token-guest"' in settings_page
    assert 'data-testid="token-form"' not in settings_page


def test_claiming_a_guest_ends_its_tokens_and_its_other_sessions():
    browser, guest = new_guest()
    secret = planted_token(guest)
    key = Token.objects.create(user=guest).key
    other = Client(REMOTE_ADDR="203.0.113.92")  # the guest's cookie, kept elsewhere
    other.cookies["sessionid"] = browser.cookies["sessionid"].value
    assert other.get("/api/account/tokens/").status_code == 200
    assert bearer(secret).get(f"/api/players/{guest.username}/").status_code == 200

    signed_up = browser.post(
        "/accounts/signup/",
        {"username": "newowner", "password1": "a-long-pass-47", "password2": "a-long-pass-47"},
    )
    assert signed_up.status_code == 302
    owner = get_user_model().objects.get(pk=guest.pk)
    assert owner.username == "newowner" and not owner.is_guest

    refused = bearer(secret).get(f"/api/players/{owner.username}/")
    assert refused.status_code == 401 and refused.json()["code"] == "bad_token"
    assert not Token.objects.filter(key=key).exists()
    assert other.get("/api/account/tokens/").status_code == 403  # logged out there
    assert browser.get("/api/account/tokens/").status_code == 200  # not here


@pytest.mark.parametrize(
    "path",
    ["/api/moderation/reports/", "/api/remis/"],
)
def test_a_staff_members_read_token_reads_no_queue(path):
    staff = make_user(moderator=True)
    roles.grant(staff, roles.ARBITERS)
    session = Client()
    session.force_login(staff)
    assert session.get(path).status_code == 200  # the session still does
    secret = planted_token(staff, scopes=("read", "play", "challenge"))
    refused = bearer(secret).get(path)
    assert refused.status_code == 403 and refused.json()["code"] == "scope", refused.content


def test_a_token_cannot_act_on_a_case_or_a_player():
    staff = make_user(moderator=True)
    target = make_user()
    secret = planted_token(staff)
    client = bearer(secret)
    assert client.get("/api/moderation/reports/1/").status_code == 403
    acted = client.post(
        f"/api/moderation/users/{target.username}/",
        {"action": "warn", "note": "x"},
        format="json",
    )
    assert acted.status_code == 403 and acted.json()["code"] == "scope"


@pytest.mark.parametrize(
    "path",
    ["/api/moderation/reports/", "/api/remis/"],
)
def test_the_passwords_token_reaches_no_staff_queue_either(path):
    """Staff endpoints take a browser session only: the account's own token
    (``/api/token/``, sent as ``Authorization: Token``) is refused too."""
    staff = make_user(moderator=True)
    roles.grant(staff, roles.ARBITERS)
    key = Token.objects.create(user=staff).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    refused = client.get(path)
    assert refused.status_code == 403, refused.content
    acted = client.post(
        f"/api/moderation/users/{make_user().username}/", {"action": "warn"}, format="json"
    )
    assert acted.status_code == 403
