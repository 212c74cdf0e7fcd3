"""Idiotenspiel aids (issue 17, item 5), in Chromium against a live Daphne:

1. Set-up by formation: both players click "Fill the rest by formation" (Robin
   after placing one unit by hand and one by "Place one by formation"); the pages
   alternate the single placements by themselves until the set-up is over.
2. In a combat with many pairings the "Possible fights" list starts open, and the
   stack pop-over never covers the lit fields (the targets at hand), at 1280 and
   at 360 px wide.
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.rules.idiotenspiel import IdiotenspielRuleset

from .helpers import BrowserLiveTestCase, play_scripted, scroll_into_view, settle, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

RS = IdiotenspielRuleset()
ROBIN, SHERIFF = 0, 1
MARIAN = {"scenario": "marian", "map": "die_burg", "sandglass": 600}
GRUND = {"scenario": "grundspiel", "map": "die_burg", "sandglass": 600}
# Rettet Maid Marian: Robin's archers in the woods next to the camp, three on one field.
PREFER = {
    ROBIN: [[16, 5], [17, 5], [11, 4], [10, 4], [10, 5], [11, 5], [16, 4], [17, 4]],
    SHERIFF: [[12, 2], [13, 2], [14, 2], [15, 2], [12, 1], [13, 1], [14, 1], [15, 1]],
}
STACK = [16, 5]

# Each lit field's box and the pop-over's, on screen.
OVERLAP_JS = """() => {
  const pop = document.querySelector("#board .ids-pop");
  const p = pop.getBoundingClientRect();
  const hits = [...document.querySelectorAll("#board .ids-target")].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < p.right - 0.5 && p.left < r.right - 0.5 && r.top < p.bottom - 0.5 && p.top < r.bottom - 0.5;
  });
  return { hidden: pop.hidden, lit: document.querySelectorAll("#board .ids-target").length,
           covered: hits.map((t) => t.dataset.field) };
}"""


def marian_setup(state):
    """Placements through the engine's turn order, on the preferred fields first."""
    out = []
    while state.phase == "setup":
        seat = RS.to_act(state)[0]
        units = {u.id: u for u in state.units}

        def rank(action, seat=seat, units=units):
            at = action["at"]
            wanted = seat == SHERIFF or units[action["unit"]].type == "archer"
            if wanted and at in PREFER[seat]:
                return (0, PREFER[seat].index(at))
            return (1, 0)

        action = min(RS.legal_actions(state, seat), key=rank)
        state, _ = RS.apply(state, seat, action)
        out.append((seat, action))
    return out


class IdiotenspielAids(BrowserLiveTestCase):
    def make_table(self, options: dict):
        robin, sheriff = self.users("robin", "sheriff")
        game_id = started_table(
            "idiotenspiel", [robin, sheriff], seed=0, host_seat=ROBIN, options=options
        )
        return {ROBIN: robin, SHERIFF: sheriff}, game_id

    def open(self, game_id: int, name: str, user, width: int = 1280):
        page = self.new_page(name, user)
        page.set_viewport_size({"width": width, "height": 860 if width > 500 else 760})
        page.goto(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(page)
        return page

    def test_fill_the_rest_by_formation(self):
        users, game_id = self.make_table(GRUND)
        start = RS.setup(RS.validate_options(GRUND), 2, 0).start_player
        choose = {"type": "choose_setup", "side": "W", "zone": "edge"}
        play_scripted(game_id, users, [(start, choose)])
        # The second to place plays on a phone.
        pages = {
            seat: self.open(game_id, name, users[seat], 1280 if seat == start else 360)
            for seat, name in ((ROBIN, "Robin"), (SHERIFF, "Sheriff"))
        }
        first = pages[start]
        first.wait_for_selector("[data-testid=formation-fill]")
        assert pages[1 - start].locator("[data-testid=formation-fill]").count() == 0
        # By hand first: a selected kind, a lit field; then one by formation.
        first.click("#board .ids-target.place")
        second = pages[1 - start]
        second.wait_for_selector("[data-testid=formation-one]")
        self.shot(second, "before-one-360")
        second.click("[data-testid=formation-one]")
        first.wait_for_selector("[data-testid=formation-fill]")
        self.shot(first, "before-fill-1280")
        first.click("[data-testid=formation-fill]")
        second.wait_for_selector("[data-testid=formation-fill]")
        second.click("[data-testid=formation-fill]")
        for page in pages.values():
            page.wait_for_function(
                "() => window.__game.model.state.view.phase !== 'setup'", timeout=60_000
            )
        game = Game.objects.get(pk=game_id)
        state = RS.decode(game.state)
        assert all(u.at is not None for u in state.units if u.alive)
        assert len(state.units) == 41 and game.version == 2 + 41
        for seat, page in pages.items():
            settle(page)
            self.shot(page, f"formation-seat{seat}")
        phone = self.open(game_id, "phone", None, width=360)
        settle(phone)
        self.shot(phone, "formation-360")
        assert not self.page_errors

    def test_fights_start_open_and_the_pop_over_leaves_the_targets_free(self):
        users, game_id = self.make_table(MARIAN)
        state = RS.setup(RS.validate_options(MARIAN), 2, 0)
        placements = marian_setup(state)
        play_scripted(game_id, users, [*placements, (SHERIFF, {"type": "end_movement"})])
        for width in (1280, 360):
            page = self.open(game_id, f"Robin-{width}", users[ROBIN], width)
            page.wait_for_selector("#board [data-testid=fights] .ids-attack-btn")
            fights = page.locator("#board [data-testid=fights]")
            assert fights.evaluate("d => d.open")
            assert page.locator("#board .ids-attack-btn").count() > 4
            self.shot(page, f"fights-{width}")
            page.click(f'#board .ids-unit[data-field="{STACK[0]},{STACK[1]}"] >> nth=-1')
            page.wait_for_selector("#board .ids-pop:not([hidden])")
            page.wait_for_selector("#board .ids-target.attack")
            seen = page.evaluate(OVERLAP_JS)
            assert seen["lit"] > 0 and seen["covered"] == [], seen
            scroll_into_view(page, "#board .ids-pop")
            self.shot(page, f"pop-{width}")
            # Folded by the player, it stays folded through the next render.
            page.click("#board [data-testid=fights] summary")
            page.wait_for_selector("#board .ids-pop", state="hidden")
            page.click(f'#board .ids-unit[data-field="{STACK[0]},{STACK[1]}"] >> nth=-1')
            page.wait_for_selector("#board .ids-pop:not([hidden])")
            assert not fights.evaluate("d => d.open")
        assert not self.page_errors
