"""A club match made on the pages, at 360 px and by keyboard where it counts:
the home club's owner challenges on the club page, the other club's owner
accepts on the match page, both name their lineups in the page's form, and
the owner starts it; the boards are there, paired. A lineup half typed in
stays (values and caret) when the page re-reads itself for the other club's
lineup."""

from __future__ import annotations

import pytest

from lobby.clubs import club_create, club_join
from lobby.clubs.matches import club_match_accept, club_match_challenge

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _two_clubs(users: dict) -> int:
    return _clubs(users)[0]


def _clubs(users: dict) -> tuple[int, int]:
    home = club_create(creator=users["hanna"], name="Spieleabend Nord")
    away = club_create(creator=users["otto"], name="Halma Süd")
    for club, names in ((home, ("hugo", "heidi")), (away, ("aria", "anton"))):
        for name in names:
            club_join(club_id=club.pk, user=users[name])
    return home.pk, away.pk


def _accepted_match(users: dict) -> int:
    home_id, away_id = _clubs(users)
    match = club_match_challenge(
        user=users["hanna"], club_id=home_id, opponent=away_id, ruleset="halma", boards=2
    )
    club_match_accept(user=users["otto"], match_id=match.pk)
    return match.pk


class ClubMatchFromThePages(BrowserLiveTestCase):
    def _phone(self, name: str, user):
        page = self.new_page(name, user)
        page.set_viewport_size({"width": 360, "height": 740})
        return page

    def _lineup(self, page, side: str, names: tuple[str, str]) -> None:
        # The page re-reads itself once its socket joined: typing starts after that.
        page.wait_for_selector("body[data-club-match-socket=joined]")
        for n, name in enumerate(names, start=1):
            page.fill(f"[data-testid=lineup-{side}-{n}]", name)
        page.click(f"[data-testid=lineup-save-{side}]")
        page.wait_for_selector(f"[data-testid=lineup-{side}] li >> nth=1")

    def test_challenge_accept_lineups_and_start_on_the_pages(self):
        names = ("hanna", "hugo", "heidi", "otto", "aria", "anton")
        users = dict(zip(names, self.users(*names), strict=True))
        home_id = off_loop(_two_clubs, users)

        hanna = self._phone("hanna", users["hanna"])
        hanna.goto(f"{self.live_server_url}/clubs/{home_id}/")
        hanna.fill("[data-testid=challenge-opponent]", "Halma Süd")
        hanna.fill("[data-testid=challenge-boards]", "2")
        hanna.locator("[data-testid=club-challenge]").scroll_into_view_if_needed()
        self.shot(hanna, "club-challenge-form-360")
        hanna.focus("[data-testid=challenge-boards]")
        hanna.keyboard.press("Enter")  # the form is sent from the keyboard
        hanna.wait_for_selector("[data-testid=club-match][data-status=proposed]")
        match_url = hanna.url
        self.shot(hanna, "club-match-form-proposed-360")

        otto = self._phone("otto", users["otto"])
        otto.goto(match_url)
        otto.click("[data-testid=club-match-accept]")
        otto.wait_for_selector("[data-testid=club-match][data-status=accepted]")
        self._lineup(otto, "away", ("aria", "anton"))
        hanna.reload()
        self._lineup(hanna, "home", ("heidi", "hugo"))
        self.shot(hanna, "club-match-form-lineups-360")
        hanna.click("[data-testid=club-match-start]")
        hanna.wait_for_selector("[data-testid=club-match][data-status=running]")
        self.assertEqual(hanna.locator("[data-testid=board-game]").count(), 2)
        width = hanna.evaluate("document.documentElement.scrollWidth")
        self.assertLessEqual(width, 360, "the page scrolls sideways on a phone")
        self.assertEqual(self.page_errors, [])

    def test_a_half_typed_lineup_survives_the_other_clubs_push(self):
        names = ("hanna", "hugo", "heidi", "otto", "aria", "anton")
        users = dict(zip(names, self.users(*names), strict=True))
        match_id = off_loop(_accepted_match, users)
        url = f"{self.live_server_url}/club-matches/{match_id}/"
        hanna, otto = self._phone("hanna", users["hanna"]), self._phone("otto", users["otto"])
        for page in (hanna, otto):
            page.goto(url)
            page.wait_for_selector("body[data-club-match-socket=joined]")
        # Hanna is in the middle of her lineup, the caret in the second field.
        hanna.fill("[data-testid=lineup-home-1]", "heidi")
        hanna.click("[data-testid=lineup-home-2]")
        hanna.keyboard.type("hu")
        # Otto saves his: Hanna's page is pushed the change and re-reads itself.
        self._lineup(otto, "away", ("aria", "anton"))
        hanna.wait_for_selector("[data-testid=lineup-away] li >> nth=1")
        self.shot(hanna, "club-match-lineup-kept-360")
        kept = hanna.evaluate(
            """() => ({ one: document.querySelector("[data-testid=lineup-home-1]").value,
                        two: document.querySelector("[data-testid=lineup-home-2]").value,
                        focus: document.activeElement?.dataset.testid ?? null })"""
        )
        self.assertEqual(kept, {"one": "heidi", "two": "hu", "focus": "lineup-home-2"})
        # She types on where she was, and sends it from the keyboard.
        hanna.keyboard.type("go")
        hanna.keyboard.press("Enter")
        hanna.wait_for_selector("[data-testid=lineup-home] li >> nth=1")
        named = hanna.locator("[data-testid=lineup-home] li a").all_inner_texts()
        self.assertEqual(named, ["heidi", "hugo"])
        self.assertEqual(self.page_errors, [])
