"""What players and spectators see of a remis request (issue 17, item 2): the
status says what the game waits for, the request, the rejection with the
admin's reason and the approval are move-list lines on every page (live and
after a reload), and the rejection is told at once, replacing "the game waits"."""

from __future__ import annotations

import pytest

from games.models import RemisRequest

from .helpers import BrowserLiveTestCase, off_loop
from .test_remis_play import repeating_game

pytestmark = [pytest.mark.browser, pytest.mark.live]

WAITING = "Waiting for an admin to decide the remis request."
REASON = "White can still break through on the left wing."


class RemisOutcomes(BrowserLiveTestCase):
    def sized_page(self, name: str, user, width: int):
        page = self.new_page(name, user)
        page.set_viewport_size({"width": width, "height": 800 if width > 500 else 740})
        return page

    def moves(self, page) -> list[str]:
        return page.eval_on_selector_all("#moves li", "els => els.map((e) => e.textContent)")

    def wait_line(self, page, text: str) -> None:
        page.wait_for_function(
            "t => [...document.querySelectorAll('#moves li')].some((li) => li.textContent.includes(t))",
            arg=text,
        )

    def file_deadlock(self, page, reason: str) -> None:
        page.click("[data-testid=remis-open]")
        page.fill(".remis-panel textarea", reason)
        page.click("[data-testid=remis-deadlock]")

    def decide(self, queue, approve: bool, reason: str = "") -> None:
        queue.wait_for_selector(".remis-card [data-testid=approve]")
        if reason:
            queue.fill(".remis-card form.decision input", reason)
        queue.click(f".remis-card [data-testid={'approve' if approve else 'reject'}]")
        queue.wait_for_selector("#queue-empty:not([hidden])")

    def test_filed_rejected_and_approved_are_shown_on_every_page(self):
        game, white, black, admin = off_loop(repeating_game)
        url = f"{self.live_server_url}/g/{game.pk}/"
        pages = {
            "white": self.sized_page("white", white, 1280),
            "black": self.sized_page("black", black, 360),
            "spectator": self.sized_page("spectator", None, 1280),
        }
        for page in pages.values():
            page.goto(url)
            self.wait_connected(page)
        w = pages["white"]
        assert w.inner_text("#status") == "Your turn."
        self.file_deadlock(w, "Both sides are walled in.")
        for page in pages.values():
            self.wait_line(page, "requested remis for deadlock")
            page.wait_for_function(
                "t => document.getElementById('status').textContent === t", arg=WAITING
            )
            assert "your-turn" not in (page.get_attribute("#status", "class") or "")
        self.shot(w, "waiting-1280")
        self.shot(pages["black"], "waiting-360")

        queue = self.new_page("admin", admin)
        queue.on("dialog", lambda dialog: dialog.accept())
        queue.goto(f"{self.live_server_url}/remis/")
        self.decide(queue, approve=False, reason=REASON)
        for page in pages.values():
            self.wait_line(page, REASON)
            page.wait_for_selector("[data-testid=remis-waiting]", state="detached")
            assert page.inner_text("#status") != WAITING
        line = self.moves(w)[-1]
        assert "rejected" in line and REASON in line
        # Told at once, in place of the filing's "the game waits".
        w.wait_for_selector("#toast:not([hidden])")
        assert REASON in w.inner_text("#toast")
        assert w.inner_text("#status") == "Your turn."
        self.shot(w, "rejected-1280")
        self.shot(pages["black"], "rejected-360")

        self.file_deadlock(w, "Still walled in.")
        for page in pages.values():
            page.wait_for_function(
                "t => document.getElementById('status').textContent === t", arg=WAITING
            )
        self.decide(queue, approve=True)
        for page in pages.values():
            page.wait_for_selector("#banner:not([hidden])")
            self.wait_line(page, "approved the remis request")
        self.shot(pages["spectator"], "approved-1280")
        self.shot(pages["black"], "approved-360")

        # A page opened afterwards gets the same lines from the server (resync).
        late = self.sized_page("late", None, 1280)
        late.goto(url)
        self.wait_connected(late)
        remis_lines = [m for m in self.moves(late) if "remis" in m]
        assert remis_lines == [m for m in self.moves(pages["spectator"]) if "remis" in m]
        assert len(remis_lines) == 4, remis_lines
        assert [r.status for r in RemisRequest.objects.filter(game=game).order_by("pk")] == [
            "rejected",
            "approved",
        ]
        assert not self.page_errors
