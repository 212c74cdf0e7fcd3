"""Correspondence comforts in the browser: a player starts a vacation on the
settings page and the opponent's open game page shows it at once (a pushed
vacation event), beside the time bank on the clocks."""

from __future__ import annotations

import pytest

from games.models import Game
from lobby import services as lobby
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class CorrespondenceInTheBrowser(BrowserLiveTestCase):
    def _started(self):
        anna, bruno = make_user("anna"), make_user("bruno")
        game = lobby.table_create(
            host=anna, ruleset="halma", clock={"kind": "correspondence", "days": 1, "bank": 2}
        )
        lobby.table_join(game_id=game.pk, user=bruno)
        lobby.table_start(game_id=game.pk, user=anna)
        return Game.objects.get(pk=game.pk), anna, bruno

    def test_an_opponents_vacation_and_the_bank_on_the_clock(self):
        game, anna, bruno = off_loop(self._started)
        b = self.new_page("bruno", bruno)
        b.set_viewport_size({"width": 1280, "height": 850})
        b.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(b)
        b.wait_for_selector("#players .clock:text('bank 2 d 0 h')")
        assert b.is_hidden("[data-testid=vacation-note]")

        a = self.new_page("anna", anna)
        a.goto(f"{self.live_server_url}/accounts/settings/")
        a.fill("[data-testid=vacation-until]", "2099-12-03")
        a.click("[data-testid=vacation-start]")
        a.wait_for_selector("[data-testid=vacation-error]")  # far more than 30 days
        self.shot(a, "settings-over-allowance")
        a.fill("[data-testid=vacation-until]", "")
        a.click("[data-testid=vacation-start]")
        a.wait_for_selector("[data-testid=vacation-stop]")
        self.shot(a, "settings-on-vacation")

        note = b.wait_for_selector("[data-testid=vacation-note]:not([hidden])")
        text = note.inner_text()
        assert "anna" in text and "is on vacation until" in text and "clock is stopped" in text
        assert "A vacation ends in" in b.inner_text("#phase-timer")
        assert "went on vacation" in b.inner_text("#moves")
        banks = b.eval_on_selector_all("#players .clock", "els => els.map(e => e.textContent)")
        assert banks == ["bank 2 d 0 h", "bank 2 d 0 h"]
        self.shot(b, "vacation-1280")
        b.set_viewport_size({"width": 360, "height": 800})
        b.locator("[data-testid=vacation-note]").scroll_into_view_if_needed()
        self.shot(b, "vacation-360")

        a.click("[data-testid=vacation-stop]")
        # Back, and the next vacation waits (a day from this one's start).
        a.wait_for_selector("[data-testid=vacation-next]")
        assert a.locator("[data-testid=vacation-start]").count() == 0
        for width in (1280, 360):
            a.set_viewport_size({"width": width, "height": 800})
            a.locator("[data-testid=vacation-next]").scroll_into_view_if_needed()
            self.shot(a, f"settings-next-vacation-{width}")
        b.wait_for_selector("[data-testid=vacation-note]", state="hidden")
        assert "back from vacation" in b.inner_text("#moves")
        assert not self.page_errors

    def test_the_lobby_form_opens_a_table_with_a_time_bank(self):
        host = off_loop(make_user, "hanna")
        page = self.new_page("hanna", host)
        page.goto(f"{self.live_server_url}/")
        page.select_option("[data-testid=clock-kind]", "correspondence")
        page.fill("#clock-days", "2")
        page.click("#more-table summary")
        page.fill("[data-testid=clock-bank]", "5")
        self.shot(page, "lobby-bank")
        page.click("[data-testid=create-table]")
        page.wait_for_url("**/g/*/")
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        game = off_loop(Game.objects.get, pk=game_id)
        assert game.clock == {"kind": "correspondence", "days": 2, "bank": 5}
        assert not self.page_errors
