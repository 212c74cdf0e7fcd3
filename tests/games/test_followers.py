"""Profiles people expect (issue 29, item 8): a notice when someone you follow
starts a live game (one per game, mutable, never for people who blocked you);
the player page's follow, block and challenge; My games shows each result."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Block, Follow
from accounts.services.relations import user_block, user_follow
from games.models import Game, Notification
from games.services.endings import game_resign
from tests.factories import client_for, every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db

REALTIME = {"kind": "realtime", "minutes": 5, "increment": 3}


def notices(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=Notification.Kind.FOLLOWED))


def test_a_follower_hears_once_per_live_game_however_many_players_they_follow():
    ann, bob, fan = make_user("ann"), make_user("bob"), make_user("fan")
    user_follow(user=fan, name="ann")
    user_follow(user=fan, name="bob")
    game = started_game(players=[ann, bob], clock=REALTIME)
    (note,) = notices(fan)
    assert note.game_id == game.pk and note.params["player"] == "ann"
    page = client_for(fan).get("/api/notifications/").json()
    assert "ann, whom you follow, started a live game" in str(page)
    assert notices(ann) == [] and notices(bob) == []  # players are not told of their own game


def test_no_notice_for_correspondence_games_muted_followers_or_the_blocked():
    ann, bob = make_user("ann"), make_user("bob")
    fan, muted, blocked = make_user("fan"), make_user("muted"), make_user("blocked")
    for user in (fan, muted, blocked):
        user_follow(user=user, name="ann")
    muted.follow_notices = False
    muted.save(update_fields=["follow_notices"])
    # bob (at the table) blocked this follower of ann's: never told of bob's games
    Block.objects.create(user=bob, blocked=blocked)
    started_game(players=[ann, bob])  # correspondence: nothing to watch now
    assert notices(fan) == []
    started_game(players=[ann, bob], clock=REALTIME)
    assert len(notices(fan)) == 1
    assert notices(muted) == [] and notices(blocked) == []


def test_a_block_by_the_followed_player_stops_the_notices():
    ann, bob, fan = make_user("ann"), make_user("bob"), make_user("fan")
    user_follow(user=fan, name="ann")
    user_block(user=ann, name="fan")
    assert not Follow.objects.filter(user=fan).exists()
    started_game(players=[ann, bob], clock=REALTIME)
    assert notices(fan) == []


def test_the_settings_page_mutes_the_notices():
    fan = make_user("fan")
    client = Client()
    client.force_login(fan)
    assert (
        'data-testid="settings-follow-notices" checked'
        in client.get("/accounts/settings/").content.decode()
    )
    client.post("/accounts/settings/", {"email": "", "language": "en"})
    fan.refresh_from_db()
    assert fan.follow_notices is False


def test_the_player_page_offers_follow_block_and_challenge_to_others_only():
    ann, bob = make_user("ann"), make_user("bob")
    client = Client()
    client.force_login(bob)
    page = client.get("/players/ann/").content.decode()
    assert 'data-testid="profile-follow"' in page and ">Follow<" in page
    assert 'data-testid="profile-block"' in page and 'data-testid="profile-challenge"' in page
    user_follow(user=bob, name="ann")
    assert ">Unfollow<" in client.get("/players/ann/").content.decode()
    assert 'data-testid="profile-actions"' not in client.get("/players/bob/").content.decode()
    assert 'data-testid="profile-actions"' not in Client().get("/players/ann/").content.decode()
    table = client_for(bob).post(
        "/api/tables/", {"ruleset": "halma", "challenge": "ann"}, format="json"
    )
    assert table.status_code == 201 and table.json()["challenged"] == "ann"
    assert Game.objects.get(pk=table.json()["id"]).challenged_id == ann.pk


def test_my_games_shows_each_result():
    ann, bob = make_user("ann"), make_user("bob")
    game = every_seat_moves(started_game(players=[ann, bob]))
    game_resign(game_id=game.pk, user=bob)
    for user, word in ((ann, "won"), (bob, "lost")):
        client = Client()
        client.force_login(user)
        page = client.get("/my/games/").content.decode()
        assert 'data-testid="result"' in page and f"<strong>{word}</strong>" in page
        assert "resigned" in page
