"""The owner of an account locked by many addresses gets in by a one-time
log-in link mailed to the account (issue 47, item 9): signed, single-use,
short-lived, throttled per account and per asking address, and telling
nothing about which accounts exist."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from tests.factories import make_user

pytestmark = pytest.mark.django_db
PASSWORD = "pw-123456789"  # tests.factories.make_user's
OWNER_ADDRESS = "192.0.2.40"


@pytest.fixture(autouse=True)
def _cheap_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def locked_owner(settings, name: str = "olga"):
    user = make_user(name)
    user.email = f"{name}@example.org"
    user.save()
    for i in range(settings.LOGIN_SPREAD_LIMIT):
        Client().post(
            "/accounts/login/",
            {"username": name, "password": "wrong"},
            REMOTE_ADDR=f"203.0.113.{i}",
        )
    browser = Client(REMOTE_ADDR=OWNER_ADDRESS)
    answer = browser.post("/accounts/login/", {"username": name, "password": PASSWORD})
    assert answer.status_code == 429
    return user, browser


def ask(browser: Client, name: str):
    return browser.post("/accounts/login/link/", {"username": name})


def mailed_path() -> str:
    found = re.search(r"https?://[^/\s]+(/accounts/login/link/[^\s]+/)", mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return found.group(1)


def test_the_owner_gets_in_by_a_mailed_link_once(settings):
    user, browser = locked_owner(settings)
    sent = ask(browser, user.username)
    assert sent.status_code == 200 and 'data-testid="login-link-sent"' in sent.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [user.email]
    path = mailed_path()
    page = browser.get(path)  # a mail scanner's fetch uses nothing up
    assert page.status_code == 200 and 'data-testid="login-link-go"' in page.content.decode()
    assert "_auth_user_id" not in browser.session
    assert browser.post(path).status_code == 302
    assert browser.session["_auth_user_id"] == str(user.pk)
    again = Client().post(path)
    assert again.status_code == 400 and 'data-testid="login-link-bad"' in again.content.decode()
    # The browser is trusted now: its password logins pass the account's lock.
    browser.post("/accounts/logout/")
    login = browser.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert login.status_code == 302


def test_links_are_throttled_and_tell_nothing_about_names(settings):
    settings.LOGIN_LINKS_PER_HOUR = 3
    user, browser = locked_owner(settings)
    first, second = ask(browser, user.username), ask(browser, user.username)
    unknown = ask(browser, "nobody-here")
    assert first.status_code == second.status_code == unknown.status_code == 200
    assert 'data-testid="login-link-sent"' in unknown.content.decode()
    assert len(mail.outbox) == 1  # one link per account per LOGIN_LINK_MINUTES
    refused = ask(browser, user.username)  # the address's fourth ask this hour
    assert refused.status_code == 429 and "Too many log-in links" in refused.content.decode()
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("token", ["x", "eyJ1IjoxfQ:1abc:forged", "a" * 300])
def test_a_forged_link_logs_nobody_in(token):
    make_user("olga")
    client = Client()
    assert client.post(f"/accounts/login/link/{token}/").status_code == 400
    assert "_auth_user_id" not in client.session


def test_a_link_expires(settings):
    user, browser = locked_owner(settings)
    ask(browser, user.username)
    path = mailed_path()
    settings.LOGIN_LINK_MINUTES = 0
    assert browser.post(path).status_code == 400
