"""A Malefiz leaver's seat handed to a bot in Chromium: of three players one
resigns, the other two see "… left. Hand the seat to a bot?" and agree; the
live server's bot worker then moves for the seat.

Run: .venv/bin/pytest tests/browser/test_leaver_handover.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest

from games.models import Event, Game
from lobby import services as lobby
from tests.factories import make_user

from .helpers import InstantBotsLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

# The page holds an action of ``seat`` (a bot's, for the seat handed over).
BOT_ACTED_JS = (
    "(seat) => window.__game.model.events.some((e) => e.kind === 'act' && e.seat === seat)"
)


def three_player_malefiz(users) -> Game:
    game = lobby.table_create(
        host=users[0],
        ruleset="malefiz",
        seat_count=3,
        clock={"kind": "realtime", "minutes": 10, "increment": 0},
    )
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    return Game.objects.get(pk=game.pk)


class LeaverHandoverTests(InstantBotsLiveTestCase):
    def test_one_resigns_the_others_agree_and_the_bot_moves_for_the_seat(self):
        users = [make_user(name) for name in ("anna", "bert", "cleo")]
        game = off_loop(three_player_malefiz, users)
        leaver = game.to_act[0]
        others = [s for s in range(3) if s != leaver]
        pages = {s: self.new_page(users[s].username, user=users[s]) for s in range(3)}
        for page in pages.values():
            page.goto(f"{self.live_server_url}/g/{game.pk}/")
            self.wait_connected(page)

        pages[leaver].once("dialog", lambda dialog: dialog.accept())
        pages[leaver].click("#resign-btn")
        agree = f"[data-testid=handover-{leaver}]"
        for s in others:
            pages[s].wait_for_selector(agree)
            text = pages[s].inner_text("[data-testid=handover]")
            self.assertIn(f"({users[leaver].username}) left. Hand the seat to a bot?", text)
            self.assertIn("Decline", text)
        self.assertFalse(pages[leaver].is_visible(agree))
        page = pages[others[0]]
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("[data-testid=handover]").scroll_into_view_if_needed()
            self.shot(page, f"offer-{width}")

        for s in others:
            pages[s].click(agree)
            pages[s].wait_for_selector(agree, state="detached")
        taken = off_loop(lambda: Game.objects.get(pk=game.pk))
        self.assertEqual(taken.bots, {str(leaver): "medium"})
        self.assertFalse(taken.paused)
        # The bot's first action for the seat reaches every page. Not "the
        # version after ``taken``": the instant bot may have played its whole
        # turn (roll and move) before that read, and then no version follows
        # until a person moves.
        for page in pages.values():
            page.wait_for_function(BOT_ACTED_JS, arg=leaver)
        acted = off_loop(lambda: Event.objects.filter(game=game, kind="act", seat=leaver).exists())
        self.assertTrue(acted)
        moves = "\n".join(self.state(pages[others[1]])["moves"])
        self.assertRegex(moves, rf"A bot plays \w+ \({users[leaver].username}\) from move")
        self.assertEqual(self.page_errors, [])
        page = pages[others[1]]
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("#moves").scroll_into_view_if_needed()
            self.shot(page, f"bot-plays-{width}")
