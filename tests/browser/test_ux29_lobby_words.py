"""Issue 29, items 2 and 7 in Chromium: quick play pairs identical seeks
without offering the other one; the lobby's lists keep to the wide column; the
words people read (the push switch's failure, a vacation's end) are the site's,
not the browser's or an ISO string; /favicon.ico is the site's icon.

Run: .venv/bin/pytest tests/browser/test_ux29_lobby_words.py -rA
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services import vacation as vacations
from lobby import services as lobby
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop, settle

pytestmark = [pytest.mark.browser, pytest.mark.live]

# The browser refuses the subscription as Chromium does when the push
# service will not register this origin.
REFUSING_PUSH = """(() => {
  Notification.requestPermission = async () => "granted";
  PushManager.prototype.getSubscription = async function () { return null; };
  PushManager.prototype.subscribe = async function () {
    throw new DOMException("Registration failed - permission denied", "NotAllowedError");
  };
})();"""


class LobbyAndWordsTests(BrowserLiveTestCase):
    def page_at(self, name, width, user=None):
        page = self.new_page(name, user)
        page.set_viewport_size({"width": width, "height": 900 if width > 400 else 740})
        return page

    def test_an_identical_seek_pairs_at_once_instead_of_offering_itself(self):
        anna, bernd = (off_loop(make_user, n) for n in ("anna", "bernd"))
        # Anna seeks the lobby form's default: 3 days per move, no bank.
        seek = off_loop(
            lobby.table_quickplay,
            user=anna,
            ruleset="halma",
            clock={"kind": "correspondence", "days": 3, "bank": 0},
        )
        page = self.page_at("bernd", 1280, bernd)
        page.goto(f"{self.live_server_url}/")
        page.wait_for_selector("#open-tables tr")
        page.select_option("#ruleset-select", "halma")
        self.assertEqual(page.input_value("[data-testid=clock-bank]"), "0")
        page.click("[data-testid=quickplay]")
        page.wait_for_url(f"**/g/{seek.pk}/")
        self.assertTrue(page.locator("[data-testid=quickplay-offer]").count() == 0)
        joined = off_loop(lambda: Game.objects.get(pk=seek.pk))
        self.assertEqual(joined.status, Game.Status.ACTIVE)
        self.assertEqual(self.page_errors, [])

    def test_a_seek_with_another_bank_is_offered_with_its_bank_named(self):
        anna, bernd = (off_loop(make_user, n) for n in ("anna", "bernd"))
        off_loop(
            lobby.table_quickplay,
            user=anna,
            ruleset="halma",
            clock={"kind": "correspondence", "days": 3, "bank": 5},
        )
        page = self.page_at("bernd", 360, bernd)
        page.goto(f"{self.live_server_url}/")
        page.wait_for_selector("#open-tables tr")
        page.click("[data-testid=quickplay]")
        offer = page.locator("[data-testid=quickplay-offer]")
        offer.wait_for()
        self.assertIn("3 days per move + 5 days bank", offer.inner_text())
        offer.scroll_into_view_if_needed()
        self.shot(page, "offer-360")

    def test_a_tables_time_bank_is_named_in_the_lobby_and_on_its_waiting_page(self):
        anna, bernd = (off_loop(make_user, n) for n in ("anna", "bernd"))
        one = off_loop(
            lobby.table_create,
            host=anna,
            ruleset="halma",
            clock={"kind": "correspondence", "days": 2, "bank": 1},
        )
        page = self.page_at("bernd", 360, bernd)
        page.goto(f"{self.live_server_url}/")
        row = page.locator(f"#open-tables tr[data-table='{one.pk}'] [data-testid=clock]")
        row.wait_for()
        self.assertEqual(row.inner_text(), "2 days per move + 1 day bank")
        page.goto(f"{self.live_server_url}/g/{one.pk}/")
        clock = page.locator("[data-testid=waiting-clock]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=waiting-clock]').textContent"
        )
        self.assertEqual(clock.inner_text(), "2 days per move + 1 day bank")
        self.shot(page, "waiting-bank-360")
        self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), 360)
        self.assertEqual(self.page_errors, [])

    def test_live_games_stay_in_the_wide_column_without_friends_playing(self):
        users = [off_loop(make_user, n) for n in ("anna", "bernd")]

        def live():
            game = lobby.table_create(host=users[0], ruleset="halma")
            lobby.table_join(game_id=game.pk, user=users[1])
            lobby.table_start(game_id=game.pk, user=users[0])

        off_loop(live)
        viewer = off_loop(make_user, "cleo")
        for width in (1280, 360):
            page = self.page_at(f"cleo-{width}", width, viewer)
            page.goto(f"{self.live_server_url}/")
            page.wait_for_selector("#live-games tr")
            self.assertEqual(page.locator("[data-testid=friends-playing]").count(), 0)
            boxes = page.evaluate(
                """() => Object.fromEntries(["play-heading", "tables-heading", "live-heading"]
                  .map((id) => { const r = document.getElementById(id).closest("section").getBoundingClientRect();
                    return [id, { left: r.left, right: r.right, width: r.width }]; }))"""
            )
            settle(page)
            page.screenshot(path=str(self._shot_path(f"lobby-{width}")), full_page=True)
            if width == 1280:
                play, tables, live_box = (
                    boxes["play-heading"],
                    boxes["tables-heading"],
                    boxes["live-heading"],
                )
                self.assertGreater(live_box["left"], play["right"], boxes)
                self.assertAlmostEqual(live_box["left"], tables["left"], delta=1)
                self.assertAlmostEqual(live_box["width"], tables["width"], delta=1)
            self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), width)

    def test_the_push_switch_says_what_to_do_when_the_browser_refuses(self):
        user = off_loop(make_user, "sven")
        page = self.page_at("sven", 360, user)
        page.context.add_init_script(REFUSING_PUSH)
        page.goto(f"{self.live_server_url}/accounts/settings/")
        page.wait_for_selector("[data-testid=push-state][data-state=off]")
        page.click("[data-testid=push-on]")
        toast = page.locator("#toast")
        toast.wait_for()
        text = toast.inner_text()
        self.assertNotIn("Registration failed", text)
        self.assertIn("site settings", text)
        self.shot(page, "push-refused-360")

    def test_a_vacation_end_is_written_in_words_and_favicon_ico_is_there(self):
        user = off_loop(make_user, "vera")
        until = timezone.now() + timedelta(days=4)
        off_loop(vacations.vacation_start, user=user, until=until)
        page = self.page_at("vera", 1280, user)
        page.goto(f"{self.live_server_url}/accounts/settings/")
        status = page.inner_text("[data-testid=vacation-status]")
        self.assertNotRegex(status, r"\d{4}-\d{2}-\d{2}")
        self.assertIn(f"{until:%B} {until.year}", status)
        self.shot(page, "vacation-1280")
        answer = page.request.get(f"{self.live_server_url}/favicon.ico")
        self.assertEqual(answer.status, 200)
        self.assertIn("svg", answer.headers["content-type"])

    def test_a_refused_move_names_the_field_as_the_board_does(self):
        from .helpers import started_table

        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        game_id = started_table("halma", [white, black])
        page = self.page_at("wanda", 360, white)
        page.goto(f"{self.live_server_url}/g/{game_id}/")
        page.wait_for_function("() => window.__game && window.__game.model.state")
        # What an old tab or an API client may send: a move from an empty field (e5).
        page.evaluate(
            """(game) => window.__game.socket.send({ type: "act", game, version: window.__game.model.version,
              action: { type: "move", path: [[5, 4], [4, 4]] }, ref: "x" })""",
            game_id,
        )
        toast = page.locator("#toast")
        toast.wait_for()
        text = toast.inner_text()
        self.assertIn("e5", text)
        self.assertNotIn("[", text)
        self.shot(page, "field-name-360")

    def _shot_path(self, name):
        from .helpers import SHOTS

        return SHOTS / re.sub(r"[^\w.-]+", "_", f"{self._testMethodName}-{name}.png")
