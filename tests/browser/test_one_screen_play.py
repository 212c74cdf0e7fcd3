"""Play at one screen in Chromium: the lobby's form starts a Halma game for
Anna and Ben on one account; the page covers the board with "Pass the device
to Anna" until Anna taps (or presses Enter), she moves, and the cover hands
the device to Ben, whose move hands it back.

Run: .venv/bin/pytest tests/browser/test_one_screen_play.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import make_user

from .helpers import BrowserLiveTestCase

pytestmark = [pytest.mark.browser, pytest.mark.live]

COVER = "[data-testid=handover-cover]"
TAP = "[data-testid=handover-tap]"


class OneScreenTests(BrowserLiveTestCase):
    def wait_cover(self, page, name: str) -> None:
        page.wait_for_selector(f"{COVER} >> text=Pass the device to {name}")
        self.assertEqual(page.inner_text(TAP), f"I am {name}")
        # Nothing of the game shows behind the cover.
        self.assertEqual(page.eval_on_selector("#game", "el => el.style.visibility"), "hidden")

    def test_a_family_passes_one_device_between_turns(self):
        page = self.new_page("family", user=make_user("mum"))
        page.goto(f"{self.live_server_url}/")
        page.select_option("[data-testid=one-screen-ruleset]", "halma")
        page.fill("[data-testid=one-screen-name-0]", "Anna")
        page.fill("[data-testid=one-screen-name-1]", "Ben")
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("[data-testid=one-screen-form]").scroll_into_view_if_needed()
            self.shot(page, f"lobby-{width}")
        page.click("[data-testid=one-screen-start]")
        page.wait_for_url("**/g/*/")
        game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        self.assertEqual(game.one_screen, {"names": ["Anna", "Ben"]})
        self.assertIs(game.rated, False)

        self.wait_connected(page)
        self.wait_cover(page, "Anna")
        self.shot(page, "cover-anna-360")
        page.keyboard.press("Enter")  # the button has the focus: Enter takes the device
        page.wait_for_selector(COVER, state="detached")
        self.assertEqual(self.state(page)["status_text"], "Anna, your turn.")
        self.assertIn("Anna", page.inner_text("#players"))
        self.assertIn("Ben", page.inner_text("#players"))
        self.shot(page, "anna-360")
        self.move(page, [[5, 9], [4, 9]])

        self.wait_cover(page, "Ben")
        page.set_viewport_size({"width": 1280, "height": 900})
        self.shot(page, "cover-ben-1280")
        page.click(TAP)
        page.wait_for_selector(COVER, state="detached")
        page.wait_for_function("() => window.__game.model.seat === 1")
        self.assertEqual(self.state(page)["status_text"], "Ben, your turn.")
        self.move(page, [[4, 0], [5, 0]])

        self.wait_cover(page, "Anna")
        page.click(TAP)
        page.wait_for_selector(COVER, state="detached")
        moves = self.state(page)["moves"]
        self.assertTrue(any("Anna" in line for line in moves), moves)
        self.assertTrue(any("Ben" in line for line in moves), moves)
        page.set_viewport_size({"width": 360, "height": 800})
        self.shot(page, "anna-again-360")
        self.assertEqual(Game.objects.get(pk=game.pk).version, 3)
        self.assertEqual(self.page_errors, [])
        self.assert_modules_hashed("lobby-one-screen.js", "game-screen.js")
