"""The staff's "bot against bot" choice is offered only for games it can start
(issue 48, item 10): two bots make no Hexenhalma game (3 to 21 seats), so the
choice is not there for it; for Halma it is, and it starts a game."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class BotMatchOffer(BrowserLiveTestCase):
    def test_offered_only_where_two_bots_make_a_game(self):
        staff = off_loop(lambda: make_user("staffer", staff=True))
        page = self.new_page("staff", staff)
        page.set_viewport_size({"width": 360, "height": 800})
        page.set_extra_http_headers({"Accept-Language": "de"})
        page.goto(f"{self.live_server_url}/")
        page.wait_for_selector("[data-testid=bot-form]")
        page.select_option("[data-testid=bot-ruleset]", "hexenhalma")
        page.wait_for_selector("[data-testid=bot-match-box]", state="hidden")
        assert not page.is_visible("[data-testid=bot-match]")
        page.locator("[data-testid=bot-form]").scroll_into_view_if_needed()
        self.shot(page, "hexenhalma-de-360")

        page.select_option("[data-testid=bot-ruleset]", "halma")
        page.wait_for_selector("[data-testid=bot-match]", state="visible")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.locator("[data-testid=bot-form]").scroll_into_view_if_needed()
        self.shot(page, "halma-de-1280")
        page.check("[data-testid=bot-match]")
        # Back to Hexenhalma: the choice goes, unticked, and a plain game vs the computer starts.
        page.select_option("[data-testid=bot-ruleset]", "hexenhalma")
        page.wait_for_selector("[data-testid=bot-match-box]", state="hidden")
        assert not page.is_checked("[data-testid=bot-match]")
        page.select_option("[data-testid=bot-ruleset]", "halma")
        page.check("[data-testid=bot-match]")
        page.click("[data-testid=play-bot]")
        page.wait_for_url("**/g/*/")
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        game = off_loop(lambda: Game.objects.get(pk=game_id))
        assert game.ruleset == "halma" and len(game.bots) == 2
        assert self.page_errors == []
