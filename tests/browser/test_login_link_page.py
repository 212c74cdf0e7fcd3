"""The lock-out page offers a one-time log-in link when many addresses have
locked the account (issue 47, item 9), in Chromium: asked for, mailed (the
live server's file mail backend), opened, used once. Fits 360 px.

The live server locks the account after one address's failure
(LOGIN_SPREAD_LIMIT=1): every request here comes from one address.

Run: .venv/bin/pytest tests/browser/test_login_link_page.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from .helpers import PASSWORD, BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]
MAIL_DIR = tempfile.mkdtemp(prefix="bsp-login-link-mail-")
LINK = re.compile(r"https?://[^/\s]+(/accounts/login/link/[^\s/]+/)")


def mailed_link() -> str | None:
    for path in Path(MAIL_DIR).glob("*.log"):
        found = LINK.search(path.read_text(errors="replace"))
        if found:
            return found.group(1)
    return None


class LoginLinkPageTests(BrowserLiveTestCase):
    SERVER_ENV = {
        "LOGIN_SPREAD_LIMIT": "1",
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": MAIL_DIR,
    }

    def look(self, page, name: str) -> None:
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 800})
            self.shot(page, f"{name}-{width}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name

    def test_a_locked_out_owner_gets_in_by_the_mailed_link_once(self):
        def owner():
            [user] = self.users("linda")
            user.email = "linda@example.org"
            user.save()

        off_loop(owner)
        page = self.new_page("linda")
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.fill("input[name=username]", "linda")
        page.fill("input[name=password]", "wrong")
        page.click("button[type=submit]")
        offer = page.locator("[data-testid=login-link-offer]")
        offer.wait_for()
        assert "one-time log-in link" in page.inner_text("[role=alert]")
        self.look(page, "locked-offer")

        page.fill("input[name=password]", PASSWORD)  # the right one is refused too
        page.click("form.form >> nth=0 >> button[type=submit]")
        offer.wait_for()
        page.locator("[data-testid=login-link-send]").click()
        page.locator("[data-testid=login-link-sent]").wait_for()
        self.look(page, "link-sent")

        path = mailed_link()
        assert path, list(Path(MAIL_DIR).iterdir())
        page.goto(self.live_server_url + path)
        page.locator("[data-testid=login-link-go]").wait_for()
        self.look(page, "link-confirm")
        page.locator("[data-testid=login-link-go]").click()
        page.wait_for_url(f"{self.live_server_url}/")
        assert page.inner_text("[data-testid=me]") == "linda"

        page.goto(self.live_server_url + path)
        page.locator("[data-testid=login-link-bad]").wait_for()
        self.look(page, "link-used")
        assert self.page_errors == []
