"""The remis queue page walks a long queue by keyset pages: next and back,
the count capped, on a phone (issue 31)."""

from __future__ import annotations

import pytest

from games.selectors import remis as remis_reads
from tests.factories import make_user
from tests.games.test_flat_pages import waiting_requests

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


# A function, not an expression: the page's CSP forbids eval.
COUNT = "([sel, n]) => document.querySelectorAll(sel).length === n"


class RemisQueuePages(BrowserLiveTestCase):
    def test_next_and_back_walk_the_queue_by_keyset(self):
        made = off_loop(waiting_requests, 30)
        admin = off_loop(make_user, "arbiter", staff=True)
        first = off_loop(remis_reads.queue_page)
        page = self.new_page("arbiter", admin)
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{self.live_server_url}/remis/")
        cards = "[data-testid=remis-queue] > li"
        page.wait_for_function(COUNT, arg=[cards, 25])
        assert page.inner_text("#page-label") == "page 1 of 2"
        assert page.is_disabled("#prev-page")
        page.focus("#next-page")
        page.keyboard.press("Enter")
        page.wait_for_function(COUNT, arg=[cards, 5])
        assert page.inner_text("#page-label") == "page 2 of 2"
        assert page.is_disabled("#next-page")
        shown = page.eval_on_selector_all(cards, "els => els.map((e) => +e.dataset.request)")
        assert set(shown).isdisjoint(i["id"] for i in first["items"])
        assert len(set(shown) | {i["id"] for i in first["items"]}) == len(made)
        page.click("#prev-page")
        page.wait_for_function(COUNT, arg=[cards, 25])
        assert page.inner_text("#page-label") == "page 1 of 2"
