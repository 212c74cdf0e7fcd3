"""A Halma player files a repetition remis request; an admin approves it on the
queue page while the opponent's and a spectator's pages follow live. A game
that ends while its request waits drops out of the live queue."""

from __future__ import annotations

import pytest

from games.models import Game, RemisRequest
from games.services import remis
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import make_user
from tests.games.halma_script import repetition_log

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


def repeating_game():
    white, black = make_user("weiss"), make_user("schwarz")
    game = lobby.table_create(
        host=white, ruleset="halma", clock={"kind": "realtime", "minutes": 60, "increment": 0}
    )
    lobby.table_join(game_id=game.pk, user=black)
    lobby.table_start(game_id=game.pk, user=white)
    for version, (seat, action) in enumerate(repetition_log(104, 2), start=1):
        game_act(game_id=game.pk, user=[white, black][seat], version=version, action=action)
    return Game.objects.get(pk=game.pk), white, black, make_user("admin", staff=True)


class RemisInTheBrowser(BrowserLiveTestCase):
    def test_repetition_request_approved_on_the_queue_page(self):
        game, white, black, admin = off_loop(repeating_game)
        url = f"{self.live_server_url}/g/{game.pk}/"
        pages = {}
        for name, user in (("white", white), ("black", black), ("spectator", None)):
            page = self.new_page(name, user)
            page.goto(url)
            self.wait_connected(page)
            pages[name] = page
        w = pages["white"]
        assert w.inner_text("[data-testid=move-number]").endswith("57")
        # The control only where a request is possible: not on the waiting side's page.
        w.wait_for_selector("[data-testid=remis-open]")
        for name in ("black", "spectator"):
            assert pages[name].locator("[data-testid=remis-open]").count() == 0
        w.click("[data-testid=remis-open]")
        w.wait_for_selector("[data-testid=remis-repetition]")
        self.shot(w, "remis-panel")
        assert "53, 55, 57" in w.inner_text("[data-testid=remis-repetition]")
        w.click("[data-testid=remis-repetition]")
        for page in pages.values():
            page.wait_for_selector("[data-testid=remis-waiting]")
        assert pages["black"].locator(".piece.movable").count() == 0
        self.shot(pages["spectator"], "remis-waiting")

        queue = self.new_page("admin", admin)
        queue.goto(f"{self.live_server_url}/remis/")
        queue.wait_for_selector(".remis-card")
        assert "yes" in queue.inner_text(".remis-card p.row")
        assert queue.locator(".mini-boards figure").count() == 3
        self.shot(queue, "queue")
        queue.once("dialog", lambda dialog: dialog.accept())  # approving asks first
        queue.click("[data-testid=approve]")
        for page in pages.values():
            page.wait_for_selector("#banner:not([hidden])")
            assert "Draw" in page.inner_text("#banner") or "Remis" in page.inner_text("#banner")
        queue.wait_for_selector("#queue-empty:not([hidden])")
        self.shot(pages["black"], "approved")
        request = RemisRequest.objects.get(game=game)
        assert request.status == "approved" and request.decided_by == admin
        assert not self.page_errors

    def test_non_staff_get_403_on_the_queue_page(self):
        user = off_loop(make_user, "curious")
        page = self.new_page("curious", user)
        response = page.goto(f"{self.live_server_url}/remis/")
        assert response.status == 403

    def test_a_resignation_closes_the_waiting_request_and_the_queue_drops_it(self):
        game, white, black, admin = off_loop(repeating_game)
        off_loop(
            remis.remis_request, game_id=game.pk, user=white, kind="deadlock", reason="Walled in."
        )
        queue = self.new_page("admin", admin)
        queue.goto(f"{self.live_server_url}/remis/")
        queue.wait_for_selector(".remis-card [data-testid=realtime]")
        self.shot(queue, "queue-realtime")
        b = self.new_page("black", black)
        b.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(b)
        b.wait_for_selector("[data-testid=remis-waiting]")
        self.resign(b)
        b.wait_for_selector("#banner:not([hidden])")
        queue.wait_for_selector("#queue-empty:not([hidden])")
        self.shot(queue, "queue-after-resignation")
        assert queue.locator(".remis-card").count() == 0
        assert RemisRequest.objects.get(game=game).status == "closed"
        assert not self.page_errors
