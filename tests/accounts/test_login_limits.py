"""Failed logins lock out per (account, address) and per address
(django-axes), the whole account only after failures from many addresses
(accounts/spread.py), for the login form and /api/token/ alike; sign-ups are
limited per address."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "pw-123456789"  # tests.factories.make_user's


@pytest.fixture(autouse=True)
def _cheap_hashing(settings):
    """Each try hashes a password: the site's hasher takes about half a second."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def limit(settings) -> int:
    return settings.AXES_FAILURE_LIMIT


def form_login(username: str, password: str, address: str = "198.51.100.1", **extra):
    return Client().post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def token_login(username: str, password: str, address: str = "198.51.100.1", **extra):
    return APIClient().post(
        "/api/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **extra,
    )


def assert_locked_page(response) -> None:
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed attempts; try again in 15 minutes." in text
    assert response["Retry-After"] == "900"
    assert "_auth_user_id" not in response.wsgi_request.session


def assert_locked_json(response) -> None:
    assert response.status_code == 429
    assert response.json() == {
        "code": "locked_out",
        "message": "Too many failed attempts; try again in 15 minutes.",
        "retry_after": 900,
    }
    assert response["Retry-After"] == "900"


def test_a_few_failures_do_not_lock_anyone_out(limit):
    dora = make_user("dora")
    for _ in range(limit - 1):
        assert form_login("dora", "wrong").status_code == 200
    assert form_login("dora", PASSWORD).status_code == 302
    assert token_login(dora.username, PASSWORD).json()["token"]


def test_one_address_locks_out_only_itself_for_the_account(limit):
    """Issue 47, item 9: a stranger's failures from one address refuse that
    address for the account; the owner from anywhere else gets in."""
    make_user("dora")
    answers = [form_login("dora", "wrong", "203.0.113.1") for _ in range(limit)]
    assert [a.status_code for a in answers[:-1]] == [200] * (limit - 1)
    assert_locked_page(answers[-1])  # the try that reached the limit is told at once
    assert_locked_page(form_login("dora", PASSWORD, "203.0.113.1"))
    assert form_login("dora", PASSWORD, "192.0.2.77").status_code == 302
    assert token_login("dora", PASSWORD, "192.0.2.78").json()["token"]


def test_many_addresses_lock_the_account_and_offer_a_log_in_link(settings, limit):
    make_user("dora")
    spread = settings.LOGIN_SPREAD_LIMIT
    answers = [form_login("dora", "wrong", f"203.0.113.{i}") for i in range(spread)]
    assert [a.status_code for a in answers[:-1]] == [200] * (spread - 1)
    page = form_login("dora", PASSWORD, "192.0.2.77")
    assert page.status_code == 429 and page["Retry-After"] == "900"
    text = page.content.decode()
    assert "get a one-time log-in link by e-mail" in text
    assert 'data-testid="login-link-offer"' in text and 'value="dora"' in text
    refused = token_login("dora", PASSWORD, "192.0.2.78")
    assert refused.status_code == 429
    assert refused.json()["code"] == "locked_out"
    assert refused.json()["login_link"] == "/accounts/login/link/"
    # Other accounts are not affected.
    make_user("emil")
    assert form_login("emil", PASSWORD, "192.0.2.79").status_code == 302


def test_the_login_form_locks_an_address_out_for_every_account(limit):
    make_user("fritz")
    for i in range(limit):
        form_login(f"nobody{i}", "wrong", "203.0.113.9")
    assert_locked_page(form_login("fritz", PASSWORD, "203.0.113.9"))
    assert form_login("fritz", PASSWORD, "203.0.113.10").status_code == 302


def test_the_locked_login_page_keeps_the_username_and_tells_how_long(limit):
    make_user("gerda")
    for _ in range(limit):
        form_login("gerda", "wrong")
    page = form_login("gerda", PASSWORD)
    assert_locked_page(page)
    assert 'value="gerda"' in page.content.decode()
    german = form_login("gerda", PASSWORD, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 429 and 'lang="de"' in german.content.decode()


def test_the_token_view_locks_one_address_out_for_the_account(limit):
    make_user("hans")
    answers = [token_login("hans", "wrong", "203.0.113.3") for _ in range(limit)]
    assert [a.status_code for a in answers[:-1]] == [400] * (limit - 1)
    assert_locked_json(answers[-1])
    assert_locked_json(token_login("hans", PASSWORD, "203.0.113.3"))
    assert token_login("hans", PASSWORD, "192.0.2.1").json()["token"]
    assert form_login("hans", PASSWORD, "192.0.2.2").status_code == 302


def test_the_token_view_locks_an_address_out_for_every_account(limit):
    make_user("ida")
    for i in range(limit):
        token_login(f"nobody{i}", "wrong", "203.0.113.20")
    assert_locked_json(token_login("ida", PASSWORD, "203.0.113.20"))
    assert token_login("ida", PASSWORD, "203.0.113.21").json()["token"]


# --- the client address behind the proxy ---------------------------------------------


@pytest.fixture
def behind_nginx(settings):
    """The nginx of docs/deploy.md in front (games/addresses.py reads the setting)."""
    settings.TRUSTED_PROXY_COUNT = 1


def test_behind_the_proxy_the_address_it_saw_is_locked_whatever_the_client_claims(
    behind_nginx, limit
):
    make_user("jana")
    # nginx appends the address it saw; what the client wrote stays to its left.
    for i in range(limit):
        form_login(
            f"nobody{i}", "wrong", "127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.9.{i}, 203.0.113.5"
        )
    locked = form_login("jana", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5")
    assert_locked_page(locked)
    elsewhere = form_login("jana", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert elsewhere.status_code == 302


def test_without_a_proxy_a_forwarded_for_header_is_ignored(limit):
    make_user("karl")
    for i in range(limit):
        token_login(f"nobody{i}", "wrong", "203.0.113.30", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}")
    assert_locked_json(token_login("karl", PASSWORD, "203.0.113.30"))


# --- sign-ups -------------------------------------------------------------------------


def signup(name: str, address: str, **extra):
    return Client().post(
        "/accounts/signup/",
        {
            "username": name,
            "email": "",
            "password1": "xk-29-long-pass",
            "password2": "xk-29-long-pass",
        },
        REMOTE_ADDR=address,
        **extra,
    )


def test_sign_ups_are_limited_per_address(settings):
    settings.SIGNUPS_PER_HOUR = 3
    assert [signup(f"new{i}", "203.0.113.40").status_code for i in range(3)] == [302] * 3
    refused = signup("new3", "203.0.113.40")
    assert refused.status_code == 429
    text = refused.content.decode()
    assert "Too many new accounts from your address; try again in 60 minutes." in text
    assert not get_user_model().objects.filter(username="new3").exists()
    assert signup("new3", "203.0.113.41").status_code == 302


def test_sign_ups_behind_the_proxy_count_the_address_it_saw(settings, behind_nginx):
    settings.SIGNUPS_PER_HOUR = 1
    assert signup("p0", "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.50").status_code == 302
    spoofed = signup("p1", "127.0.0.1", HTTP_X_FORWARDED_FOR="10.1.1.1, 203.0.113.50")
    assert spoofed.status_code == 429
    assert signup("p2", "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.51").status_code == 302


def test_invalid_sign_ups_do_not_count(settings):
    settings.SIGNUPS_PER_HOUR = 1
    bad = Client().post(
        "/accounts/signup/",
        {"username": "q", "password1": "a", "password2": "b"},
        REMOTE_ADDR="203.0.113.60",
    )
    assert bad.status_code == 200
    assert signup("q", "203.0.113.60").status_code == 302


def test_clients_whose_address_cannot_be_read_share_one_count(behind_nginx, limit):
    """No address where the proxy's entry belongs (junk, or no header at all)
    gives no address: those clients are counted together, not let through."""
    make_user("lena")
    for i in range(limit):
        form_login(f"nobody{i}", "wrong", "127.0.0.1", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}, x{i}")
    assert_locked_page(form_login("lena", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR='"'))
    assert (
        form_login("lena", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.99").status_code
        == 302
    )


@pytest.mark.django_db(transaction=True)
async def test_the_lock_out_is_answered_under_asgi_too(limit):
    """Daphne runs the middleware chain asynchronously (axes' other code path)."""
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    await sync_to_async(make_user)("mia")
    client = AsyncClient()
    for _ in range(limit):
        await client.post("/accounts/login/", {"username": "mia", "password": "wrong"})
    page = await client.post("/accounts/login/", {"username": "mia", "password": PASSWORD})
    assert page.status_code == 429
    assert "Too many failed attempts; try again in 15 minutes." in page.content.decode()
    token = await client.post(
        "/api/token/", {"username": "mia", "password": PASSWORD}, content_type="application/json"
    )
    assert token.status_code == 429 and token.json()["code"] == "locked_out"
