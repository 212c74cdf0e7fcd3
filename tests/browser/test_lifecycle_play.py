"""A game's life in the browser: chat, a declined draw offer, and a realtime
clock that runs out on the live server (its own sweeper applies it)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Game
from lobby import services as lobby
from tests.factories import every_seat_moves, make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class LifecycleInTheBrowser(BrowserLiveTestCase):
    def started(self, clock):
        return off_loop(self._started, clock)

    def _started(self, clock):
        white, black = make_user("wendy"), make_user("bruno")
        game = lobby.table_create(
            host=white, ruleset="halma", clock={"kind": "realtime", "minutes": 1, "increment": 0}
        )
        lobby.table_join(game_id=game.pk, user=black)
        Game.objects.filter(pk=game.pk).update(clock=clock)
        lobby.table_start(game_id=game.pk, user=white)
        return Game.objects.get(pk=game.pk), white, black

    @staticmethod
    def _six_seconds_from_now(game):
        """Both seats get 6 seconds from now (shorter than the lobby allows, so
        the test does not wait a minute); then a move each: a game ending before
        every seat made a move of its own is aborted, unrated, and after a move
        each, running out of time loses it."""
        Game.objects.filter(pk=game.pk).update(
            clock={"kind": "realtime", "minutes": 0.1, "increment": 0},
            clocks=[6.0, 6.0],
            turn_started=timezone.now(),
        )
        every_seat_moves(Game.objects.get(pk=game.pk))

    def open(self, name, user, game):
        page = self.new_page(name, user)
        page.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(page)
        return page

    def test_clock_runs_out_and_both_pages_show_the_result(self):
        # The 6-second clock starts only once both pages are open: under load a
        # page can take longer than that to open, and the flag would fall before
        # the running clock could be seen.
        game, white, black = self.started({"kind": "realtime", "minutes": 1, "increment": 0})
        w = self.open("white", white, game)
        b = self.open("black", black, game)
        off_loop(self._six_seconds_from_now, game)
        w.wait_for_selector("#players .clock.running")
        self.shot(w, "clock-running")
        for page in (w, b):
            page.wait_for_selector("#banner:not([hidden])", timeout=20_000)
        self.shot(b, "flagged")
        assert "ran out of time" in w.inner_text("#banner")
        assert "You won!" in b.inner_text("#banner")
        assert w.inner_text("#players .clock") in {"", "0:00.0"}
        assert "ran out of time" in b.inner_text("#moves")
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
        assert not self.page_errors

    def test_chat_and_a_declined_draw_offer(self):
        game, white, black = self.started({"kind": "correspondence", "days": 3})
        w = self.open("white", white, game)
        b = self.open("black", black, game)
        spectator = self.new_page("spectator")
        spectator.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(spectator)
        w.fill("#chat-input", "Viel Glück! <script>alert(1)</script>")
        w.press("#chat-input", "Enter")
        for page in (w, b, spectator):
            page.wait_for_selector("#chat-log li")
            assert "<script>alert(1)</script>" in page.inner_text("#chat-log")
        assert spectator.locator("#chat-form").count() == 0  # anonymous: no chat box
        w.click("[data-testid=offer-draw]")
        b.wait_for_selector("[data-testid=accept-draw]:not([hidden])")
        spectator.wait_for_selector("#draw-note:not([hidden])")
        assert spectator.locator("[data-testid=accept-draw]:visible").count() == 0
        self.shot(b, "draw-offered")
        b.click("[data-testid=decline-draw]")
        w.wait_for_selector("#draw-note", state="hidden")
        assert "declined the draw" in w.inner_text("#moves")
        b.wait_for_selector(".bell-count:not([hidden])")
        assert "offers a draw" in b.inner_text("#bell-list")
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.draw_offers == []
        assert not self.page_errors
