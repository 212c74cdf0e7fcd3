"""Issue 48 in the browser (Chromium, 360 px and 1280 px, English and German):
the tournament form shows the fields of the chosen time control (days per move
for correspondence, minutes for realtime), its checkboxes sit beside their
labels, "I only organise" keeps the creator out and the page says who plays;
the bell's panel closes with Escape and gives the focus back to the bell.

The German words need the compiled catalogue (locale/de/LC_MESSAGES/django.mo)."""

from __future__ import annotations

import pytest

from .helpers import BrowserLiveTestCase

pytestmark = [pytest.mark.browser, pytest.mark.live]

WIDTHS = {"phone": 360, "desk": 1280}
WORDS = {
    "en": {
        "days": "Days per move",
        "minutes": "Minutes per player",
        "organise": "I only organise (I don't play)",
        "rated": "Rated",
        "plays": "who plays too",
        "only": "who does not play",
    },
    "de": {
        "days": "Tage pro Zug",
        "minutes": "Minuten pro Spieler",
        "organise": "Ich organisiere nur (ich spiele nicht mit)",
        "rated": "Gewertet",
        "plays": "spielt selbst mit",
        "only": "spielt selbst nicht mit",
    },
}

# The checkbox and its words share one line: their vertical centres meet, and
# the words start right of the box.
SIDE_BY_SIDE_JS = """(testid) => {
  const box = document.querySelector(`[data-testid=${testid}]`);
  const label = box.closest("label");
  const b = box.getBoundingClientRect(), l = label.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(label);
  const words = [...range.getClientRects()].filter((r) => r.left >= b.right - 1);
  return { boxMiddle: b.top + b.height / 2, labelMiddle: l.top + l.height / 2,
           labelHeight: l.height, boxHeight: b.height, wordsRight: words.length > 0 };
}"""


class TournamentFormInTheBrowser(BrowserLiveTestCase):
    def page_in(self, name: str, user, language: str, width: int):
        page = self.new_page(name, user)
        page.context.set_extra_http_headers({"Accept-Language": language})
        page.set_viewport_size({"width": width, "height": 900})
        return page

    def assert_side_by_side(self, page, testid: str) -> None:
        geometry = page.evaluate(SIDE_BY_SIDE_JS, testid)
        self.assertLess(abs(geometry["boxMiddle"] - geometry["labelMiddle"]), 4, geometry)
        self.assertLess(geometry["labelHeight"], 3 * geometry["boxHeight"] + 16, geometry)
        self.assertTrue(geometry["wordsRight"], geometry)

    def check_form(self, page, words: dict[str, str], tag: str) -> None:
        page.goto(f"{self.live_server_url}/tournaments/")
        page.wait_for_selector("[data-testid=tournament-form][data-ready=true]")
        days = page.get_by_label(words["days"], exact=True)
        minutes = page.get_by_label(words["minutes"], exact=True)
        # Correspondence (the default): days per move, no minutes.
        self.assertTrue(days.is_visible())
        self.assertTrue(page.get_by_test_id("tournament-round-days").is_visible())
        self.assertTrue(minutes.is_hidden())
        self.assertFalse(page.get_by_text(words["minutes"]).is_visible())
        page.get_by_test_id("tournament-form").scroll_into_view_if_needed()
        self.shot(page, f"form-correspondence-{tag}")
        page.select_option("[data-testid=tournament-clock]", "realtime")
        self.assertTrue(minutes.is_visible())
        self.assertTrue(page.get_by_test_id("tournament-increment").is_visible())
        self.assertTrue(days.is_hidden())
        self.assertTrue(page.get_by_test_id("tournament-round-days").is_hidden())
        page.get_by_test_id("tournament-create").scroll_into_view_if_needed()
        self.shot(page, f"form-realtime-{tag}")
        page.select_option("[data-testid=tournament-clock]", "none")
        self.assertTrue(days.is_hidden() and minutes.is_hidden())
        page.select_option("[data-testid=tournament-clock]", "correspondence")
        self.assertTrue(days.is_visible() and minutes.is_hidden())
        # The checkboxes: beside their words, and named by them.
        for testid in ("tournament-rated", "tournament-organise-only"):
            self.assert_side_by_side(page, testid)
        rated = page.get_by_label(words["rated"], exact=True)
        self.assertFalse(rated.is_checked())
        page.get_by_text(words["rated"], exact=True).click()  # the words tick the box
        self.assertTrue(rated.is_checked())
        rated.uncheck()
        organise = page.get_by_label(words["organise"], exact=True)
        self.assertFalse(organise.is_checked())
        self.assertTrue(page.get_by_test_id("organise-hint").is_visible())
        width = page.evaluate("document.documentElement.scrollWidth")
        self.assertLessEqual(width, page.viewport_size["width"], "the page scrolls sideways")

    def create(self, page, name: str, *, organise_only: bool) -> None:
        page.fill("[data-testid=tournament-name]", name)
        if organise_only:
            page.check("[data-testid=tournament-organise-only]")
        page.click("[data-testid=tournament-create]")
        page.wait_for_url("**/tournaments/*/")

    def test_the_form_follows_the_clock_and_the_page_says_who_plays(self):
        for language, words in WORDS.items():
            for width in WIDTHS.values():
                tag = f"{language}-{width}"
                (boss,) = self.users(f"boss{language}{width}")
                page = self.page_in(f"boss-{tag}", boss, language, width)
                self.check_form(page, words, tag)
                self.create(page, f"Cup {tag}", organise_only=False)
                said = page.get_by_test_id("organiser-plays")
                self.assertIn(words["plays"], said.inner_text())
                self.assertIn(boss.username, said.inner_text())
                standings = page.locator("[data-testid=standings] tbody tr")
                self.assertEqual(standings.count(), 1)
                self.assertIn(boss.username, standings.first.inner_text())
                self.assertTrue(page.get_by_test_id("tournament-withdraw").is_visible())
                self.shot(page, f"creator-plays-{tag}")
                page.goto(f"{self.live_server_url}/tournaments/")
                page.wait_for_selector("[data-testid=tournament-form][data-ready=true]")
                self.create(page, f"Organised {tag}", organise_only=True)
                said = page.get_by_test_id("organiser-only")
                self.assertIn(words["only"], said.inner_text())
                self.assertEqual(page.locator("[data-testid=standings] tbody tr").count(), 0)
                self.assertTrue(page.get_by_test_id("tournament-join").is_visible())
                self.shot(page, f"organiser-only-{tag}")
        self.assertEqual(self.page_errors, [])

    def test_escape_closes_the_bell_and_focus_returns_to_it(self):
        (ann,) = self.users("ann")
        for kind, width in WIDTHS.items():
            page = self.page_in(f"ann-{kind}", ann, "en", width)
            page.goto(f"{self.live_server_url}/tournaments/")
            bell, panel = page.get_by_test_id("bell"), page.locator("#bell-panel")
            bell.click()
            panel.wait_for(state="visible")
            self.assertEqual(bell.get_attribute("aria-expanded"), "true")
            self.shot(page, f"bell-open-{width}")
            page.keyboard.press("Escape")
            panel.wait_for(state="hidden")
            self.assertEqual(bell.get_attribute("aria-expanded"), "false")
            self.assertTrue(bell.evaluate("(el) => el === document.activeElement"))
            # From inside the panel too: the focus goes back to the bell.
            bell.click()
            panel.wait_for(state="visible")
            page.locator("#bell-read").focus()
            page.keyboard.press("Escape")
            panel.wait_for(state="hidden")
            self.assertTrue(bell.evaluate("(el) => el === document.activeElement"))
            self.shot(page, f"bell-closed-{width}")
            # A closed panel lets Escape be: nothing opens, the focus stays put.
            page.get_by_test_id("tournament-name").focus()
            page.keyboard.press("Escape")
            self.assertTrue(panel.is_hidden())
            self.assertTrue(
                page.get_by_test_id("tournament-name").evaluate(
                    "(el) => el === document.activeElement"
                )
            )
        self.assertEqual(self.page_errors, [])
