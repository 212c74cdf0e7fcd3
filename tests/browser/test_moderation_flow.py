"""The whole fair-play flow in Chromium: a player reports a chat line, a
moderator sees it arrive live on /moderation/, mutes the writer on the case
page, the writer's next line is refused with ``muted``, and the reporter's
bell says the report was acted on."""

from __future__ import annotations

import pytest

from moderation.models import Report, Sanction
from tests.factories import make_user, started_game

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]


def cast():
    alice, bob = make_user("alice"), make_user("bob")
    return started_game(players=[alice, bob]), alice, bob, make_user("mod", moderator=True)


class ModerationInTheBrowser(BrowserLiveTestCase):
    def test_report_a_chat_line_mute_and_tell_the_reporter(self):
        game, alice, bob, mod = off_loop(cast)
        queue = self.new_page("mod", mod)
        queue.goto(f"{self.live_server_url}/moderation/")
        queue.wait_for_selector("#queue-live[data-state=open]")
        assert queue.locator("#reports li").count() == 0

        pages = {}
        for name, user in (("alice", alice), ("bob", bob)):
            page = self.new_page(name, user)
            page.goto(f"{self.live_server_url}/g/{game.pk}/")
            self.wait_connected(page)
            pages[name] = page
        a, b = pages["alice"], pages["bob"]
        b.fill("#chat-input", "you are a fool")
        b.press("#chat-input", "Enter")
        line = a.locator("#chat-log li", has_text="you are a fool")
        line.locator("[data-testid=report-line]").click()
        a.wait_for_selector("text=Thank you")
        self.shot(a, "reported")
        # Nobody reports their own lines: no button on bob's own line.
        assert b.locator("#chat-log [data-testid=report-line]").count() == 0

        card = queue.locator("#reports li", has_text="bob")
        card.wait_for()  # arrived live, no reload
        assert queue.inner_text("[data-testid=reports-count]") == "1"
        self.shot(queue, "queue")
        card.locator("a").click()
        queue.wait_for_selector("[data-testid=case]")
        assert "you are a fool" in queue.inner_text("[data-testid=case-chat]")
        queue.select_option("[data-testid=mod-action]", "mute")
        queue.fill("[data-testid=mod-days]", "2")
        queue.fill("[data-testid=mod-note]", "insults in chat")
        queue.click("[data-testid=mod-submit]")
        queue.wait_for_selector("[data-testid=mod-result]:not(:empty)")
        assert "Done" in queue.inner_text("[data-testid=mod-result]"), queue.inner_text(
            "[data-testid=mod-result]"
        )
        self.shot(queue, "case-acted")

        b.fill("#chat-input", "sorry, one more")
        b.press("#chat-input", "Enter")
        b.wait_for_selector("[data-testid=chat-note]:not([hidden])")
        assert "muted" in b.inner_text("[data-testid=chat-note]")
        self.shot(b, "muted")

        a.wait_for_selector("#bell-count:not([hidden])")
        a.click("[data-testid=bell]")
        a.wait_for_selector("[data-testid=bell-list] >> text=acted on")
        self.shot(a, "acted-on")
        report = Report.objects.get()
        assert report.status == "acted" and report.evidence["chat"]
        assert Sanction.objects.get().moderator == mod
        assert not self.page_errors

    def test_report_an_opponent_from_the_game_page_by_keyboard_on_a_phone(self):
        game, alice, _bob, _mod = off_loop(cast)
        page = self.new_page("alice", alice)
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(page)
        opener = page.get_by_role("button", name="Report bob")
        assert page.locator("[data-testid=report-alice]").count() == 0  # not oneself
        opener.focus()
        page.keyboard.press("Enter")
        form = page.locator("[data-testid=game-report]")
        form.wait_for()
        assert "Report bob" in form.inner_text()
        assert page.evaluate("document.activeElement.dataset.testid") == "report-reason"
        page.keyboard.press("ArrowDown")  # cheating -> abuse
        page.keyboard.press("Tab")
        page.keyboard.type("keeps stalling and insulting")
        self.shot(page, "game-report-360")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, width
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.testid") == "report-send"
        page.keyboard.press("Enter")
        note = page.locator("[data-testid=report-status]")
        note.wait_for()
        assert "moderators will look at your report about bob" in note.inner_text()
        assert form.is_hidden()
        page.get_by_role("button", name="bob reported").wait_for()
        report = Report.objects.get()
        assert (report.target.username, report.game_id, report.reason) == ("bob", game.pk, "abuse")
        assert report.text == "keeps stalling and insulting"
        self.shot(page, "game-reported-360")
        page.set_viewport_size({"width": 1280, "height": 800})
        self.shot(page, "game-reported-1280")
        assert not self.page_errors
