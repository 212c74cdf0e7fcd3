"""Blocking and following: the API, refusals of every pairing, hidden chat,
and the lobby's "Friends playing now"."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services.relations import user_block, user_follow
from games.errors import GameError
from games.selectors.frames import hello_frame, opening
from games.selectors.relations import friends_playing
from games.services.chat import chat_post
from lobby import services as lobby
from tests.factories import client_for, make_user, started_game

pytestmark = pytest.mark.django_db


def test_the_api_blocks_unblocks_follows_and_refuses_bad_names():
    anna = make_user("anna")
    make_user("ben")
    api = client_for(anna)
    assert api.post("/api/blocks/BEN/").json() == {"users": ["ben"]}
    assert api.post("/api/blocks/ben/").json() == {"users": ["ben"]}  # twice: no change
    assert api.get("/api/blocks/").json() == {"users": ["ben"]}
    assert api.delete("/api/blocks/ben/").json() == {"users": []}
    assert api.post("/api/follows/ben/").json() == {"users": ["ben"]}
    assert api.delete("/api/follows/ben/").json() == {"users": []}
    missing = api.post("/api/blocks/nobody/")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_user"
    assert api.post("/api/follows/anna/").json()["code"] == "bad_request"
    assert APIClient().post("/api/blocks/ben/").status_code in (401, 403)
    assert APIClient().get("/api/follows/").status_code in (401, 403)


def test_blocking_ends_following_and_a_blocked_player_cannot_follow():
    anna, ben = make_user(), make_user()
    user_follow(user=ben, name=anna.username)
    user_block(user=anna, name=ben.username)
    with pytest.raises(GameError) as err:
        user_follow(user=ben, name=anna.username)
    assert err.value.code == "blocked"
    assert client_for(ben).get("/api/follows/").json() == {"users": []}


@pytest.mark.parametrize("who_blocks", ["host", "guest"])
def test_no_joining_challenging_or_pairing_either_way(who_blocks):
    host, guest = make_user(), make_user()
    blocker, other = (host, guest) if who_blocks == "host" else (guest, host)
    user_block(user=blocker, name=other.username)
    table = lobby.table_create(host=host, ruleset="halma")
    with pytest.raises(GameError) as err:
        lobby.table_join(game_id=table.pk, user=guest)
    assert err.value.code == "blocked" and "blocked" in err.value.message
    with pytest.raises(GameError):
        lobby.table_join_by_invite(code=table.invite_code, user=guest)
    with pytest.raises(GameError) as err:
        lobby.table_create(host=guest, ruleset="halma", challenge=host.username)
    assert err.value.code == "blocked"
    seek = lobby.table_quickplay(user=host, ruleset="daschax")
    mine = lobby.table_quickplay(user=guest, ruleset="daschax")
    assert mine.pk != seek.pk and mine.status == "open"  # a seek of its own, not paired


def test_a_blocked_player_s_chat_is_hidden_for_the_blocker_only():
    white, black = make_user(), make_user()
    spectator = make_user()
    game = started_game(players=[white, black])
    chat_post(game_id=game.pk, user=black, text="hello")
    chat_post(game_id=game.pk, user=white, text="hi")
    user_block(user=white, name=black.username)
    assert [m["text"] for m in hello_frame(game.pk, white)["chat"]] == ["hi"]
    assert [m["text"] for m in hello_frame(game.pk, spectator)["chat"]] == ["hello", "hi"]


def test_a_socket_s_opening_reads_the_blocked_names_once(django_assert_num_queries):
    """Issue 53: the hello read them for its chat, the socket read them again
    (a second query and a second trip to a thread)."""
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    chat_post(game_id=game.pk, user=black, text="hello")
    user_block(user=white, name=black.username)
    with django_assert_num_queries(5):  # blocks, game, seats, chat, events
        hello, blocked = opening(game.pk, white, 0)
    assert blocked == [black.username] and hello["chat"] == []
    assert opening(game.pk + 1000, white, 0) is None
    # A page back from a restart with nothing missed reads no events.
    with django_assert_num_queries(4):  # blocks, game, seats, chat
        hello, _ = opening(game.pk, white, game.version)
    assert hello["events"] == [] and hello["since"] == game.version


def test_friends_playing_lists_followed_players_live_games():
    me, friend, other = make_user(), make_user(), make_user()
    live = started_game(players=[friend, other])
    started_game(players=[other, make_user()])
    user_follow(user=me, name=friend.username)
    assert friends_playing(me) == [
        {"id": live.pk, "ruleset": "halma", "players": [friend.username, other.username]}
    ]
    assert friends_playing(other) == []


def test_the_lobby_shows_friends_playing_and_settings_list_the_names():
    from django.test import Client

    me, friend, foe = make_user(), make_user(), make_user()
    live = started_game(players=[friend, make_user()])
    user_follow(user=me, name=friend.username)
    user_block(user=me, name=foe.username)
    client = Client()
    client.force_login(me)
    lobby_page = client.get("/").content.decode()
    assert "Friends playing now" in lobby_page and f"/g/{live.pk}/" in lobby_page
    settings_page = client.get("/accounts/settings/").content.decode()
    assert f'data-name="{friend.username}"' in settings_page
    assert f'data-relation="blocks" data-name="{foe.username}"' in settings_page
    assert "Friends playing now" not in Client().get("/").content.decode()
