"""A page whose socket is refused for too many sockets from its address says
so, in the page's language (the lobby socket closed with 4429)."""

from __future__ import annotations

import pytest

from .helpers import BrowserLiveTestCase

pytestmark = [pytest.mark.browser, pytest.mark.live]


class SocketCapPage(BrowserLiveTestCase):
    SERVER_ENV = {"SOCKETS_PER_ADDRESS": "1"}

    def lobby(self, name: str, language: str):
        page = self.new_page(name)
        page.context.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{self.live_server_url}/")
        return page

    def test_the_page_over_the_cap_says_why(self):
        first = self.lobby("first", "en")
        first.wait_for_function(
            "() => document.getElementById('lobby-live').dataset.state === 'open'"
        )
        second = self.lobby("second", "de")
        toast = second.locator("#toast")
        toast.wait_for(state="visible")
        assert toast.inner_text() == (
            "Zu viele offene Verbindungen von deiner Adresse; schließe einige Seiten."
        )
        assert toast.get_attribute("data-kind") == "error"
        self.shot(second, "refused-de")
        assert (
            second.evaluate("() => document.getElementById('lobby-live').dataset.state") != "open"
        )
        # The first page kept its socket and was told nothing.
        assert first.locator("#toast").is_hidden()
        assert first.evaluate("() => document.getElementById('lobby-live').dataset.state") == "open"
        self.shot(first, "kept-en")
        assert not self.page_errors
