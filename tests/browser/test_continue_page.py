"""Continue from here against the computer, in Chromium (issue 51): on a
finished game's replay, at 360 px, in German and by keyboard, a person
(who did not play it) steps to a position and starts a casual game from it
against the computer, and lands on the new game's page with the board as it
stood there."""

from __future__ import annotations

import pytest

from games.models import Game
from games.rules import get_ruleset
from games.rules.base import SECRET_KEYS
from games.selectors.walk import opening
from games.services.endings import game_resign
from tests.games.test_analysis import halma_backwards_game
from tests.games.test_continue import played, public, state_after

from .helpers import BrowserLiveTestCase, off_loop, play_scripted, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]


class ContinuePage(BrowserLiveTestCase):
    def german_phone(self, name, user):
        page = self.new_page(name, user)
        page.set_extra_http_headers({"Accept-Language": "de"})
        page.set_viewport_size({"width": 360, "height": 800})
        return page

    def test_a_spectator_plays_on_from_a_halma_position_by_keyboard(self):
        white, black, guest = self.users("weiss", "schwarz", "zuschauerin")
        game_id = started_table("halma", [white, black], seed=1)
        plies = halma_backwards_game()[:12]
        play_scripted(game_id, {0: white, 1: black}, [(p["seat"], p["action"]) for p in plies])
        off_loop(game_resign, game_id=game_id, user=black)

        page = self.german_phone("zuschauerin", guest)
        page.goto(f"{self.live_server_url}/g/{game_id}/replay/")
        go = page.locator("[data-testid=continue-go]")
        go.wait_for(state="visible")
        assert go.inner_text() == "Von hier aus gegen den Computer weiterspielen"
        page.wait_for_function("() => document.getElementById('slider').max === '13'")
        # By keyboard: to the start, then six moves on (version 7, White to move).
        page.locator("#board").focus()
        page.keyboard.press("Home")
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('slider').value === '6'")
        go.scroll_into_view_if_needed()
        self.shot(page, "replay-360")
        go.focus()
        page.keyboard.press("Enter")
        page.wait_for_url(f"{self.live_server_url}/g/*/")
        new = Game.objects.exclude(pk=game_id).get(opening__game=game_id)
        assert page.url.endswith(f"/g/{new.pk}/")
        assert new.opening["version"] == 7 and new.rated is False
        assert new.seats.get(index=0).user == guest  # the side to move there
        assert new.bots == {"1": "strong"}
        old = Game.objects.get(pk=game_id)
        assert public(new.state) == public(get_ruleset("halma").encode(state_after(old, 7)))
        page.locator("#board svg").wait_for(state="visible")
        self.shot(page, "new-game-360")
        assert not self.page_errors

    def test_a_malefiz_position_goes_on_with_dice_of_its_own_and_the_seat_chosen(self):
        (person,) = self.users("spielerin")
        old = off_loop(played, "malefiz", 30)
        page = self.german_phone("spielerin", person)
        page.goto(f"{self.live_server_url}/g/{old.pk}/replay/")
        page.locator("[data-testid=continue-go]").wait_for(state="visible")
        page.wait_for_function(
            f"() => document.getElementById('slider').max === '{old.version - 1}'"
        )
        page.locator("#board").focus()
        page.keyboard.press("ArrowLeft")  # the position before the resignation
        page.wait_for_function(
            f"() => document.getElementById('slider').value === '{old.version - 2}'"
        )
        mover = get_ruleset("malefiz").to_act(state_after(old, old.version - 1))[0]
        page.locator("[data-testid=continue-seat]").select_option(str(1 - mover))
        page.locator("[data-testid=continue-level]").select_option("easy")
        self.shot(page, "malefiz-replay-360")
        page.locator("[data-testid=continue-go]").click()
        page.wait_for_url(f"{self.live_server_url}/g/*/")
        new = Game.objects.get(opening__game=old.pk)
        assert new.seats.get(index=1 - mover).user == person
        assert new.bots == {str(mover): "easy"}
        rs = get_ruleset("malefiz")
        # The bot is the mover and may have moved already: compare where the
        # new game began (its version 1), not where it is now.
        began = rs.encode(opening(rs, new))
        assert public(began) == public(rs.encode(state_after(old, old.version - 1)))
        assert new.state["seed"] == new.seed != old.seed
        assert not set(new.opening["state"]) & SECRET_KEYS
        page.wait_for_function(
            "() => document.querySelector('[data-testid=mz-turn]')?.textContent.length > 0"
        )
        page.locator("#board .mz-stage svg").wait_for(state="visible")
        self.shot(page, "malefiz-new-game-360")
        assert not self.page_errors

    def test_a_refusal_is_told_in_words_and_makes_nothing(self):
        (person,) = self.users("spaet")
        old = off_loop(played, "halma", 4)
        page = self.german_phone("spaet", person)
        page.goto(f"{self.live_server_url}/g/{old.pk}/replay/")
        page.locator("[data-testid=continue-go]").wait_for(state="visible")
        page.wait_for_function("() => Number(document.getElementById('slider').max) > 0")
        # The game stops counting as finished while the page is open: asked
        # anyway, the server refuses in words and nothing is made.
        Game.objects.filter(pk=old.pk).update(status=Game.Status.ABORTED)
        page.locator("[data-testid=continue-go]").click()
        status = page.locator("[data-testid=continue-status]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=continue-status]').textContent.includes('beendeten')"
        )
        assert "beendeten Partie" in status.inner_text()
        assert not Game.objects.filter(opening__game=old.pk).exists()
        self.shot(page, "refused-360")
        assert not self.page_errors
