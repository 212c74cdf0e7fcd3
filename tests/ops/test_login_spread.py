"""Strangers cannot lock an owner out (issue 47, item 9), measured on two
Daphne processes behind the nginx shape (TRUSTED_PROXY_COUNT=1, the flags of
docs/deploy.md) sharing PostgreSQL and Redis, each try on the other process.

Before: after 10 wrong passwords from one stranger's address a new browser
and /api/token/ were refused (429) from every address for 15 minutes. Now
failures count per (account, address): the stranger's address is refused,
the owner from anywhere else gets in; only 20 addresses' failures lock the
whole account, and then the owner gets in by a one-time link mailed to the
account (the console mail backend writes it into the server's log)."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import urllib.parse
import urllib.request

import pytest

from .cluster import Daphne, unique, wait_until
from .test_client_addresses import NoRedirect, call, documented_daphne

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]

PASSWORD = "xk-47-long-pass"
FAILURES = 10  # LOGIN_FAILURE_LIMIT
SPREAD = 20  # LOGIN_SPREAD_LIMIT


def proxied(address: str) -> dict[str, str]:
    """The header nginx writes: the address it saw, appended last."""
    return {"X-Forwarded-For": f"10.66.0.1, {address}"}


def token_try(server: Daphne, name: str, password: str, address: str) -> tuple[int, dict]:
    body = json.dumps({"username": name, "password": password}).encode()
    headers = {"Content-Type": "application/json", **proxied(address)}
    request = urllib.request.Request(server.http + "/api/token/", body, headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class Browser:
    """A fresh browser (its own cookies) at one address."""

    def __init__(self, address: str) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )
        self.headers = proxied(address)

    def page(self, url: str) -> str:
        with self.opener.open(urllib.request.Request(url, headers=self.headers)) as answer:
            return answer.read().decode()

    def post_form(self, url: str, fields: dict[str, str], form_page: str | None = None) -> int:
        page = self.page(form_page or url)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        return call(url, body, self.headers, self.opener)

    def login_page_answer(self, server: Daphne, name: str) -> tuple[int, str]:
        page = self.page(server.http + "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": name, "password": PASSWORD}
        ).encode()
        request = urllib.request.Request(server.http + "/accounts/login/", body, self.headers)
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()


def sign_up(server: Daphne, name: str) -> None:
    owner = Browser("198.51.100.1")
    fields = {
        "username": name,
        "email": f"{name}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    assert owner.post_form(server.http + "/accounts/signup/", fields) == 302


async def two_servers(cluster) -> tuple[Daphne, Daphne]:
    a, b = await asyncio.gather(
        documented_daphne(cluster, "daphne-a", TRUSTED_PROXY_COUNT="1"),
        documented_daphne(cluster, "daphne-b", TRUSTED_PROXY_COUNT="1"),
    )
    return a, b


async def test_a_strangers_failures_lock_out_only_the_strangers_address(cluster):
    a, b = await two_servers(cluster)
    name = unique("owner")[:30]
    await asyncio.to_thread(sign_up, a, name)
    stranger = "203.0.113.9"
    answers = [
        (await asyncio.to_thread(token_try, (a, b)[i % 2], name, "wrong", stranger))[0]
        for i in range(FAILURES)
    ]
    assert answers == [400] * (FAILURES - 1) + [429]
    status, body = await asyncio.to_thread(token_try, b, name, PASSWORD, stranger)
    assert status == 429 and body["code"] == "locked_out"
    # The owner, from an address of its own, with no cookie: a new browser.
    status, body = await asyncio.to_thread(token_try, a, name, PASSWORD, "198.51.100.2")
    print(f"\nowner's /api/token/ after a stranger's {FAILURES} failures: {status}")
    assert status == 200 and body["token"]
    status, _ = await asyncio.to_thread(Browser("198.51.100.3").login_page_answer, b, name)
    print(f"owner's login form in a new browser: {status}")
    assert status == 302


async def test_many_addresses_lock_the_account_and_the_owner_gets_in_by_a_link(cluster):
    a, b = await two_servers(cluster)
    name = unique("owner")[:30]
    await asyncio.to_thread(sign_up, b, name)
    for i in range(SPREAD):
        await asyncio.to_thread(token_try, (a, b)[i % 2], name, "wrong", f"203.0.113.{i}")
    status, body = await asyncio.to_thread(token_try, a, name, PASSWORD, "198.51.100.2")
    assert status == 429 and body["login_link"] == "/accounts/login/link/", body
    owner = Browser("198.51.100.4")
    status, page = await asyncio.to_thread(owner.login_page_answer, b, name)
    assert status == 429 and 'data-testid="login-link-offer"' in page
    asked = await asyncio.to_thread(
        owner.post_form, a.http + "/accounts/login/link/", {"username": name}
    )
    assert asked == 200
    pattern = re.compile(r"https?://\S+?(/accounts/login/link/[^\s/]+/)")

    def mailed() -> str | None:
        found = pattern.search(a.log.read_text(errors="replace"))
        return found.group(1) if found else None

    await wait_until(lambda: mailed() is not None, 20, "the mailed log-in link")
    path = mailed()
    # Opened on the other process: the link is the database's and the signer's.
    status = await asyncio.to_thread(owner.post_form, b.http + path, {})
    assert status == 302
    assert (
        await asyncio.to_thread(
            call, b.http + "/accounts/settings/", None, owner.headers, owner.opener
        )
        == 200
    )
    again = await asyncio.to_thread(
        Browser("198.51.100.5").post_form, a.http + path, {}, a.http + "/accounts/login/link/"
    )
    assert again == 400  # used up
