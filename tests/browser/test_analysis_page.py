"""The replay's analysis in Chromium: asked for on the page, done by the live
server's worker in its bot processes, followed live over the game socket;
then the graph (a line per seat, clickable), the move list's marks, the
summary per player and the table for screen readers."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from games.services.endings import game_resign
from tests.factories import random_plies_then_resign
from tests.games.test_analysis import halma_backwards_game

from .helpers import BrowserLiveTestCase, off_loop, play_scripted, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]


class AnalysisPage(BrowserLiveTestCase):
    def test_the_analysis_fills_in_live_and_marks_the_step_back(self):
        white, black = self.users("weiss", "schwarz")
        game_id = started_table("halma", [white, black], seed=1)
        plies = halma_backwards_game()[:12]  # Black's step back is the last ply
        play_scripted(game_id, {0: white, 1: black}, [(p["seat"], p["action"]) for p in plies])
        off_loop(game_resign, game_id=game_id, user=black)

        page = self.new_page("weiss", white)
        page.set_viewport_size({"width": 360, "height": 800})
        page.goto(f"{self.live_server_url}/g/{game_id}/replay/")
        ask = page.locator("[data-testid=analysis-ask]")
        ask.wait_for(state="visible")
        ask.click()
        page.locator("[data-testid=analysis-summary]").wait_for(state="visible")
        graph = page.locator("[data-testid=analysis-graph]")
        assert graph.locator("polyline").count() == 2
        assert graph.locator("rect.analysis-hit").count() == 12
        assert page.locator("#analysis-rows tr").count() == 12
        assert page.locator("#analysis-summary-rows tr").count() == 2
        marks = page.locator("[data-testid=analysis-mark]")
        assert marks.count() >= 1
        assert "?" in marks.last.inner_text()
        self.shot(page, "analysed")
        graph.scroll_into_view_if_needed()
        self.shot(page, "graph")
        page.locator("[data-testid=analysis-summary]").scroll_into_view_if_needed()
        self.shot(page, "summary")

        # A click on the graph's first ply shows that move on the board.
        graph.locator("rect.analysis-hit").first.click()
        page.wait_for_function("() => document.getElementById('slider').value === '1'")
        assert "played" in page.locator("#analysis-better").inner_text()
        # The computer's move for the position shown is drawn on the board.
        page.locator("#board [data-testid=analysis-arrow] polyline").wait_for(state="attached")
        # Keyboard: the screen readers' table jumps too (its buttons).
        page.locator("#analysis-rows button").nth(11).focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('slider').value === '12'")
        better = page.locator("#analysis-better").inner_text()
        assert "Better" in better
        # Moves in the move list's notation (a step g1-g2 with an en dash, jumps
        # g1xg3xe5 with a multiplication sign), not coordinates.
        assert re.search("Better: [a-j](10|[1-9])([\u2013\u00d7][a-j](10|[1-9]))+ ", better), better
        assert "[" not in better and "," not in better.split("Better:")[1].split("(")[0]
        assert not self.page_errors

    def test_malefiz_shows_the_better_move_as_an_arrow_from_field_to_field(self):
        red, blue = self.users("rot", "blau")
        game_id = started_table("malefiz", [red, blue], seed=3)
        off_loop(lambda: random_plies_then_resign(Game.objects.get(pk=game_id), 60, seed=3))

        page = self.new_page("rot", red)
        page.goto(f"{self.live_server_url}/g/{game_id}/replay/")
        page.locator("[data-testid=analysis-ask]").click()
        page.locator("[data-testid=analysis-summary]").wait_for(state="visible")
        plies = page.evaluate(
            "async (id) => (await (await fetch(`/api/games/${id}/analysis/`)).json()).plies",
            game_id,
        )
        # A position whose next move the computer would play from a field to a field.
        at = next(
            k
            for k in range(1, len(plies))
            if isinstance((plies[k].get("best") or {}).get("from"), list)
        )
        page.locator("#analysis-rows button").nth(at - 1).focus()
        page.keyboard.press("Enter")
        arrow = page.locator("#board [data-testid=analysis-arrow] polyline")
        arrow.wait_for(state="attached")  # none on the last position, shown before the jump
        assert len(arrow.get_attribute("points").split()) == 2  # from the field to the field
        assert "dashed on the board" in page.locator("#analysis-better").inner_text()
        page.locator("#board").scroll_into_view_if_needed()
        self.shot(page, "malefiz-arrow")
        assert not self.page_errors
