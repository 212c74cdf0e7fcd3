"""Club matches in the browser (Chromium, 1200 px and 360 px): the challenged
club's owner accepts on the match page, the lineups are named, the home
club's admin starts it there; a spectator's phone sees the boards and then
each board's result (its game resigned on the game page) and the score
pushed over the lobby socket (``?club_match=<id>``), never reloading, to the
finished match."""

from __future__ import annotations

import pytest

from games.models import Game
from lobby.clubs import club_create, club_join, club_set_role
from lobby.clubs.matches import club_match_challenge, club_match_players_set
from lobby.models import ClubMatchBoard
from tests.factories import every_seat_moves

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _two_clubs(users: dict) -> int:
    """Two clubs (owner, admin, two players each) and a 2-board challenge."""
    home = club_create(creator=users["hanna"], name="Spieleabend Nord")
    away = club_create(creator=users["otto"], name="Halma Süd")
    for club, owner, names in (
        (home, users["hanna"], ("hadmin", "hugo", "heidi")),
        (away, users["otto"], ("aria", "anton")),
    ):
        for name in names:
            club_join(club_id=club.pk, user=users[name])
        if club is home:
            club_set_role(club_id=club.pk, user=owner, username="hadmin", role="admin")
    match = club_match_challenge(
        user=users["hadmin"], club_id=home.pk, opponent=away.pk, ruleset="halma", boards=2
    )
    return match.pk


def _lineups(match_id: int, users: dict) -> None:
    club_match_players_set(user=users["hanna"], match_id=match_id, players=["hugo", "heidi"])
    club_match_players_set(user=users["otto"], match_id=match_id, players=["aria", "anton"])


def _board_games(match_id: int) -> list[Game]:
    boards = ClubMatchBoard.objects.filter(match_id=match_id).order_by("number")
    games = [b.game for b in boards]
    for game in games:
        every_seat_moves(game)
    return games


class ClubMatchInTheBrowser(BrowserLiveTestCase):
    def test_accept_start_and_the_score_live(self):
        names = ("hanna", "hadmin", "hugo", "heidi", "otto", "aria", "anton", "gast")
        users = dict(zip(names, self.users(*names), strict=True))
        match_id = off_loop(_two_clubs, users)
        url = f"{self.live_server_url}/club-matches/{match_id}/"

        phone = self.new_page("spectator", users["gast"])
        phone.set_viewport_size({"width": 360, "height": 740})
        phone.goto(url)
        phone.wait_for_selector("body[data-club-match-socket=joined]")
        self.assertEqual(phone.locator("[data-testid=club-match-accept]").count(), 0)

        away = self.new_page("otto", users["otto"])
        away.goto(url)
        self.shot(away, "club-match-proposed-1200")
        away.click("[data-testid=club-match-accept]")
        away.wait_for_selector("[data-testid=club-match][data-status=accepted]")
        phone.wait_for_selector("[data-testid=club-match][data-status=accepted]")  # pushed
        # Named through the services in this process: its pushes reach no
        # page (the in-memory channel layer is per process, helpers.py); the
        # admin's page shows them when it opens.
        off_loop(_lineups, match_id, users)
        desk = self.new_page("hadmin", users["hadmin"])
        desk.goto(url)
        desk.wait_for_selector("[data-testid=lineup-away] li >> nth=1")
        self.shot(desk, "club-match-lineups-1200")
        desk.click("[data-testid=club-match-start]")
        desk.wait_for_selector("[data-testid=club-match][data-status=running]")
        phone.wait_for_selector("[data-testid=club-match][data-status=running]")
        self.assertEqual(phone.locator("[data-testid=board-game]").count(), 2)
        self.assertEqual(
            [phone.get_attribute(f"[data-testid=board-{n}]", "data-home-seat") for n in (1, 2)],
            ["0", "1"],
        )
        self.shot(phone, "club-match-running-360")

        games = off_loop(_board_games, match_id)  # each seat's first moves
        # The games end on their pages (the live server publishes): board 1
        # (hugo at seat 0 for the home club): aria resigns; board 2 (anton
        # at seat 0 for the away club): heidi resigns.
        played = ((1, games[0], "aria", "1 : 0", "1"), (2, games[1], "heidi", "0 : 1", "1"))
        for number, game, loser, result, home_score in played:
            game_page = self.new_page(loser, users[loser])
            game_page.goto(f"{self.live_server_url}/g/{game.pk}/")
            self.wait_connected(game_page)
            self.resign(game_page)
            phone.wait_for_selector(
                f"[data-testid=board-{number}] [data-testid=board-result]:text-is('{result}')"
            )
            self.assertEqual(phone.inner_text("[data-testid=score-home]"), home_score)
            self.assertEqual(phone.inner_text("[data-testid=score-away]"), str(number - 1))
        phone.wait_for_selector("[data-testid=club-match][data-status=finished]")
        results = phone.locator("[data-testid=board-result]").all_inner_texts()
        self.assertEqual([r.strip() for r in results], ["1 : 0", "0 : 1"])
        self.shot(phone, "club-match-finished-360")
        desk.reload()
        self.shot(desk, "club-match-finished-1200")
        width = phone.evaluate("document.documentElement.scrollWidth")
        self.assertLessEqual(width, 360, "the page scrolls sideways on a phone")
        self.assertEqual(self.page_errors, [])
