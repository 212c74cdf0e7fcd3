"""Sanctions told where they bite, in the browser (issue 48, item 5): a
warning is a banner on the next pages until its player acknowledges it (by
keyboard here); a play-ban says so at the lobby's seek buttons and turns off
the realtime seeks; a mute says so at the chat box. Each with its end time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderation.models import PlayBan, Sanction, Standing
from moderation.services import user_moderate
from tests.factories import make_user

from .axe import AxeMixin, require_axe
from .helpers import BrowserLiveTestCase, off_loop, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

UTC = "%Y-%m-%d %H:%M UTC"


class SanctionNotices(AxeMixin, BrowserLiveTestCase):
    impacts = ["serious", "critical"]

    def page_for(self, user, width: int = 360):
        page = self.new_page(user.username, user)
        page.set_extra_http_headers({"Accept-Language": "de"})
        page.set_viewport_size({"width": width, "height": 800})
        return page

    def test_a_warning_stays_until_acknowledged(self):
        require_axe()
        bob = off_loop(make_user, "bob")
        moderator = off_loop(make_user, "mod", moderator=True)
        off_loop(
            user_moderate, moderator=moderator, username="bob", action="warn", note="Bitte fair."
        )
        page = self.page_for(bob)
        page.goto(self.live_server_url + "/")
        page.wait_for_selector("[data-testid=warning-banner]:has-text('Bitte fair.')")
        self.shot(page, "warning-de-360")
        assert self.axe(page, "warning-lobby") == []
        page.goto(self.live_server_url + "/my/games/")  # the next page: still there
        page.wait_for_selector("[data-testid=warning-banner]")
        page.focus("[data-testid=warning-ack]")
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=warning-banner]", state="detached")
        assert page.evaluate("() => document.activeElement.id") == "main"
        page.reload()
        page.wait_for_selector("main")
        assert page.locator("[data-testid=warning-banner]").count() == 0
        warning = off_loop(lambda: Sanction.objects.get(user=bob, action="warn"))
        assert "acknowledged" in warning.detail
        assert self.page_errors == []

    def test_a_playban_at_the_seek_buttons_and_a_mute_at_the_chat_box(self):
        require_axe()
        bob, ann = off_loop(make_user, "bob"), off_loop(make_user, "ann")
        now = timezone.now()
        ban_until, mute_until = now + timedelta(minutes=40), now + timedelta(days=3)
        off_loop(PlayBan.objects.create, user=bob, minutes=40, reason="leave", until=ban_until)
        off_loop(Standing.objects.create, user=bob, muted_until=mute_until)
        page = self.page_for(bob, 1280)
        page.goto(self.live_server_url + "/")
        note = page.wait_for_selector("[data-testid=playban-note]")
        assert ban_until.strftime(UTC) in note.inner_text()
        assert page.is_enabled("[data-testid=quickplay]")  # correspondence stays open
        page.select_option("[data-testid=clock-kind]", "realtime")
        page.wait_for_selector("[data-testid=quickplay]:disabled")
        self.shot(page, "playban-de-1280")
        assert self.axe(page, "playban-lobby") == []
        page.set_viewport_size({"width": 360, "height": 800})
        page.locator("[data-testid=playban-note]").scroll_into_view_if_needed()
        self.shot(page, "playban-de-360")
        page.select_option("[data-testid=clock-kind]", "correspondence")
        page.wait_for_selector("[data-testid=quickplay]:enabled")

        game = started_table("halma", [ann, bob], seat_count=2)
        page.goto(f"{self.live_server_url}/g/{game}/")
        self.wait_connected(page)
        muted = page.wait_for_selector("[data-testid=chat-muted]")
        assert mute_until.strftime(UTC) in muted.inner_text()
        assert page.is_disabled("#chat-input")
        page.locator("[data-testid=chat-muted]").scroll_into_view_if_needed()
        self.shot(page, "muted-de-360")
        assert self.axe(page, "muted-game") == []
        assert self.page_errors == []
