"""Issue 29, item 3 in Chromium: a seat a bot took over says who plays it now
("Green: bot (medium), for anna") on every page, and the leaver's page stops
offering "(you)", draw, abort and resign as soon as they resigned into the
handover.

Run: .venv/bin/pytest tests/browser/test_ux29_seat_names.py -rA
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import make_user

from .helpers import InstantBotsLiveTestCase, off_loop
from .test_leaver_handover import BOT_ACTED_JS, three_player_malefiz

pytestmark = [pytest.mark.browser, pytest.mark.live]

ROW_JS = "(seat) => document.querySelector(`#players li[data-seat='${seat}']`).textContent"
SEAT_BUTTONS_JS = """() => ["resign-btn", "draw-offer-btn", "abort-btn"]
  .filter((id) => document.getElementById(id).checkVisibility())"""


class SeatNamesTests(InstantBotsLiveTestCase):
    def test_a_handed_over_seat_names_the_bot_and_its_person(self):
        users = [off_loop(make_user, name) for name in ("anna", "bert", "cleo")]
        game = off_loop(three_player_malefiz, users)
        leaver = game.to_act[0]
        others = [s for s in range(3) if s != leaver]
        name = users[leaver].username
        pages = {s: self.new_page(users[s].username, user=users[s]) for s in range(3)}
        for page in pages.values():
            page.goto(f"{self.live_server_url}/g/{game.pk}/")
            self.wait_connected(page)
        self.assertIn("(you)", pages[leaver].evaluate(ROW_JS, leaver))

        pages[leaver].once("dialog", lambda dialog: dialog.accept())
        pages[leaver].click("#resign-btn")
        own = pages[leaver]
        own.wait_for_function(
            "(seat) => document.querySelector(`#players li[data-seat='${seat}']`)"
            ".textContent.includes('(you left)')",
            arg=leaver,
        )
        self.assertEqual(own.evaluate(SEAT_BUTTONS_JS), [])
        self.shot(own, "leaver-waiting-1280")

        agree = f"[data-testid=handover-{leaver}]"
        for s in others:
            pages[s].wait_for_selector(agree)
            pages[s].click(agree)
            pages[s].wait_for_selector(agree, state="detached")
        taken = off_loop(lambda: Game.objects.get(pk=game.pk))
        self.assertEqual(taken.bots, {str(leaver): "medium"})
        for page in pages.values():
            # The bot moved for the seat (not "taken.version + 1": the instant
            # bot may have finished its turn before that read).
            page.wait_for_function(BOT_ACTED_JS, arg=leaver)
            page.wait_for_function(
                "([seat, text]) => document.querySelector(`#players li[data-seat='${seat}']`)"
                ".textContent.includes(text)",
                arg=[leaver, f"bot (medium), for {name}"],
            )
            row = page.evaluate(ROW_JS, leaver)
            self.assertNotIn("(you)", row)
            self.assertEqual(
                page.locator(f"#players li[data-seat='{leaver}'] a").inner_text(), name
            )
        self.assertIn("(you left)", own.evaluate(ROW_JS, leaver))
        self.assertEqual(own.evaluate(SEAT_BUTTONS_JS), [])
        # The history keeps who did what then: the person resigned, not the bot.
        moves = "\n".join(self.state(pages[others[0]])["moves"])
        self.assertRegex(moves, rf"\w+ \({name}\) resigned")
        self.assertNotIn(f"for {name}) resigned", moves)
        for width in (1280, 360):
            for s in (leaver, others[0]):
                pages[s].set_viewport_size({"width": width, "height": 900})
                pages[s].locator("#players").scroll_into_view_if_needed()
                self.shot(pages[s], f"seat-{s}-{width}")
            self.assertLessEqual(
                pages[leaver].evaluate("document.documentElement.scrollWidth"), width
            )
        # My games names the seat the same way.
        page = pages[others[0]]
        page.goto(f"{self.live_server_url}/my/games/")
        self.assertIn(f"bot (medium), for {name}", page.inner_text(".my-games, main"))
        self.shot(page, "my-games-1280")
        self.assertEqual(self.page_errors, [])
