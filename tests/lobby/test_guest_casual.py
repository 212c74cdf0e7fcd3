"""A table with a guest is casual, stored so from the moment the guest sits
(issue 48 item 4): the label stays "casual" and nobody's rating moves, even
when the guest signs up before the game ends."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game, RatingChange
from tests.accounts.test_guests import new_guest
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, client_for, make_user
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-pass-4321"


@pytest.fixture(autouse=True)
def _cheap_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def listed(client, pk: int) -> dict:
    [table] = [t for t in client.get("/api/tables/").json() if t["id"] == pk]
    return table


def guest_joins_a_rated_table_then_signs_up() -> tuple[Game, object, object, Client]:
    host = make_user()
    api = client_for(host)
    made = api.post("/api/tables/", {"ruleset": "halma", "rated": True}, format="json")
    assert made.status_code == 201 and made.json()["rated"] is True
    pk = made.json()["id"]
    browser, guest = new_guest()
    joined = browser.post(f"/api/tables/{pk}/join/", {}, content_type="application/json")
    assert joined.status_code == 200 and joined.json()["rated"] is False
    assert Game.objects.get(pk=pk).rated is False  # stored, not only shown
    assert listed(api, pk)["rated"] is False
    assert Game.objects.get(pk=pk).status == Game.Status.ACTIVE  # full: started at once
    signed_up = browser.post(
        "/accounts/signup/",
        {"username": "claimed", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert signed_up.status_code == 302
    assert not get_user_model().objects.get(pk=guest.pk).is_guest
    return Game.objects.get(pk=pk), host, guest, browser


async def test_a_guests_table_stays_casual_in_the_api_and_the_lobby_frame():
    game, host, _guest, browser = await sync_to_async(guest_joins_a_rated_table_then_signs_up)()
    lobby = await connect("/ws/lobby/", host)
    frame = json.loads(await lobby.receive_from(timeout=3))
    [shown] = [t for t in frame["tables"] if t["id"] == game.pk]
    assert shown["rated"] is False
    await lobby.disconnect()

    def play_to_the_end():
        assert listed(client_for(host), game.pk)["rated"] is False
        act = client_for(host).post(
            f"/api/games/{game.pk}/act/", {"version": 1, "action": FIRST_MOVE}, format="json"
        )
        assert act.status_code == 200
        reply = {"version": 2, "action": {"type": "move", "path": [[4, 0], [5, 0]]}}
        assert (
            browser.post(
                f"/api/games/{game.pk}/act/", reply, content_type="application/json"
            ).status_code
            == 200
        )
        resigned = browser.post(f"/api/games/{game.pk}/resign/")
        assert resigned.status_code == 200
        assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
        assert not RatingChange.objects.filter(game=game).exists()

    await sync_to_async(play_to_the_end)()


def test_a_guests_own_table_against_the_computer_is_stored_casual():
    browser, _guest = new_guest()
    made = browser.post(
        "/api/tables/",
        {"ruleset": "halma", "bot": {"level": "easy"}},
        content_type="application/json",
    )
    assert made.status_code == 201
    assert Game.objects.get(pk=made.json()["id"]).rated is False
