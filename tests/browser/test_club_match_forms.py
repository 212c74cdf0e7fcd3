"""A club match made on the pages, at 360 px and by keyboard where it counts:
the home club's owner challenges on the club page, the other club's owner
accepts on the match page, both name their lineups in the page's form, and
the owner starts it; the boards are there, paired."""

from __future__ import annotations

import pytest

from lobby.clubs import club_create, club_join

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _two_clubs(users: dict) -> int:
    home = club_create(creator=users["hanna"], name="Spieleabend Nord")
    away = club_create(creator=users["otto"], name="Halma Süd")
    for club, names in ((home, ("hugo", "heidi")), (away, ("aria", "anton"))):
        for name in names:
            club_join(club_id=club.pk, user=users[name])
    return home.pk


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
