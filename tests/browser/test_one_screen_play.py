"""Play at one screen in Chromium: the lobby's form starts a Halma game for
Anna and Ben on one account; the page covers the board with "Pass the device
to Anna" until Anna taps (or presses Enter), she moves, and the cover hands
the device to Ben, whose move hands it back. Malefiz for Anna, the computer
and Ben: the bot's turns play without a cover, every named turn begins with
one. axe-core finds nothing on the cover or the lobby's form.

Run: .venv/bin/pytest tests/browser/test_one_screen_play.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest

from games.models import Game
from lobby.services import table_create
from tests.factories import make_user

from .axe import AxeMixin, require_axe
from .helpers import BrowserLiveTestCase, InstantBotsLiveTestCase, key, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

COVER = "[data-testid=handover-cover]"
TAP = "[data-testid=handover-tap]"


class CoverMixin:
    def wait_cover(self, page, name: str) -> None:
        page.wait_for_selector(f"{COVER} >> text=Pass the device to {name}")
        self.assertEqual(page.inner_text(TAP), f"I am {name}")
        # Nothing of the game shows behind the cover.
        self.assertEqual(page.eval_on_selector("#game", "el => el.style.visibility"), "hidden")


class OneScreenTests(CoverMixin, BrowserLiveTestCase):
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


class OneScreenAxeTests(AxeMixin, InstantBotsLiveTestCase):
    def test_the_hand_over_cover_and_the_lobby_form_have_no_violation(self):
        require_axe()
        holder = make_user("dad")
        game = off_loop(
            table_create,
            host=holder,
            ruleset="malefiz",
            one_screen=True,
            names=["Anna", {"bot": "easy"}, "Ben", "Cleo"],
        )
        page = self.new_page("cover", user=holder)
        page.goto(f"{self.live_server_url}/g/{game.pk}/")
        # The roll-off decides who starts; a bot's first turn plays without a cover.
        page.wait_for_selector(f"{COVER} >> text=Pass the device to")
        self.assertEqual(self.axe(page, "cover"), [])
        page.goto(f"{self.live_server_url}/")
        page.wait_for_selector("[data-testid=one-screen-name-0]")
        self.assertEqual(self.axe(page, "lobby"), [])
        self.assertEqual(self.page_errors, [])


class OneScreenBotTests(CoverMixin, InstantBotsLiveTestCase):
    """Malefiz for Anna, the computer and Ben: the bot's turns just play (no
    cover); each named player's turn begins with the hand-over."""

    def play_turn(self, page) -> None:
        """Roll, then the first legal move by clicks (and a barricade if taken)."""
        page.wait_for_selector("[data-testid=roll]:not([disabled])")
        before = page.evaluate("() => window.__game.model.version")
        page.click("[data-testid=roll]")
        self.wait_version(page, before + 1)
        legal = page.evaluate("() => window.__game.model.state.legal")
        if not legal:
            return  # no move with this roll: the site passes by itself
        action = legal[0]
        field = "house" if action["from"] == "house" else key(action["from"])
        page.click(f'#board .piece.movable[data-field="{field}"] >> nth=0')
        page.wait_for_selector(f'#board .piece.selected[data-field="{field}"]')
        page.click(f'#board .mz-target:not(.reach)[data-target="{key(action["to"])}"]')
        self.wait_version(page, before + 2)
        legal = page.evaluate("() => window.__game.model.state.legal")
        if legal and legal[0]["type"] == "barricade":
            page.click(f'#board .target.mz-place[data-target="{key(legal[0]["to"])}"]')
            self.wait_version(page, before + 3)

    def test_bots_turns_play_between_the_hand_overs(self):
        page = self.new_page("malefiz", user=make_user("gran"))
        page.set_viewport_size({"width": 360, "height": 800})
        page.goto(f"{self.live_server_url}/")
        page.select_option("[data-testid=one-screen-ruleset]", "malefiz")
        page.select_option("[data-testid=one-screen-count]", "3")
        page.fill("[data-testid=one-screen-name-0]", "Anna")
        page.select_option("[data-testid=one-screen-who-1]", "easy")
        page.fill("[data-testid=one-screen-name-2]", "Ben")
        page.click("[data-testid=one-screen-start]")
        page.wait_for_url("**/g/*/")
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        self.assertEqual(Game.objects.get(pk=game_id).bots, {"1": "easy"})
        self.wait_connected(page)
        names = {0: "Anna", 2: "Ben"}
        for turn in range(3):
            page.wait_for_selector(COVER)
            seat = page.evaluate("() => window.__game.model.seat")
            self.assertIn(seat, names)
            self.wait_cover(page, names[seat])
            if turn == 0:
                self.shot(page, "cover-360")
            page.click(TAP)
            page.wait_for_selector(COVER, state="detached")
            self.play_turn(page)
            if turn == 0:
                self.shot(page, "after-move-360")
        # Three named turns in a cycle of three seats: the bot played in between.
        page.wait_for_function(
            "() => window.__game.model.events.some((e) => e.seat === 1 && e.kind === 'act')"
        )
        moves = self.state(page)["moves"]
        self.assertTrue(any("Anna" in line for line in moves), moves)
        self.assertTrue(any("Ben" in line for line in moves), moves)
        self.assertEqual(self.page_errors, [])
