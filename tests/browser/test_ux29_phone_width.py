"""Issue 29, item 1 in Chromium: every game page fits a 360 px phone in every
state (a correspondence clock with a time bank, a vacation notice, a handover
prompt, a rematch box, long names): ``scrollWidth`` is measured on each.

Run: .venv/bin/pytest tests/browser/test_ux29_phone_width.py -rA
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services import vacation as vacations
from games.services.endings import game_resign
from lobby import services as lobby
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop, settle
from .test_ux29_a11y import play_random

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}
BANK = {"kind": "correspondence", "days": 3, "bank": 7}
GAMES = {"halma": 2, "malefiz": 3, "daschax": 2, "idiotenspiel": 2, "hexenhalma": 3}
# Long names, as people choose them (150 is the limit; these are long enough).
NAMES = ["Maximiliane_von_Hohenzollern", "Bartholomaeus_Wunderlich", "Konstantinopel_Reisender"]
WIDE_JS = """() => { const w = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")].filter((e) => e.checkVisibility())
    .map((e) => ({ e, r: e.getBoundingClientRect() }))
    .filter(({ r }) => r.right > w + 0.5)
    .slice(0, 6).map(({ e, r }) => `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join(".")} ${Math.round(r.right)}`); }"""


class PhoneWidthTests(BrowserLiveTestCase):
    def assert_fits(self, page, name: str) -> None:
        settle(page)
        page.screenshot(path=str(self._shot(name)), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        self.assertLessEqual(width, PHONE["width"], f"{name}: {width} px; {page.evaluate(WIDE_JS)}")

    def _shot(self, name):
        from .helpers import SHOTS

        return SHOTS / f"{self._testMethodName}-{name}.png"

    def test_every_game_with_a_time_bank_and_long_names_fits_360_px(self):
        users = [off_loop(make_user, n) for n in NAMES]
        until = timezone.now() + timedelta(days=3)

        def make(ruleset, seats):
            game = lobby.table_create(
                host=users[0], ruleset=ruleset, seat_count=seats, clock=BANK, rated=False
            )
            for user in users[1:seats]:
                lobby.table_join(game_id=game.pk, user=user)
            lobby.table_start(game_id=game.pk, user=users[0])
            play_random(game.pk, 6)
            return game.pk

        ids = {name: off_loop(make, name, n) for name, n in GAMES.items()}
        off_loop(vacations.vacation_start, user=users[1], until=until)
        page = self.new_page("p0", user=users[0])
        page.set_viewport_size(PHONE)
        for name, game_id in ids.items():
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            self.assert_fits(page, f"{name}-bank-vacation")
        # A Malefiz leaver's seat offered to a bot: the prompt on the others' pages.
        leaver = off_loop(lambda: Game.objects.get(pk=ids["malefiz"]).to_act[0])
        off_loop(game_resign, game_id=ids["malefiz"], user=users[leaver])
        other = self.new_page("other", user=users[(leaver + 1) % 3])
        other.set_viewport_size(PHONE)
        other.goto(f"{self.live_server_url}/g/{ids['malefiz']}/")
        self.wait_connected(other)
        other.wait_for_selector("[data-testid=handover] button")
        self.assert_fits(other, "malefiz-handover")
        # A finished game with its rematch box.
        off_loop(game_resign, game_id=ids["halma"], user=users[1])
        page.goto(f"{self.live_server_url}/g/{ids['halma']}/")
        self.wait_connected(page)
        page.wait_for_selector("#banner:not([hidden])")
        self.assert_fits(page, "halma-rematch")
        for path in ("/", "/my/games/", f"/players/{NAMES[0]}/", "/leaderboard/halma/"):
            page.goto(self.live_server_url + path)
            self.assert_fits(page, path.strip("/").replace("/", "-") or "lobby")
        self.assertEqual(self.page_errors, [])

    def test_the_idiotenspiel_side_panel_at_1280_keeps_its_names_inside(self):
        users = [off_loop(make_user, n) for n in ("Robin_of_Locksley_the_Hooded", "bernd")]

        def make():
            game = lobby.table_create(host=users[0], ruleset="idiotenspiel", clock=BANK)
            lobby.table_join(game_id=game.pk, user=users[1])
            lobby.table_start(game_id=game.pk, user=users[0])
            return game.pk

        game_id = off_loop(make)
        for user in users:
            page = self.new_page(user.username, user=user)
            page.set_viewport_size({"width": 1280, "height": 900})
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            settle(page)
            self.shot(page, f"side-{user.username}")
            side = page.evaluate("document.querySelector('.side').getBoundingClientRect().width")
            self.assertGreaterEqual(side, 300)
            outside = page.evaluate(
                """() => [...document.querySelectorAll("#players li")].filter((li) => {
                  const range = document.createRange(); range.selectNodeContents(li);
                  return range.getBoundingClientRect().right > li.getBoundingClientRect().right + 0.5;
                }).map((li) => li.textContent)"""
            )
            self.assertEqual(outside, [])
        self.assertEqual(self.page_errors, [])
