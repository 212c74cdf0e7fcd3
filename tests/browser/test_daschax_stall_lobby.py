"""The Daschax house rule's option in the lobby form (issue 50), in Chromium.

The form is built from the ruleset's options, so Daschax offers
"Turns without a capture to a draw" (150). Set to 0 at a rated table (the
form's default) the server refuses it and the form says why; made casual,
the table opens and its game page names the rule off among the variants.

Run: .venv/bin/pytest tests/browser/test_daschax_stall_lobby.py -q
Screenshots: artifacts/screenshots/test_the_form_offers_the_limit_casual_only-*.png
"""

from __future__ import annotations

import pytest

from games.models import Game

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

FIELD = "#options-fields input[name=stall_turns]"


class DaschaxStallLobbyTests(BrowserLiveTestCase):
    def test_the_form_offers_the_limit_casual_only(self) -> None:
        (host,) = self.users("host")
        for width in (1280, 360):
            page = self.new_page(f"host-{width}", host)
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(self.live_server_url + "/")
            page.select_option("[data-testid=ruleset-select]", "daschax")
            field = page.wait_for_selector(FIELD)
            self.assertEqual(field.input_value(), "150")
            label = page.locator(
                "#options-fields label", has=page.locator("input[name=stall_turns]")
            )
            self.assertIn("Turns without a capture to a draw", label.inner_text())
            page.fill(FIELD, "0")
            page.click("#more-table summary")
            self.assertTrue(page.is_checked("[data-testid=rated]"))
            page.click("[data-testid=create-table]")
            error = page.wait_for_selector("#form-error:not([hidden])")
            self.assertIn("stall_turns", error.inner_text())
            self.assertIn("casual", error.inner_text())
            self.assertEqual(off_loop(Game.objects.count), 0)
            error.scroll_into_view_if_needed()
            self.shot(page, f"refused-{width}")

        page.uncheck("[data-testid=rated]")
        page.click("[data-testid=create-table]")
        page.wait_for_url("**/g/*/")
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        game = off_loop(Game.objects.get, pk=game_id)
        self.assertEqual((game.options["stall_turns"], game.rated), (0, False))
        self.assertEqual(self.page_errors, [])
