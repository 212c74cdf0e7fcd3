"""Issue 17 ("Play it as people do"), the server's part of the lobby and staff
items: a declined challenge says who declined, a game master has no player's
commands nor clock, deadlock claims carry their position, staff see how many
remis requests wait, sign-up shows the password rules up front."""

from __future__ import annotations

import pytest
from django.test import Client

from games.errors import GameError
from games.models import Game, RemisRequest
from games.selectors import remis as remis_reads
from games.selectors.frames import hello_frame, result_text
from games.services import remis
from games.services.endings import (
    game_abort,
    game_accept_draw,
    game_decline_draw,
    game_offer_draw,
    game_resign,
)
from lobby import services as lobby
from tests.factories import make_user
from tests.games.halma_script import repetition_log
from tests.games.test_hexenhalma_platform import new_campaign
from tests.games.test_remis import play

pytestmark = pytest.mark.django_db


def test_a_declined_challenge_says_who_declined():
    host, rival = make_user(), make_user("rival")
    game = lobby.table_create(host=host, ruleset="halma", challenge="rival")
    lobby.table_decline(game_id=game.pk, user=rival)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert result_text(game.result) == "rival declined the challenge."
    hello = hello_frame(game.pk, host)
    assert hello["state"]["result_text"] == "rival declined the challenge."
    assert hello["table"]["host"] == host.username  # the page offers the host a new table


def test_a_host_closing_the_table_is_named():
    host = make_user("anna")
    game = lobby.table_create(host=host, ruleset="halma")
    lobby.table_leave(game_id=game.pk, user=host)
    game.refresh_from_db()
    assert result_text(game.result) == "anna closed the table."


@pytest.mark.parametrize(
    "command", [game_resign, game_offer_draw, game_accept_draw, game_decline_draw, game_abort]
)
def test_the_game_master_has_no_players_commands(command):
    game_id, gm, _one, _two = new_campaign(clock={"kind": "correspondence", "days": 3})
    before = Game.objects.get(pk=game_id)
    with pytest.raises(GameError) as info:
        command(game_id=game_id, user=gm)
    assert info.value.code == "referee" and info.value.status == 403
    assert "game master" in info.value.message
    after = Game.objects.get(pk=game_id)
    assert (after.version, after.status, after.draw_offers) == (
        before.version,
        before.status,
        before.draw_offers,
    )


def test_the_teams_agree_a_draw_without_the_game_master():
    game_id, _gm, one, two = new_campaign()
    Game.objects.filter(pk=game_id).update(rated=False)  # rated, no team moved: an abort
    game_offer_draw(game_id=game_id, user=one)
    game_accept_draw(game_id=game_id, user=two)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED and game.result["draw"] is True


def test_the_game_master_s_turn_has_no_clock():
    game_id, gm, *_ = new_campaign(clock={"kind": "correspondence", "days": 3})
    hello = hello_frame(game_id, gm)
    assert [s["referee"] for s in hello["seats"]] == [True, False, False]
    # The teams write orders now: their clock runs; then the GM's turn has none.
    assert Game.objects.get(pk=game_id).deadline is not None


def test_the_game_master_s_turn_has_no_deadline_and_the_api_refuses_resigning():
    from rest_framework.test import APIClient

    gm, one, two = make_user(), make_user(), make_user()
    game = lobby.table_create(
        host=gm, ruleset="hexenhalma", seat_count=3, clock={"kind": "correspondence", "days": 1}
    )
    for user in (one, two):
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=gm)
    game.refresh_from_db()
    assert game.to_act == [0] and game.deadline is None and game.timer == ""
    client = APIClient()
    client.force_authenticate(gm)
    answer = client.post(f"/api/games/{game.pk}/resign/", {}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "referee"


@pytest.fixture(scope="module")
def long_log():
    return repetition_log(104, 2)


def test_a_deadlock_claim_shows_its_position_and_staff_see_the_count(long_log):
    game, white, _ = play(long_log)
    staff = make_user(staff=True)
    browser = Client()
    browser.force_login(staff)
    assert 'data-testid="remis-count" hidden' in browser.get("/").content.decode()
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled in.")
    page = remis_reads.queue_page()
    position = page["items"][0]["position"]
    assert len(position["pieces"]) == 2 and all(len(p) == 15 for p in position["pieces"])
    assert remis_reads.waiting_count() == 1
    html = browser.get("/").content.decode()
    assert 'data-testid="remis-count">1</span>' in html
    player = Client()
    player.force_login(white)
    assert "remis-nav" not in player.get("/").content.decode()
    request = RemisRequest.objects.get()
    remis.remis_decide(admin=staff, request_id=request.pk, approve=False, reason="Play on.")
    request.refresh_from_db()
    assert remis_reads.request_summary(request)["position"] is None
    assert remis_reads.waiting_count() == 0


def test_sign_up_shows_the_password_rules_before_any_try():
    html = Client().get("/accounts/signup/").content.decode()
    assert 'data-testid="help-password1"' in html
    assert "at least 8 characters" in html
    assert 'aria-describedby="id_password1_helptext"' in html
    assert 'id="id_password1_helptext"' in html
