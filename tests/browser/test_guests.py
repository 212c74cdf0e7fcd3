"""Try it without an account (issue 29, item 9), in Chromium: a visitor plays
the computer as a guest (a generated name, marked "guest"), then signs up in
the same browser and finds the game under the new name; another visitor
takes a seat through an invite link as a guest. Before: no way to play
without signing up.

Run: .venv/bin/pytest tests/browser/test_guests.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Seat
from lobby.services import table_create
from tests.factories import make_user

from .helpers import PASSWORD, InstantBotsLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]
FITS_JS = "() => document.documentElement.scrollWidth"


class GuestTests(InstantBotsLiveTestCase):
    def fits(self, page, name: str) -> None:
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 800})
            self.shot(page, f"{name}-{width}")
            self.assertLessEqual(page.evaluate(FITS_JS), width, f"{name} at {width} px")
        page.set_viewport_size({"width": 1280, "height": 800})

    def test_a_guest_plays_the_computer_then_signs_up_and_keeps_the_game(self):
        page = self.new_page("visitor")
        page.goto(f"{self.live_server_url}/")
        self.fits(page, "lobby-visitor")
        page.click("[data-testid=play-as-guest]")
        page.wait_for_selector("[data-testid=guest-claim]")
        name = page.locator("[data-testid=me]").inner_text()
        self.assertRegex(name, r"^guest-[a-z2-9]{6}$")
        self.assertEqual(page.locator("#table-form").count(), 0)  # no public tables
        self.fits(page, "lobby-guest")
        page.select_option("[data-testid=bot-ruleset]", "halma")
        page.select_option("[data-testid=bot-seat]", "0")
        page.select_option("[data-testid=bot-clock]", "none")
        page.click("[data-testid=play-bot]")
        page.wait_for_url("**/g/*/")
        self.wait_connected(page)
        self.move(page, [[9, 6], [7, 6]])
        self.wait_version(page, 3)  # the bot answered
        self.assertIn(name, page.locator("#players").inner_text())
        self.fits(page, "game-guest")
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])

        page.click("[data-testid=guest-claim]")
        page.wait_for_selector("[data-testid=guest-claim-note]")
        self.assertEqual(page.locator("input[name=username]").input_value(), "")
        page.fill("input[name=username]", "newcomer")
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("button[type=submit] >> text=Create account")
        page.wait_for_selector("[data-testid=me] >> text=newcomer")
        self.assertEqual(page.locator("[data-testid=guest-claim]").count(), 0)
        page.goto(f"{self.live_server_url}/my/games/")
        self.assertIn(f"/g/{game_id}/", page.locator("[data-testid=running-games]").inner_html())
        user = get_user_model().objects.get(username="newcomer")
        self.assertFalse(user.is_guest)
        self.assertEqual(Seat.objects.get(game_id=game_id, index=0).user_id, user.pk)
        self.assertEqual(self.page_errors, [])

    def test_a_guest_plays_the_computer_at_hexenhalma(self):
        """Hexenhalma needs a game master and two teams: the guest takes a team,
        bots the game master and the other team (before: Hexenhalma was not
        offered, and the server refused a guest's table of three seats)."""
        page = self.new_page("visitor")
        page.goto(f"{self.live_server_url}/")
        page.click("[data-testid=play-as-guest]")
        page.wait_for_selector("[data-testid=guest-claim]")
        page.select_option("[data-testid=bot-ruleset]", "hexenhalma")
        seats = page.locator("[data-testid=bot-seat] option").all_inner_texts()
        self.assertEqual(seats[1:], ["Team 1", "Team 2"])  # after "random": no game master
        page.select_option("[data-testid=bot-seat]", "1")
        page.select_option("[data-testid=bot-clock]", "none")
        page.click("[data-testid=play-bot]")
        page.wait_for_url("**/g/*/")
        self.wait_connected(page)
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        game = off_loop(Game.objects.get, pk=game_id)
        self.assertEqual(game.status, "active")
        self.assertEqual(sorted(game.bots), ["0", "2"])
        page.wait_for_function("() => window.__game.model.version > 1")  # the bot opened a round
        self.assertEqual(self.state(page)["status"], "active")
        self.assertEqual(page.evaluate("window.__game.model.seat"), 1)
        self.assertIn("bot", page.locator("#players li[data-seat='0']").inner_text())
        self.fits(page, "hexenhalma-guest")
        self.assertEqual(self.page_errors, [])

    def test_a_guest_takes_a_seat_through_an_invite_link(self):
        host = make_user("hostess")
        table = off_loop(table_create, host=host, ruleset="halma", rated=True)
        page = self.new_page("invited")
        page.goto(f"{self.live_server_url}/t/{table.invite_code}/")
        self.fits(page, "invite-visitor")
        page.click("[data-testid=play-as-guest]")
        page.wait_for_selector("[data-testid=join]")
        page.click("[data-testid=join]")
        page.wait_for_url(f"**/g/{table.pk}/")
        guest = Seat.objects.get(game_id=table.pk, index=1).user
        self.assertTrue(guest.is_guest)
        self.assertEqual(Game.objects.get(pk=table.pk).status, Game.Status.OPEN)
        self.fits(page, "table-guest")
        self.assertEqual(self.page_errors, [])
