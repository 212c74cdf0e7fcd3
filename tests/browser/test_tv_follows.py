"""TV (issue 36): the page shows the featured live game and, when that game
ends, follows the next featured one by itself."""

from __future__ import annotations

import pytest

from tests.factories import FIRST_MOVE

from .helpers import BrowserLiveTestCase, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOWING = """(id) => { const b = document.getElementById('tv-board');
  return window.__tv && window.__tv.game() === id && !b.hidden && b.dataset.game === String(id)
    && b.complete && b.naturalWidth > 0; }"""


class TvFollows(BrowserLiveTestCase):
    def test_the_tv_follows_the_next_game_when_the_featured_one_ends(self):
        ann, bob, cid, dan = self.users("ann", "bob", "cid", "dan")
        older = started_table("halma", [cid, dan], seat_count=2)
        newer = started_table("halma", [ann, bob], seat_count=2)  # equal scores: the newer
        page = self.new_page("tv")
        page.goto(self.live_server_url + "/tv/halma/")
        page.wait_for_function(SHOWING, arg=newer)
        self.shot(page, "tv-featured")

        # The players act on their own pages, so the server pushes the changes
        # (a change made in this process would reach the page by its ping alone).
        white = self.new_page("tv-ann", ann)
        white.goto(f"{self.live_server_url}/g/{newer}/")
        self.wait_connected(white)
        self.move(white, FIRST_MOVE["path"])
        page.wait_for_function("() => document.getElementById('tv-board').dataset.version === '2'")
        black = self.new_page("tv-bob", bob)
        black.goto(f"{self.live_server_url}/g/{newer}/")
        self.wait_connected(black)
        self.resign(black)
        page.wait_for_function(SHOWING, arg=older)
        self.assertIn(f"#{older}", page.locator("[data-testid=tv-link]").inner_text())
        self.shot(page, "tv-next")

        page.set_viewport_size({"width": 360, "height": 740})
        self.shot(page, "tv-phone")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        self.assertLessEqual(width, 360)
        self.assertEqual(self.page_errors, [])
