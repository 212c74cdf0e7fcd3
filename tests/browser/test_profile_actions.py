"""What people expect from a profile (issue 29, item 8), in Chromium: follow,
block and challenge from a player's page; My games shows each game's result;
a notice when someone you follow starts a live game. Before: the player page
had no such buttons, My games no result, and no notice came.

Run: .venv/bin/pytest tests/browser/test_profile_actions.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest

from accounts.models import Block, Follow
from accounts.services.relations import user_follow
from games.models import Game
from games.services.endings import game_resign
from tests.factories import every_seat_moves, make_user, started_game

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class ProfileTests(BrowserLiveTestCase):
    def test_follow_block_and_challenge_from_the_players_page(self):
        make_user("anna")
        bob = make_user("bob")
        page = self.new_page("bob", user=bob)
        page.goto(f"{self.live_server_url}/players/anna/")
        follow = page.locator("[data-testid=profile-follow]")
        block = page.locator("[data-testid=profile-block]")
        self.assertEqual(follow.inner_text(), "Follow")
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 800})
            self.shot(page, f"profile-{width}")
            self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), width)
        follow.click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=profile-follow]').textContent === 'Unfollow'"
        )
        self.assertTrue(Follow.objects.filter(user=bob, followed__username="anna").exists())
        block.click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=profile-block]').textContent === 'Unblock'"
        )
        self.assertTrue(page.locator("[data-testid=profile-challenge-form]").is_hidden())
        self.assertEqual(follow.inner_text(), "Follow")  # blocking stops following
        self.assertTrue(Block.objects.filter(user=bob, blocked__username="anna").exists())
        self.shot(page, "blocked")
        block.click()
        page.wait_for_selector("[data-testid=profile-challenge-form]", state="visible")
        page.select_option("[data-testid=profile-challenge-ruleset]", "malefiz")
        page.click("[data-testid=profile-challenge]")
        page.wait_for_url("**/g/*/")
        game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        self.assertEqual((game.ruleset, game.challenged.username), ("malefiz", "anna"))
        self.assertEqual(self.page_errors, [])

    def test_my_games_shows_each_result(self):
        ann, bob = make_user("ann"), make_user("bob")

        def finished() -> None:
            game = every_seat_moves(started_game(players=[ann, bob]))
            game_resign(game_id=game.pk, user=bob)

        off_loop(finished)
        page = self.new_page("bob", user=bob)
        page.goto(f"{self.live_server_url}/my/games/")
        result = page.locator("[data-testid=finished-games] [data-testid=result]")
        self.assertIn("lost", result.inner_text())
        self.assertIn("resigned", result.inner_text())
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 800})
            self.shot(page, f"my-games-{width}")
            self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), width)
        self.assertEqual(self.page_errors, [])

    def test_a_follower_is_told_when_a_followed_player_starts_a_live_game(self):
        ann, bob, fan = make_user("ann"), make_user("bob"), make_user("fan")
        user_follow(user=fan, name="ann")
        page = self.new_page("fan", user=fan)
        page.goto(f"{self.live_server_url}/")
        page.wait_for_function("() => document.getElementById('bell-empty') !== null")
        clock = {"kind": "realtime", "minutes": 5, "increment": 3}
        game = off_loop(started_game, players=[ann, bob], clock=clock)
        # Made in this process: the page hears of it by its next ping (10 s).
        page.wait_for_function(
            "() => document.getElementById('bell-count').textContent === '1'", timeout=25_000
        )
        page.click("#bell-btn")
        item = page.locator("#bell-list li a").first
        self.assertIn("ann, whom you follow, started a live game", item.inner_text())
        self.assertEqual(item.get_attribute("href"), f"/g/{game.pk}/")
        self.shot(page, "notice")
        self.assertEqual(self.page_errors, [])
