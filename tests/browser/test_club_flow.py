"""A club in Chromium (issue 52): its owner creates a closed club from the
list, a second player joins by the invite link, a chat line of one appears
live on the other's page, the owner renews the code (the old link stops
working; the member's page never holds a code); the same pages at 360 px in
German, by keyboard."""

from __future__ import annotations

import pytest

from lobby.models import Club
from lobby.selectors import clubs as read
from moderation.models import Report
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

SOCKET_READY = "() => document.documentElement.dataset.clubSocket === 'ready'"
FITS_JS = "() => document.documentElement.scrollWidth"


class ClubInTheBrowser(BrowserLiveTestCase):
    def test_create_join_by_link_chat_live_and_renew(self):
        owner, anna = off_loop(make_user, "vorstand"), off_loop(make_user, "anna")
        a = self.new_page("owner", owner)
        a.goto(f"{self.live_server_url}/clubs/")
        a.fill("[data-testid=club-name]", "Spieleabend Nord")
        a.fill("[data-testid=club-description]", "Freitags ab sieben.")
        a.check("[data-testid=club-closed]")
        self.shot(a, "list-form")
        a.click("[data-testid=club-create]")
        a.wait_for_selector("[data-testid=club-invite-link]")
        club = off_loop(Club.objects.get, name="Spieleabend Nord")
        link = a.input_value("[data-testid=club-invite-link]")
        assert link.endswith(f"/clubs/{club.pk}/join/?invite={club.invite}")
        a.wait_for_function(SOCKET_READY)
        self.shot(a, "owner")

        b = self.new_page("anna", anna)
        b.goto(link)
        b.wait_for_selector("[data-testid=club-join-confirm]")
        self.shot(b, "join-link")
        b.click("[data-testid=club-join-confirm]")
        b.wait_for_selector("[data-testid=my-role]")
        assert off_loop(read.is_member, club.pk, anna.pk)
        assert club.invite not in b.content()
        b.wait_for_function(SOCKET_READY)
        # The owner's page hears that the club changed: anna is listed without a reload.
        a.wait_for_selector("[data-testid=member] >> text=anna")

        b.fill("#chat-input", "Hallo zusammen!")
        b.press("#chat-input", "Enter")
        a.wait_for_selector("#chat-log li >> text=Hallo zusammen!")
        assert b.locator("#chat-log li", has_text="Hallo zusammen!").count() == 1
        self.shot(a, "chat-arrived")
        # Nobody reports their own line; the owner may report anna's.
        assert b.locator("#chat-log [data-testid=report-line]").count() == 0
        a.wait_for_selector("#chat-log li >> [data-testid=report-line]")
        # Reported, the line reaches moderation with the club and its place in the chat.
        a.click("#chat-log li >> [data-testid=report-line]")
        a.wait_for_selector("#chat-log li >> [data-testid=report-line][disabled]")
        evidence = off_loop(lambda: Report.objects.get(target=anna).evidence)
        assert evidence["club"]["id"] == club.pk
        assert [line["text"] for line in evidence["chat"] if line["reported"]] == [
            "Hallo zusammen!"
        ]

        old = club.invite
        a.click("[data-testid=club-invite-renew]")
        a.wait_for_function(
            # Null while the form's answer loads: keep waiting, never a TypeError.
            "old => {const e = document.querySelector('[data-testid=club-invite-link]');"
            " return !!e && !e.value.endsWith(old);}",
            arg=old,
        )
        club.refresh_from_db()
        assert club.invite and club.invite != old
        assert club.invite in a.input_value("[data-testid=club-invite-link]")
        self.shot(a, "renewed")
        assert club.invite not in b.content()
        assert not self.page_errors

    def test_the_pages_at_360_px_in_german_by_keyboard(self):
        owner, anna = off_loop(make_user, "besitzer"), off_loop(make_user, "berta")
        page = self.new_page("owner", owner)
        page.set_extra_http_headers({"Accept-Language": "de"})
        page.set_viewport_size({"width": 360, "height": 800})
        page.goto(f"{self.live_server_url}/clubs/")
        assert page.evaluate(FITS_JS) <= 360
        page.focus("[data-testid=club-name]")
        page.keyboard.type("Kinderrunde")
        page.keyboard.press("Tab")
        page.keyboard.type("Malefiz mit den Kindern")
        page.keyboard.press("Tab")
        page.keyboard.press("Space")  # closed
        assert page.is_checked("[data-testid=club-closed]")
        self.shot(page, "phone-list")
        page.focus("[data-testid=club-create]")
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=club-invite-link]")
        assert "Mitglieder" in page.inner_text("[data-testid=club-members]")
        assert page.evaluate(FITS_JS) <= 360
        self.shot(page, "phone-club-owner")
        club = off_loop(Club.objects.get, name="Kinderrunde")

        other = self.new_page("berta", anna)
        other.set_extra_http_headers({"Accept-Language": "de"})
        other.set_viewport_size({"width": 360, "height": 800})
        other.goto(f"{self.live_server_url}/clubs/{club.pk}/")
        assert "Einladungscode" in other.inner_text("#club-live")
        other.focus("[data-testid=club-invite-input]")
        other.keyboard.type(club.invite)
        other.keyboard.press("Enter")
        other.wait_for_selector("[data-testid=my-role]")
        assert other.evaluate(FITS_JS) <= 360
        other.wait_for_function(SOCKET_READY)
        other.focus("#chat-input")
        other.keyboard.type("Wer spielt heute?")
        other.keyboard.press("Enter")
        other.wait_for_selector("#chat-log li >> text=Wer spielt heute?")
        self.shot(other, "phone-member-chat")
        assert club.invite not in other.content()
        assert not self.page_errors
