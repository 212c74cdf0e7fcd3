"""A rated game in Chromium, end to end: ann opens a rated Halma table from
the lobby (the Rated box is ticked by default; bob's lobby lists it as
rated), each plays a move, bob resigns, and both profiles show the new
ratings, their history charts, the game and the head-to-head record (at
1280 and 360 px wide: screenshots in artifacts/screenshots/).

Run: .venv/bin/pytest tests/browser/test_ratings_play.py
"""

from __future__ import annotations

import pytest

from games.models import Rating
from lobby.services import table_join, table_start
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


class RatedGameTest(BrowserLiveTestCase):
    def test_a_rated_game_to_its_end_then_both_profiles(self):
        ann, bob = make_user("ann"), make_user("bob")
        a, b = self.new_page("A", user=ann), self.new_page("B", user=bob)

        a.goto(self.live_server_url + "/")
        a.select_option("[data-testid=ruleset-select]", "halma")
        self.assertTrue(a.is_checked("[data-testid=rated]"))  # rated by default
        game_id = self.open_table_by_hand(a)
        b.goto(self.live_server_url + "/")
        row = b.wait_for_selector(f'#open-tables tr[data-table="{game_id}"]')
        self.assertIn("rated", row.inner_text())

        off_loop(table_join, game_id=game_id, user=bob)
        off_loop(table_start, game_id=game_id, user=ann)
        for page in (a, b):
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
        self.move(a, [[9, 6], [7, 6]])
        self.wait_version(b, 2)
        self.move(b, [[4, 0], [5, 0]])  # every seat moves: before that, a resignation aborts
        self.wait_version(a, 3)
        self.resign(b)
        for page in (a, b):
            page.wait_for_function("() => window.__game.model.state.status === 'finished'")
        self.shot(a, "A-finished")
        winner = Rating.objects.get(user=ann).display
        loser = Rating.objects.get(user=bob).display
        self.assertGreater(winner, 1500)
        self.assertLess(loser, 1500)

        # The seat list links to the opponent's profile.
        b.click('#players a[href="/players/ann/"]')
        b.wait_for_url("**/players/ann/")
        self.check_profile(b, "ann", winner, "You against this player: 0 won, 1 lost, 0 drawn.")
        a.goto(f"{self.live_server_url}/players/bob/")
        self.check_profile(a, "bob", loser, "You against this player: 1 won, 0 lost, 0 drawn.")
        # The leaderboard links from the profile's rating card, on a phone.
        a.click("[data-testid=rating-halma-correspondence] a")
        a.wait_for_url("**/leaderboard/halma/?speed=correspondence")
        names = a.locator("[data-testid=leaderboard] tbody td:nth-child(2)").all_inner_texts()
        self.assertEqual([n.strip() for n in names], ["ann", "bob"])
        self.shot(a, "leaderboard-360")
        self.assertEqual(self.page_errors, [])

    def check_profile(self, page, name: str, rating: int, versus: str) -> None:
        card = page.wait_for_selector("[data-testid=rating-halma-correspondence]")
        self.assertIn(f"{rating}?", card.inner_text())  # provisional after one game
        self.assertEqual(page.inner_text("[data-testid=head-to-head]").strip(), versus)
        self.assertIn(
            f"1 rated game: from 1500 to {rating};",
            page.locator("svg.rating-chart desc").text_content(),
        )
        self.assertIn("replay", page.inner_text("[data-testid=recent-games]"))
        for width, height in ((1280, 900), (360, 740)):
            page.set_viewport_size({"width": width, "height": height})
            box = page.locator("svg.rating-chart").bounding_box()
            self.assertLessEqual(box["x"] + box["width"], width)  # fits the screen
            self.shot(page, f"profile-{name}-{width}")
