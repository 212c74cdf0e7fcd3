"""Deleting an account (issue "Hold against strangers", item 10): the games it
hosted stay with their other players' events, chat and rating history, and
every page showing them still renders."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import ChatMessage, Event, Game, RatingChange
from games.services.chat import chat_post
from games.services.endings import game_resign
from lobby import services as lobby
from tests.factories import every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db


def admin_delete(user) -> None:
    """Delete through the admin's own confirmation POST, as a superuser."""
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-123456789")
    client = Client()
    client.force_login(root)
    url = f"/admin/accounts/user/{user.pk}/delete/"
    assert client.get(url).status_code == 200
    answer = client.post(url, {"post": "yes"})
    assert answer.status_code == 302, answer.content[:300]
    assert not get_user_model().objects.filter(pk=user.pk).exists()


def test_the_admin_delete_keeps_the_hosted_games_for_the_other_players():
    gone, bob = make_user("gone"), make_user("bob")
    finished = started_game(players=[gone, bob])
    chat_post(game_id=finished.pk, user=bob, text="good luck")
    chat_post(game_id=finished.pk, user=gone, text="thanks")
    every_seat_moves(finished)  # else the resignation aborts it, unrated
    game_resign(game_id=finished.pk, user=gone)
    running = started_game(players=[gone, bob])
    table = lobby.table_create(host=gone, ruleset="halma", options={}, seat_count=2)
    events = Event.objects.filter(game=finished).count()
    assert RatingChange.objects.filter(game=finished).count() == 2

    admin_delete(gone)

    assert set(Game.objects.values_list("pk", flat=True)) == {finished.pk, running.pk}
    running.refresh_from_db()  # resigned, not left waiting on a seat nobody holds
    assert running.status == Game.Status.ABORTED  # nobody had moved: unrated
    assert running.events.last().kind == Event.Kind.END
    assert not Game.objects.filter(pk=table.pk).exists()  # never started: nobody could start it
    assert Game.objects.get(pk=finished.pk).host is None
    assert Event.objects.filter(game=finished).count() == events
    assert list(ChatMessage.objects.filter(game=finished).values_list("text", flat=True)) == [
        "good luck",
        "thanks",
    ]
    assert list(RatingChange.objects.filter(game=finished).values_list("user", flat=True)) == [
        bob.pk
    ]
    viewer = Client()
    viewer.force_login(bob)
    for url in (
        f"/g/{finished.pk}/",
        f"/g/{finished.pk}/replay/",
        f"/g/{running.pk}/",
        "/players/bob/",
        "/leaderboard/halma/",
        "/my/games/",
        "/",
        f"/api/games/{finished.pk}/",
        f"/api/games/{finished.pk}/events/",
        f"/api/games/{running.pk}/",
        "/api/players/bob/",
        "/api/leaderboard/halma/",
        "/api/tables/",
    ):
        assert viewer.get(url).status_code == 200, url
    assert "bob" in viewer.get("/api/leaderboard/halma/").content.decode()
