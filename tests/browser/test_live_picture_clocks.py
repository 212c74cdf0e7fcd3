"""TV and the embed show the players' clocks and whose turn it is (issue 48,
item 7), live: the clocks count down on the page from the server's numbers
(clock.js, the game page's own), and a move changes the turn line and the
clocks through the game socket's frames."""

from __future__ import annotations

import pytest

from tests.factories import FIRST_MOVE

from .axe import AxeMixin, require_axe
from .helpers import BrowserLiveTestCase, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

REALTIME = {"kind": "realtime", "minutes": 10, "increment": 0}
CLOCK_TEXT_JS = "(sel) => document.querySelector(sel).textContent"


class LivePictureClocks(AxeMixin, BrowserLiveTestCase):
    impacts = ["serious", "critical"]

    def open(self, path: str, width: int):
        page = self.new_page(path)
        page.set_extra_http_headers({"Accept-Language": "de"})
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(self.live_server_url + path)
        return page

    def assert_ticks(self, page, clocks: str, seat: int, other_shows: str | None) -> None:
        """The running seat's clock counts down by itself, the other stands
        (showing ``other_shows`` when given)."""
        running = f"[data-testid={clocks}] .clock[data-seat='{seat}']"
        page.wait_for_selector(f"{running}.running")
        first = page.evaluate(CLOCK_TEXT_JS, running)
        page.wait_for_function(f"(t) => ({CLOCK_TEXT_JS})({running!r}) !== t", arg=first)
        other = f"[data-testid={clocks}] .clock[data-seat='{1 - seat}']"
        assert page.is_visible(other) and not page.is_visible(f"{other}.running")
        if other_shows is not None:
            assert page.evaluate(CLOCK_TEXT_JS, other) == other_shows

    def test_tv_and_embed_show_clocks_and_whose_turn_live(self):
        require_axe()
        anna, bruno = self.users("anna", "bruno")
        game = started_table("halma", [anna, bruno], seat_count=2, clock=REALTIME)
        embed = self.open(f"/embed/{game}/", 360)
        tv = self.open("/tv/halma/", 1280)
        for page, prefix in ((embed, "embed"), (tv, "tv")):
            page.wait_for_selector(f"[data-testid={prefix}-turn]:has-text('anna')")
            self.assert_ticks(page, f"{prefix}-clocks", 0, "10:00")
        self.shot(embed, "embed-de-360")
        self.shot(tv, "tv-de-1280")

        # Anna moves on her page: the server pushes it, both pictures follow.
        player = self.new_page("anna", anna)
        player.goto(f"{self.live_server_url}/g/{game}/")
        self.wait_connected(player)
        self.move(player, FIRST_MOVE["path"])
        for page, prefix in ((embed, "embed"), (tv, "tv")):
            page.wait_for_selector(f"[data-testid={prefix}-turn]:has-text('bruno')")
            assert "anna" not in page.inner_text(f"[data-testid={prefix}-turn]")
            self.assert_ticks(page, f"{prefix}-clocks", 1, None)
        assert self.axe(tv, "tv") == []
        assert self.axe(embed, "embed") == []
        assert self.page_errors == []
