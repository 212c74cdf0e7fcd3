""" "Plan moves" only while the opponent is to move (issue 48, item 1): on one's
own turn the live board stays and the button is not there; it comes and goes
live as the turn changes; opening the planner puts the keyboard inside it, and
axe finds nothing serious (the planning board's label had no role to go on)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user

from .axe import AxeMixin, require_axe
from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

FOCUS_IN_PLANNER_JS = "() => !!document.activeElement?.closest('[data-testid=plan-area]')"
# axe's aria-prohibited-attr on the planning board: a violation or one left
# to review (axe cannot tell whether a label without a role is read out).
PROHIBITED_JS = """async () => {
  const r = await axe.run('.plan-board', { runOnly: ['aria-prohibited-attr'] });
  return [...r.violations, ...r.incomplete].map((v) => v.id);
}"""


class PlanOnTheirTurnOnly(AxeMixin, BrowserLiveTestCase):
    impacts = ["serious", "critical"]

    def _started(self):
        anna, bruno = make_user("anna"), make_user("bruno")
        game = lobby.table_create(
            host=anna, ruleset="halma", clock={"kind": "correspondence", "days": 3}
        )
        lobby.table_join(game_id=game.pk, user=bruno)
        lobby.table_start(game_id=game.pk, user=anna)
        return Game.objects.get(pk=game.pk), anna, bruno

    def test_offered_on_their_turn_only_and_takes_the_keyboard(self):
        require_axe()
        game, anna, bruno = off_loop(self._started)
        page = self.new_page("anna", anna)
        page.set_extra_http_headers({"Accept-Language": "de"})
        page.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(page)
        # Anna's own turn: no planning, the live board stays.
        assert page.is_hidden("[data-testid=plan-open]")
        assert page.is_visible("#board")
        self.shot(page, "own-turn-1280")

        off_loop(lambda: game_act(game_id=game.pk, user=anna, version=1, action=FIRST_MOVE))
        self.wait_version(page, 2)
        page.wait_for_selector("[data-testid=plan-open]", state="visible")
        page.focus("[data-testid=plan-open]")
        page.keyboard.press("Enter")  # the keyboard alone
        page.wait_for_selector(".plan-board .piece.movable")
        page.wait_for_function(FOCUS_IN_PLANNER_JS)
        assert page.is_hidden("#board")
        found = self.axe(page, "planner")
        assert found == [], found
        assert page.evaluate(PROHIBITED_JS) == []
        page.set_viewport_size({"width": 360, "height": 800})
        self.shot(page, "planner-de-360")

        # Bruno moves: Anna's turn again, the planner closes and the button goes.
        off_loop(lambda: game_act(game_id=game.pk, user=bruno, version=2, action=BLACK_MOVE))
        self.wait_version(page, 3)
        page.wait_for_selector("[data-testid=plan-area]", state="hidden")
        page.wait_for_selector("[data-testid=plan-open]", state="hidden")
        assert page.is_visible("#board")
        self.shot(page, "own-turn-again-360")
        assert self.page_errors == []
