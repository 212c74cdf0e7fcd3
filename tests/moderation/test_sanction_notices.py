"""Sanctions told where they bite (issue 48, item 5), decided by the server
when the page is drawn: a warning is a banner on every page until its player
acknowledges it (POST, CSRF, throttled, their own only); a mute says so at
the chat box and a play-ban at the lobby's seek buttons, with the end time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from moderation.models import PlayBan, Sanction, Standing
from tests.factories import client_for, make_user, started_game

pytestmark = pytest.mark.django_db


def warn(target: str, note: str = "Mind your language.") -> Sanction:
    moderator = make_user(f"mod-{target}", moderator=True)
    answer = client_for(moderator).post(
        f"/api/moderation/users/{target}/", {"action": "warn", "note": note}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return Sanction.objects.filter(user__username=target, action="warn").latest("pk")


def ack_url(warning: Sanction) -> str:
    return f"/api/moderation/warnings/{warning.pk}/acknowledge/"


def test_a_warning_is_a_banner_on_every_page_until_acknowledged():
    bob = make_user("bob")
    page = Client()
    page.force_login(bob)
    assert b"warning-banner" not in page.get("/").content
    warning = warn("bob", "Stop stalling your games.")
    for path in ("/", "/my/games/", "/tv/"):
        html = page.get(path).content.decode()
        assert 'data-testid="warning-banner"' in html, path
        assert "Stop stalling your games." in html
    answer = client_for(bob).post(ack_url(warning), format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["id"] == warning.pk
    assert b"warning-banner" not in page.get("/").content
    # Again: nothing changes, still 200.
    assert client_for(bob).post(ack_url(warning), format="json").status_code == 200


def test_acknowledging_is_a_csrf_checked_post_of_ones_own_warning():
    bob, eve = make_user("bob"), make_user("eve")
    warning = warn("bob")
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(bob)
    assert checked.post(ack_url(warning)).status_code == 403  # no CSRF token
    cases = [
        (client_for(eve).post(ack_url(warning), format="json"), 404, "not_found"),
        (client_for(bob).get(ack_url(warning)), 405, None),
        (Client().post(ack_url(warning)), 403, None),  # not logged in
        (
            client_for(bob).post("/api/moderation/warnings/999999/acknowledge/", format="json"),
            404,
            "not_found",
        ),
    ]
    for answer, status, code in cases:
        assert answer.status_code == status, answer.content
        body = answer.json()
        assert body["message"]
        if code:
            assert body["code"] == code
    warning.refresh_from_db()
    assert "acknowledged" not in warning.detail  # nothing changed


@pytest.fixture
def writes_2_a_minute(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "writes": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_acknowledging_is_throttled(writes_2_a_minute):
    bob = make_user("bob")
    warning = warn("bob")
    client = client_for(bob)
    answers = [client.post(ack_url(warning), format="json") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[-1].json()["code"] == "throttled"


def test_a_mute_shows_at_the_chat_box_with_its_end():
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(players=[alice, bob])
    until = timezone.now() + timedelta(days=2)
    Standing.objects.create(user=bob, muted_until=until)
    page = Client()
    page.force_login(bob)
    html = page.get(f"/g/{game.pk}/").content.decode()
    assert 'data-testid="chat-muted"' in html
    assert until.strftime("%Y-%m-%d %H:%M UTC") in html
    assert 'id="chat-input" maxlength="500" autocomplete="off"' in html and "disabled" in html
    other = Client()
    other.force_login(alice)
    assert 'data-testid="chat-muted"' not in other.get(f"/g/{game.pk}/").content.decode()


def test_a_playban_shows_at_the_seek_buttons_with_its_end():
    bob = make_user("bob")
    until = timezone.now() + timedelta(minutes=30)
    PlayBan.objects.create(user=bob, minutes=30, reason="leave", until=until)
    page = Client()
    page.force_login(bob)
    html = page.get("/").content.decode()
    assert 'data-testid="playban-note"' in html
    assert until.strftime("%Y-%m-%d %H:%M UTC") in html
    PlayBan.objects.filter(user=bob).update(until=timezone.now() - timedelta(minutes=1))
    assert 'data-testid="playban-note"' not in page.get("/").content.decode()
