"""Who enters a tournament, over the API and the page's form: a play-ban keeps
a player out of realtime tournaments (joining and creating), a bot account
plays casual ones only, and a creator is entered unless they only organise."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from lobby.models import Tournament, TournamentBan
from moderation.models import PlayBan
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db

REALTIME = {"kind": "realtime", "minutes": 5, "increment": 3}
DAILY = {"kind": "correspondence", "days": 2}


def body(**extra) -> dict:
    return {"name": "Cup", "ruleset": "halma", "system": "swiss", "rounds": 3, **extra}


def create(user, **extra):
    return client_for(user).post("/api/tournaments/", body(**extra), format="json")


def join(user, tournament_id: int):
    return client_for(user).post(f"/api/tournaments/{tournament_id}/join/")


def play_banned(minutes: int = 15):
    user = make_user()
    PlayBan.objects.create(
        user=user,
        minutes=minutes,
        reason="abort",
        until=timezone.now() + timedelta(minutes=minutes),
    )
    return user


def bot_account():
    user = make_user()
    user.is_bot = True
    user.save(update_fields=["is_bot"])
    return user


def test_a_play_banned_player_cannot_join_a_realtime_tournament():
    realtime = create(make_user(), clock=REALTIME).json()["id"]
    daily = create(make_user(), clock=DAILY).json()["id"]
    banned = play_banned()
    answer = join(banned, realtime)
    assert answer.status_code == 403, answer.content
    assert answer.json()["code"] == "playban" and 890 <= answer.json()["retry_after"] <= 900
    assert join(banned, daily).status_code == 200  # correspondence stays open, as tables do
    players = client_for(banned).get(f"/api/tournaments/{realtime}/").json()["players"]
    assert banned.username not in players


def test_a_play_banned_creator_of_a_realtime_tournament_is_refused_unless_organising():
    banned = play_banned()
    answer = create(banned, clock=REALTIME)
    assert answer.status_code == 403, answer.content
    assert answer.json()["code"] == "playban" and answer.json()["retry_after"] > 0
    assert not Tournament.objects.exists()  # nothing half made
    organised = create(banned, clock=REALTIME, play=False)
    assert organised.status_code == 201 and organised.json()["players"] == []
    assert create(banned, clock=DAILY).json()["players"] == [banned.username]


def test_a_bot_account_joins_casual_tournaments_only():
    rated = create(make_user(), rated=True).json()["id"]
    casual = create(make_user()).json()["id"]
    bot = bot_account()
    answer = join(bot, rated)
    assert answer.status_code == 403 and answer.json()["code"] == "bot_account", answer.content
    assert bot.username not in client_for(bot).get(f"/api/tournaments/{rated}/").json()["players"]
    assert join(bot, casual).status_code == 200
    refused = create(bot, rated=True)
    assert refused.status_code == 403 and refused.json()["code"] == "bot_account"
    assert create(bot, rated=True, play=False).status_code == 201


def test_the_creator_is_entered_unless_they_only_organise():
    creator, friend = make_user("maker"), make_user("friend")
    made = create(creator, rounds=1)
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    assert made.json()["players"] == ["maker"] and made.json()["creator"] == "maker"
    assert [row["username"] for row in made.json()["standings"]] == ["maker"]
    again = join(creator, tid)
    assert again.status_code == 400 and again.json()["code"] == "already_joined"
    join(friend, tid)
    started = client_for(creator).post(f"/api/tournaments/{tid}/start/").json()
    assert started["status"] == "running", started
    (pairing,) = started["rounds"][0]["pairings"]  # two players, no bye
    assert sorted(pairing["players"]) == ["friend", "maker"] and not pairing["bye"]
    organiser = create(make_user(), play=False).json()
    assert organiser["players"] == [] and organiser["standings"] == []


@pytest.mark.parametrize("value", [None, "yes", 1, []])
def test_a_malformed_play_is_a_clear_error_and_creates_nothing(value):
    answer = create(make_user(), play=value)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request", answer.content
    assert answer.json()["message"]
    assert not Tournament.objects.exists()


def test_a_creator_who_may_not_play_is_refused_and_nothing_is_created():
    missed = make_user()
    TournamentBan.objects.create(user=missed, no_shows=1, until=timezone.now() + timedelta(days=1))
    answer = create(missed)
    assert answer.status_code == 403 and answer.json()["code"] == "tournament_ban"
    unrated = make_user()
    answer = create(unrated, min_rating=1600)
    assert answer.status_code == 400 and answer.json()["code"] == "entry_condition"
    assert not Tournament.objects.exists()
    assert create(missed, play=False).status_code == 201


def test_the_form_enters_the_creator_unless_i_only_organise_is_ticked():
    creator = make_user("former")
    page = Client()
    page.force_login(creator)
    form = {"name": "Friends", "ruleset": "halma", "system": "swiss", "rounds": "3"}
    form.update(clock="correspondence", days="3")
    made = page.post("/tournaments/", form)
    assert made.status_code == 302
    playing = Tournament.objects.get(name="Friends")
    assert list(playing.players.values_list("user__username", flat=True)) == ["former"]
    shown = page.get(made["Location"]).content.decode()
    assert 'data-testid="organiser-plays"' in shown
    page.post("/tournaments/", {**form, "name": "Only", "organise_only": "on"})
    only = Tournament.objects.get(name="Only")
    assert not only.players.exists()
    shown = page.get(f"/tournaments/{only.pk}/").content.decode()
    assert 'data-testid="organiser-only"' in shown
