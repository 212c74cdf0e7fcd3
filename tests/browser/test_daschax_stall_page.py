"""The Daschax house rule on the page (issue 50), in Chromium against a live Daphne.

Two players shuffle a small piece each (a1 and j10 turn left, then right):
no capture is possible. The count is set in the stored state (98, later
147: the rules' tests play every turn; 150 turns through the services take
minutes on a busy machine), the turns around the marks are played. At 99
capture-free turns neither page shows the count in the head (the text view
does); at 100 both show "Capture-free turns: 100 / 150"; Black types the
150th turn and both pages show the draw, its reason, and the move list's
line for it.

Run: .venv/bin/pytest tests/browser/test_daschax_stall_page.py -q
Screenshots: artifacts/screenshots/test_the_count_shows_from_100_and_150_draws-*.png
"""

from __future__ import annotations

import dataclasses

import pytest

from games.models import Game
from games.rules.daschax import DaschaxRuleset

from .helpers import BrowserLiveTestCase, off_loop, play_scripted, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Turn n (from 0) of the shuffle, as (seat, action).
SHUFFLE = [
    (0, {"type": "turn", "at": [0, 0], "steps": ["L"]}),
    (1, {"type": "turn", "at": [9, 9], "steps": ["L"]}),
    (0, {"type": "turn", "at": [0, 0], "steps": ["R"]}),
    (1, {"type": "turn", "at": [9, 9], "steps": ["R"]}),
]


def shuffle(first: int, last: int) -> list:
    return [SHUFFLE[n % 4] for n in range(first, last)]


def set_count(game_id: int, count: int) -> None:
    """The stored state's capture-free turns set to ``count`` (the position stays)."""

    def write() -> None:
        rs = DaschaxRuleset()
        game = Game.objects.get(pk=game_id)
        state = dataclasses.replace(rs.decode(game.state), since_capture=count)
        Game.objects.filter(pk=game_id).update(state=rs.encode(state))

    off_loop(write)


class DaschaxStallPageTests(BrowserLiveTestCase):
    def head(self, page) -> str:
        return page.inner_text("#board .dx-head")

    def text_view(self, page) -> str:
        return page.eval_on_selector("#text-view", "(ul) => ul.textContent")

    def test_the_count_shows_from_100_and_150_draws(self) -> None:
        white, black = self.users("white", "black")
        options = {"formation": "SMSLSMSLSM", "move_first": "white"}
        game_id = started_table("daschax", [white, black], options=options)
        seats = {0: white, 1: black}
        version = play_scripted(game_id, seats, shuffle(0, 3))
        set_count(game_id, 98)
        version = play_scripted(game_id, seats, shuffle(3, 4))  # the 99th
        pages = {"white": self.new_page("white", white), "black": self.new_page("black", black)}
        pages["white"].set_viewport_size({"width": 1280, "height": 900})
        pages["black"].set_viewport_size({"width": 360, "height": 800})
        for page in pages.values():
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            self.wait_version(page, version)
            self.assertEqual(page.locator("[data-testid=dx-stall]").count(), 0)
            self.assertIn("Capture-free turns: 99 / 150", self.text_view(page))

        version = play_scripted(game_id, seats, shuffle(4, 5))  # the 100th
        for name, page in pages.items():
            self.wait_version(page, version)
            stall = page.wait_for_selector("[data-testid=dx-stall]")
            self.assertEqual(stall.inner_text(), "Capture-free turns: 100 / 150")
            self.assertIn("Capture-free turns: 100 / 150", self.text_view(page))
            self.shot(page, f"{name}-100")

        set_count(game_id, 147)
        version = play_scripted(game_id, seats, shuffle(5, 7))  # the 148th and the 149th
        page = pages["black"]
        self.wait_version(page, version)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=dx-stall]')?.textContent"
            " === 'Capture-free turns: 149 / 150'"
        )
        page.fill("[data-testid=move-input]", "j10 R")  # the 150th: j10 turns back
        page.press("[data-testid=move-input]", "Enter")
        for name, page in pages.items():
            self.wait_version(page, version + 1)
            banner = page.wait_for_selector("#banner:not([hidden])")
            self.assertIn(
                "Drawn: 150 turns in a row without a capture (the site's house rule).",
                banner.inner_text(),
            )
            self.assertIn("Draw", banner.inner_text())
            self.assertIn(
                "150 turns in a row without a capture: the game is drawn",
                page.inner_text("#moves"),
            )
            self.assertIn("Capture-free turns: 150 / 150", self.head(page))
            page.evaluate("() => window.scrollTo(0, 0)")  # the typed move scrolled a phone's page
            self.shot(page, f"{name}-drawn")
        self.assertEqual(self.page_errors, [])
