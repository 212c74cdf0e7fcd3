"""Play the computer in Chromium: the lobby's form opens a Halma game against
the easy bot; the player's move is answered by the bot's, pushed to the page
by the live server's own bot worker, without a reload.

Run: .venv/bin/pytest tests/browser/test_bot_play.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest

from games.models import Game
from lobby.services import table_create
from tests.factories import make_user

from .helpers import InstantBotsLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class BotPlayTests(InstantBotsLiveTestCase):
    def test_play_the_computer_and_see_its_reply(self):
        page = self.new_page("player", user=make_user("carla"))
        page.goto(f"{self.live_server_url}/")
        page.select_option("[data-testid=bot-ruleset]", "halma")
        page.select_option("[data-testid=bot-level]", "easy")
        page.select_option("[data-testid=bot-seat]", "0")
        page.select_option("[data-testid=bot-clock]", "none")
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("[data-testid=bot-form]").scroll_into_view_if_needed()
            self.shot(page, f"lobby-{width}")
        page.click("[data-testid=play-bot]")
        page.wait_for_url("**/g/*/")
        self.wait_connected(page)
        game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        self.assertEqual(game.bots, {"1": "easy"})
        badge = page.locator("#players .bot-badge")
        self.assertEqual(badge.count(), 1)
        self.assertEqual(self.state(page)["seat"], 0)

        self.move(page, [[9, 6], [7, 6]])
        self.wait_version(page, 3)  # the bot's reply, pushed: no reload
        state = self.state(page)
        self.assertEqual(len(state["moves"]), 3, state["moves"])  # the start, two moves
        self.assertIn("Black (bot-halma-easy · bot)", state["moves"][2])
        mine, reply = game.events.filter(version__in=[2, 3]).order_by("version")
        # The worker polls every second; no pause in tests.
        print(
            f"the bot replied {(reply.created - mine.created).total_seconds():.2f} s after the move"
        )
        self.assertEqual(state["status_text"], "Your turn.")
        self.assertEqual(self.page_errors, [])
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            self.shot(page, f"game-{width}")
        self.assert_modules_hashed("lobby-bots.js", "bot-badge.js", "game-bots.js")

    def test_the_host_invites_two_bots_and_the_game_starts(self):
        host = make_user("dora")
        table = off_loop(table_create, host=host, ruleset="malefiz", seat_count=3, auto_start=True)
        page = self.new_page("host", user=host)
        page.goto(f"{self.live_server_url}/g/{table.pk}/")
        page.wait_for_selector("[data-testid=invite-bot]")
        self.shot(page, "waiting")
        page.click("[data-testid=invite-bot]")  # easy, the first level
        page.wait_for_selector("#waiting-seats .bot-badge")
        page.select_option("[data-testid=invite-bot-level]", "medium")
        page.click("[data-testid=invite-bot]")
        page.wait_for_function("() => window.__game.model.state?.status === 'active'")
        page.wait_for_selector("#players .bot-badge >> nth=1")
        self.assertEqual(page.locator("#players .bot-badge").count(), 2)
        self.assertEqual(Game.objects.get(pk=table.pk).bots, {"1": "easy", "2": "medium"})
        self.shot(page, "started")
        self.assertEqual(self.page_errors, [])

    def test_a_rated_tables_host_is_told_bots_play_casual_tables(self):
        host = make_user("rita")
        table = off_loop(table_create, host=host, ruleset="halma", seat_count=2, rated=True)
        page = self.new_page("rated", user=host)
        page.goto(f"{self.live_server_url}/g/{table.pk}/")
        hint = page.wait_for_selector("[data-testid=invite-bot-rated]")
        self.assertIn("casual", hint.inner_text())
        self.assertEqual(page.locator("[data-testid=invite-bot]").count(), 0)
        self.shot(page, "rated-table")
        self.assertEqual(self.page_errors, [])
