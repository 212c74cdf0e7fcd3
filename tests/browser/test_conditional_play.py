"""Planning conditional moves in the browser (issue 36): the planning board is
clearly apart ("Planning — not sent"), its clicks never become moves, the
line is stored only by Save, and when the opponent plays the planned move
the reply appears on the page by itself."""

from __future__ import annotations

import pytest

from games.models import ConditionalPlan, Event, Game
from games.rules import get_ruleset
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import FIRST_MOVE, make_user

from .helpers import BrowserLiveTestCase, key, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]
HALMA = get_ruleset("halma")


def step(state, seat: int) -> dict:
    """A plain step (no jump) for ``seat``: one click on the piece, one on the target."""
    for action in HALMA.legal_actions(state, seat):
        (r0, c0), (r1, c1) = action["path"][0], action["path"][-1]
        if len(action["path"]) == 2 and max(abs(r1 - r0), abs(c1 - c0)) == 1:
            return action
    raise AssertionError("no step")


class ConditionalInTheBrowser(BrowserLiveTestCase):
    def _started(self):
        anna, bruno = make_user("anna"), make_user("bruno")
        game = lobby.table_create(
            host=anna, ruleset="halma", clock={"kind": "correspondence", "days": 3}
        )
        lobby.table_join(game_id=game.pk, user=bruno)
        lobby.table_start(game_id=game.pk, user=anna)
        game_act(game_id=game.pk, user=anna, version=1, action=FIRST_MOVE)
        game = Game.objects.get(pk=game.pk)
        state = HALMA.decode(game.state)
        theirs = step(state, 1)
        mine = step(HALMA.apply(state, 1, theirs)[0], 0)
        return game, anna, bruno, theirs, mine

    def pick(self, page, action: dict) -> None:
        start, end = action["path"]
        page.click(f'.plan-board .piece.movable[data-field="{key(start)}"]')
        page.click(f'.plan-board .target[data-target="{key(end)}"]')

    def test_plan_save_and_the_reply_follows(self):
        game, anna, bruno, theirs, mine = off_loop(self._started)
        a = self.new_page("anna", anna)
        a.set_viewport_size({"width": 360, "height": 800})
        a.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(a)
        a.click("[data-testid=plan-open]")
        a.wait_for_selector("[data-testid=plan-banner]:text('Planning — not sent')")
        assert a.is_hidden("#board")  # the live board is out of reach
        a.wait_for_selector(".plan-board .piece.movable")
        self.pick(a, theirs)
        a.wait_for_selector("[data-testid=plan-hint]:text('Now your reply')")
        self.pick(a, mine)
        a.wait_for_function("() => !document.querySelector('[data-testid=plan-add]').disabled")
        self.shot(a, "plan-line-360")
        a.click("[data-testid=plan-add]")
        a.wait_for_selector("[data-testid=plan-lines] li")
        # Nothing sent yet: no move, no stored line.
        assert off_loop(lambda: Game.objects.get(pk=game.pk).version) == 2
        assert not off_loop(lambda: ConditionalPlan.objects.filter(game=game).exists())
        a.keyboard.press("Tab")  # the controls take the keyboard too
        a.focus("[data-testid=plan-save]")
        a.keyboard.press("Enter")
        a.wait_for_selector("[data-testid=plan-save]:text-is('Save')")
        lines = off_loop(lambda: ConditionalPlan.objects.get(game=game).lines)
        assert lines == [[theirs, mine]]
        self.shot(a, "plan-saved-360")
        a.click("[data-testid=plan-close]")
        assert a.is_visible("#board")

        off_loop(lambda: game_act(game_id=game.pk, user=bruno, version=2, action=theirs))
        self.wait_version(a, 4)
        reply = off_loop(lambda: Event.objects.get(game=game, version=4))
        assert (reply.seat, reply.action) == (0, mine)
        a.wait_for_selector(f'#board .piece.seat-0[data-field="{key(mine["path"][1])}"]')
        assert self.state(a)["version"] == 4
        self.shot(a, "plan-reply-played-360")
