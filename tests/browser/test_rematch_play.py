"""A game played to its end in the browser, then a rematch both players accept:
both pages land in the new game, with the colours swapped."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from lobby import services as lobby
from tests.factories import BLACK_MOVE, FIRST_MOVE, every_seat_moves, make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class RematchInTheBrowser(BrowserLiveTestCase):
    def _started(self):
        white, black = make_user("wanda"), make_user("boris")
        game = lobby.table_create(
            host=white, ruleset="halma", clock={"kind": "correspondence", "days": 3}
        )
        lobby.table_join(game_id=game.pk, user=black)
        lobby.table_start(game_id=game.pk, user=white)
        return game, white, black

    def open(self, name, user, game_id, width):
        page = self.new_page(name, user)
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(page)
        return page

    def test_resign_rematch_both_accept_and_both_pages_move_to_the_new_game(self):
        game, white, black = off_loop(self._started)
        w = self.open("white", white, game.pk, 1280)
        b = self.open("black", black, game.pk, 360)
        self.move(w, FIRST_MOVE["path"])
        self.move(b, BLACK_MOVE["path"])
        self.resign(w)
        for page in (w, b):
            page.wait_for_selector("[data-testid=rematch-offer]")
        b.click("[data-testid=rematch-offer]")
        b.wait_for_selector("[data-testid=rematch-decline]")  # "Withdraw"
        w.wait_for_selector("[data-testid=rematch-accept]")
        assert "Rematch offered by" in w.inner_text("[data-testid=rematch-note]")
        self.shot(w, "offered-1280")
        self.shot(b, "offered-360")
        w.click("[data-testid=rematch-accept]")
        new_id = None
        for page in (w, b):
            page.wait_for_url(lambda url: f"/g/{game.pk}/" not in url)
            self.wait_connected(page)
            new_id = page.evaluate("() => Number(document.getElementById('game').dataset.game)")
        assert new_id != game.pk
        # Colours swapped: black now plays seat 0 (White), white seat 1.
        assert w.evaluate("() => window.__game.model.seat") == 1
        assert b.evaluate("() => window.__game.model.seat") == 0
        assert b.evaluate("() => window.__game.model.state.status") == "active"
        self.shot(w, "new-game-1280")
        self.shot(b, "new-game-360")
        seats = off_loop(
            lambda: list(Seat.objects.filter(game_id=new_id).values_list("user_id", flat=True))
        )
        assert seats == [black.pk, white.pk]
        assert off_loop(Game.objects.count) == 2
        # Follow the opponent from the game page; the lobby lists their live game.
        w.click("[data-testid=follows-boris]")
        w.wait_for_selector("[data-testid=follows-boris]:text('Unfollow')")
        self.shot(w, "followed-1280")
        w.goto(f"{self.live_server_url}/")
        assert f"#{new_id}" in w.inner_text("[data-testid=friends-playing]")
        self.shot(w, "lobby-friends-1280")
        assert not self.page_errors

    def test_an_offer_waits_in_the_bell_of_a_player_who_left_the_page(self):
        game, white, black = off_loop(self._started)
        off_loop(every_seat_moves, game)  # before that, a resignation aborts: no rematch
        b = self.open("black", black, game.pk, 1280)
        b.evaluate("() => window.__game.socket.send({type: 'resign'})")
        b.wait_for_selector("[data-testid=rematch-offer]")
        b.click("[data-testid=rematch-offer]")
        b.wait_for_selector("[data-testid=rematch-decline]")
        # White was not on the game page: the offer is in the bell on the lobby.
        w = self.new_page("white", white)
        w.goto(f"{self.live_server_url}/")
        w.wait_for_selector(".bell-count:not([hidden])")
        w.set_viewport_size({"width": 360, "height": 740})
        w.click("#bell-btn")
        link = w.locator("#bell-list a", has_text="offers a rematch")
        panel = w.locator("#bell-panel").bounding_box()
        assert panel and panel["x"] >= 0 and panel["x"] + panel["width"] <= 360, panel  # on screen
        self.shot(w, "bell-360")
        link.click()
        w.wait_for_selector("[data-testid=rematch-accept]")
        w.click("[data-testid=rematch-accept]")
        for page in (w, b):
            page.wait_for_url(lambda url: f"/g/{game.pk}/" not in url)
            self.wait_connected(page)
        assert w.evaluate("() => window.__game.model.seat") == 1
        assert b.evaluate("() => window.__game.model.seat") == 0
        assert not self.page_errors
