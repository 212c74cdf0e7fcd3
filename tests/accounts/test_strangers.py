"""Strangers cannot lock a player out (device cookies), a taken name at
sign-up is a form error, and the vacation form is throttled like its API."""

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
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def attack(name: str, tries: int) -> None:
    """A stranger's wrong passwords for ``name``, each from another address."""
    for i in range(tries):
        Client().post(
            "/accounts/login/",
            {"username": name, "password": "wrong"},
            REMOTE_ADDR=f"203.0.113.{i % 250}",
        )


def login(client: Client, name: str, password: str, address: str = "192.0.2.10"):
    return client.post(
        "/accounts/login/", {"username": name, "password": password}, REMOTE_ADDR=address
    )


def known_browser(name: str) -> Client:
    """A browser that has logged in to ``name`` before, and logged out since."""
    browser = Client()
    assert login(browser, name, PASSWORD).status_code == 302
    assert browser.cookies["device"]["httponly"]
    browser.post("/accounts/logout/")
    return browser


# --- item 4: device cookies -------------------------------------------------------


def test_a_known_browser_logs_in_while_strangers_have_locked_the_account(settings):
    make_user("vera")
    browser = known_browser("vera")
    attack("vera", 30)  # three times the limit, and every try renews the lock
    refused = 0
    for _ in range(5):
        answer = login(browser, "vera", PASSWORD, "192.0.2.11")
        refused += answer.status_code != 302
        browser.post("/accounts/logout/")
    print(f"\nvictim's logins refused under attack: {refused} of 5")
    assert refused == 0
    # A browser the account never used is still refused: strangers are limited.
    assert login(Client(), "vera", PASSWORD, "192.0.2.12").status_code == 429


def test_a_known_client_gets_its_token_while_the_account_is_locked():
    make_user("wim")
    api = APIClient()
    first = api.post("/api/token/", {"username": "wim", "password": PASSWORD}, format="json")
    assert first.status_code == 200 and "device" in api.cookies
    attack("wim", 20)
    again = api.post("/api/token/", {"username": "wim", "password": PASSWORD}, format="json")
    assert again.status_code == 200, again.content
    stranger = APIClient().post(
        "/api/token/", {"username": "wim", "password": PASSWORD}, format="json"
    )
    assert stranger.status_code == 429


def test_a_stolen_device_cookie_buys_a_few_guesses_not_a_brute_force(settings):
    settings.DEVICE_FAILURE_LIMIT = 3
    make_user("xaver")
    thief = known_browser("xaver")
    attack("xaver", 20)
    answers = [login(thief, "xaver", f"guess{i}").status_code for i in range(5)]
    # Three wrong guesses on its own budget, then a stranger facing the lock.
    assert answers == [200, 200, 200, 429, 429]
    assert login(thief, "xaver", PASSWORD).status_code == 429


def test_a_device_cookie_counts_only_for_its_own_accounts_and_only_when_signed():
    make_user("yara")
    make_user("zeno")
    browser = known_browser("yara")
    attack("zeno", 20)
    assert login(browser, "zeno", PASSWORD).status_code == 429
    forged = Client()
    forged.cookies["device"] = browser.cookies["device"].value[:-2] + "xx"
    attack("yara", 20)
    assert login(forged, "yara", PASSWORD).status_code == 429
    assert login(browser, "yara", PASSWORD).status_code == 302


def test_a_known_browser_is_not_refused_for_its_address_either():
    make_user("ada")
    browser = known_browser("ada")
    for i in range(10):  # somebody behind the same address sprays names
        login(Client(), f"nobody{i}", "wrong", "192.0.2.10")
    assert login(Client(), "ada", PASSWORD, "192.0.2.10").status_code == 429
    assert login(browser, "ada", PASSWORD, "192.0.2.10").status_code == 302


def test_signing_up_remembers_the_browser():
    browser = Client()
    answer = browser.post(
        "/accounts/signup/",
        {"username": "neu", "password1": "xk-29-long-pass", "password2": "xk-29-long-pass"},
    )
    assert answer.status_code == 302
    browser.post("/accounts/logout/")
    attack("neu", 10)
    assert login(browser, "neu", "xk-29-long-pass").status_code == 302


# --- item 13: a taken name at sign-up -----------------------------------------------


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "A user with that username already exists."),
        ("de", "Dieser Benutzername ist bereits vergeben."),
    ],
)
@pytest.mark.parametrize("name", ["Otto", "otto", "OTTO"])
def test_a_taken_name_in_any_case_is_a_form_error_in_the_pages_language(name, language, message):
    make_user("Otto")
    client = Client(raise_request_exception=False)
    answer = client.post(
        "/accounts/signup/",
        {"username": name, "password1": "xk-29-long-pass", "password2": "xk-29-long-pass"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert message in text, text[:3000]
    assert get_user_model().objects.filter(username__iexact="otto").count() == 1


# --- item 14: the vacation form's budget --------------------------------------------


def test_the_vacation_form_is_throttled_like_its_api():
    user = make_user("toni")
    page = Client()
    page.force_login(user)
    answers = []
    for i in range(35):
        data = {"stop": "1"} if i % 2 else {"until": ""}
        answers.append(page.post("/accounts/settings/vacation/", data))
    passed = sum(a.status_code != 429 for a in answers)
    print(f"\nvacation toggles let through: {passed} of 35")
    assert passed == 30  # REST_FRAMEWORK's "tables" rate: 30 a minute
    # Of those, one start and one end: the next start waits (games/services/vacation.py).
    assert [a.status_code for a in answers[:3]] == [302, 302, 409]
    refused = answers[-1]
    assert refused.status_code == 429
    assert "Too many changes in a short time; try again in" in refused.content.decode()
    # One budget: the API refuses too.
    api = APIClient()
    api.force_authenticate(user)
    assert api.delete("/api/vacation/").status_code == 429
    german = page.post("/accounts/settings/vacation/", {"stop": "1"}, HTTP_ACCEPT_LANGUAGE="de")
    assert "Zu viele Änderungen in kurzer Zeit" in german.content.decode()
