"""Issue 34 in the browser (Chromium, 1280 px and 360 px): a Swiss created
from the form, three people join, the creator starts it, every game is played
(one move per seat, then the loser resigns on the game page), the standings
with their tie-breaks refresh by themselves over the lobby socket."""

from __future__ import annotations

import pytest

from lobby.models import Tournament, TournamentPairing
from tests.factories import every_seat_moves

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _round_game(tournament_id: int, number: int) -> tuple[int, int]:
    """The round's one game (three players: one game and a bye), moved once
    per seat; its id and the user id of seat 0."""
    pairing = TournamentPairing.objects.get(tournament_id=tournament_id, round=number, bye=False)
    every_seat_moves(pairing.game)
    return pairing.game_id, pairing.players[0]


class TournamentInTheBrowser(BrowserLiveTestCase):
    def test_create_join_play_to_the_end_with_standings(self):
        boss, ann, bob, cid = self.users("boss", "ann", "bob", "cid")
        desk = self.new_page("boss", boss)
        desk.goto(f"{self.live_server_url}/tournaments/")
        desk.fill("[data-testid=tournament-name]", "Friday Swiss")
        desk.fill("[data-testid=tournament-rounds]", "2")
        desk.check("[data-testid=tournament-organise-only]")  # boss only organises
        self.shot(desk, "create-1280")
        desk.click("[data-testid=tournament-create]")
        desk.wait_for_url("**/tournaments/*/")
        url = desk.url
        phones = {}
        for user in (ann, bob, cid):
            page = self.new_page(user.username, user)
            page.set_viewport_size({"width": 360, "height": 740})
            page.goto(url)
            page.click("[data-testid=tournament-join]")
            page.wait_for_selector("[data-testid=tournament-withdraw]")
            phones[user.pk] = page
        watcher = phones[cid.pk]
        desk.reload()
        desk.click("[data-testid=tournament-start]")
        desk.wait_for_selector("[data-testid=round-1]")
        watcher.wait_for_selector("[data-testid=round-1]")  # pushed, not reloaded
        self.shot(watcher, "round-1-360")
        tournament_id = int(url.rstrip("/").rsplit("/", 1)[1])
        users = {u.pk: u for u in (ann, bob, cid)}
        for number in (1, 2):
            game_id, loser_id = off_loop(_round_game, tournament_id, number)
            game_page = self.new_page(f"game-{number}", users[loser_id])
            game_page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(game_page)
            self.resign(game_page)
            after = (
                "[data-testid=tournament][data-status=finished]"
                if number == 2
                else ("[data-testid=round-2]")
            )
            watcher.wait_for_selector(after)
        desk.reload()
        desk.wait_for_selector("[data-testid=tournament][data-status=finished]")
        rows = desk.locator("[data-testid=standings] tbody tr")
        self.assertEqual(rows.count(), 3)
        self.assertEqual(desk.locator("[data-testid=tiebreak]").count(), 6)  # Buchholz, S-B
        self.shot(desk, "finished-1280")
        self.shot(watcher, "finished-360")
        width = watcher.evaluate("document.documentElement.scrollWidth")
        self.assertLessEqual(width, 360, "the page scrolls sideways on a phone")
        t = off_loop(Tournament.objects.get, pk=tournament_id)
        self.assertEqual(t.status, "finished")
        self.assertEqual(self.page_errors, [])
