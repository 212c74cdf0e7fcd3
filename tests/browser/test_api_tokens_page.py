"""The settings page's API tokens and bot button, in Chromium, by keyboard:
a token is made (its secret shown once), listed with its prefix, and
revoked; the bot button needs its box ticked. Fits 360 px.

Run: .venv/bin/pytest tests/browser/test_api_tokens_page.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest

from accounts.models import ApiToken
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class ApiTokenPageTests(BrowserLiveTestCase):
    def test_make_see_once_and_revoke_a_token_by_keyboard(self):
        user = make_user("tokenbob")
        page = self.new_page("bob", user=user)
        page.goto(f"{self.live_server_url}/accounts/settings/")
        page.focus("[data-testid=token-name]")
        page.keyboard.type("my board")
        page.keyboard.press("Tab")  # read (ticked)
        page.keyboard.press("Tab")  # play
        page.keyboard.press("Space")
        page.keyboard.press("Tab")  # challenge
        page.keyboard.press("Tab")  # the button
        page.keyboard.press("Enter")
        secret = page.locator("[data-testid=new-token-secret]")
        secret.wait_for()
        token = off_loop(ApiToken.objects.get, user=user)
        assert token.scopes == ["read", "play"] and token.name == "my board"
        assert secret.inner_text().startswith(token.prefix)
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("#api-tokens").scroll_into_view_if_needed()
            self.shot(page, f"token-made-{width}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.goto(f"{self.live_server_url}/accounts/settings/")
        assert page.locator("[data-testid=new-token-secret]").count() == 0  # shown once
        row = page.locator(f"[data-testid=token-{token.pk}]")
        assert "my board" in row.inner_text() and "never used" in row.inner_text()
        row.locator("button").focus()
        page.keyboard.press("Enter")
        page.locator("[data-testid=token-list] .hint").wait_for()
        assert off_loop(ApiToken.objects.filter(user=user).count) == 0

        page.locator("[data-testid=bot-upgrade]").click()  # the box is not ticked: nothing
        assert not off_loop(lambda: type(user).objects.get(pk=user.pk).is_bot)
        page.check("[data-testid=bot-confirm]")
        page.locator("[data-testid=bot-upgrade]").click()
        page.locator("[data-testid=bot-status]").wait_for()
        page.set_viewport_size({"width": 360, "height": 900})
        page.locator("#bot-account").scroll_into_view_if_needed()
        self.shot(page, "bot-account-360")
        assert off_loop(lambda: type(user).objects.get(pk=user.pk).plays_by_api)
        assert self.page_errors == []
