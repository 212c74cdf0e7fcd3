"""Ratings that mean something (issue "Hold against strangers", items 8 and 12):
no farming from games that end before every seat moved, no bots at rated
tables or on leaderboards, provisional players after established ones,
handed-over seats ranked by when they left, and no bots left playing for
nobody. Through the HTTP API and the services the sockets call."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game, Rating, RatingChange
from games.rules import get_ruleset
from games.services import bots
from games.services.endings import game_resign
from games.services.handover import game_handover_agree, game_handover_decline
from games.services.play import game_act
from tests.factories import FIRST_MOVE, client_for, every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db


def rated_table(host, ruleset: str = "halma", **more) -> int:
    body = {"ruleset": ruleset, "rated": True, **more}
    answer = client_for(host).post("/api/tables/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"]


def rating_of(user, ruleset: str = "halma") -> int | None:
    ratings = APIClient().get(f"/api/players/{user.username}/").json()["ratings"]
    return next((r["rating"] for r in ratings if r["ruleset"] == ruleset), None)


def test_ten_opponents_resigning_at_move_0_farm_nothing():
    """Before: 1500 -> 1942 after ten such games, first on the board."""
    farmer = make_user()
    for _ in range(10):
        game_id = rated_table(farmer)
        stooge = client_for(make_user())
        joined = stooge.post(f"/api/tables/{game_id}/join/", {}, format="json")
        assert joined.json()["status"] == "active"  # two seats: it starts once full
        assert stooge.post(f"/api/games/{game_id}/resign/", format="json").status_code == 200
        game = client_for(farmer).get(f"/api/games/{game_id}/").json()
        assert game["table"]["status"] == "aborted" and game["state"]["result_text"]
    print(f"\nfarmer's rating after 10 farmed games: {rating_of(farmer)} (before: 1942)")
    assert rating_of(farmer) is None and not RatingChange.objects.exists()
    assert APIClient().get("/api/leaderboard/halma/").json() == {"items": []}


def test_a_game_is_rated_only_once_every_seat_moved_of_its_own():
    white, black = make_user(), make_user()
    early = started_game(players=[white, black])
    game_act(game_id=early.pk, user=white, version=1, action=FIRST_MOVE)
    game_resign(game_id=early.pk, user=black)  # black never moved: an abort
    early.refresh_from_db()
    assert early.status == Game.Status.ABORTED and early.result["winners"] == []
    assert "aborted" in early.result["reason"]
    played = every_seat_moves(started_game(players=[white, black]))
    game_resign(game_id=played.pk, user=black)
    played.refresh_from_db()
    assert played.status == Game.Status.FINISHED and played.result["winners"] == [0]
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {played.pk}


def test_a_rated_table_with_a_bot_is_refused():
    host = make_user()
    client = client_for(host)
    body = {"ruleset": "halma", "rated": True, "bot": {"level": "easy"}}
    answer = client.post("/api/tables/", body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert not Game.objects.exists()
    game_id = rated_table(host, "malefiz", seat_count=3)
    invite = client.post(f"/api/tables/{game_id}/bot/", {"level": "easy"}, format="json")
    assert invite.status_code == 400 and invite.json()["code"] == "bad_request"
    assert Game.objects.get(pk=game_id).bots == {}


def test_the_leaderboard_lists_no_bot_and_provisional_players_after_established_ones():
    settled, newcomer, bot = make_user(), make_user(), make_user("bot-halma-strong")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    for user, display, games in ((settled, 1450, 12), (newcomer, 1700, 3), (bot, 1900, 40)):
        Rating.objects.create(
            user=user,
            ruleset="halma",
            speed="correspondence",
            mu=25,
            sigma=8,
            display=display,
            games=games,
        )
    items = APIClient().get("/api/leaderboard/halma/").json()["items"]
    assert [(i["rank"], i["username"], i["provisional"]) for i in items] == [
        (1, settled.username, False),
        (2, newcomer.username, True),
    ]


def to_a_persons_turn(game: Game) -> Game:
    """Let the bot worker play until a person is to act."""
    for _ in range(50):
        game.refresh_from_db()
        if not any(str(s) in game.bots for s in game.to_act):
            return game
        assert bots.play_due_bots() >= 1
    raise AssertionError("the bots never handed the turn back")


def test_a_seat_handed_to_a_bot_stays_rated_and_ranks_by_when_it_left(monkeypatch):
    """Seat ``first`` leaves (no bot), later ``second`` is handed to a bot: the
    later leaver ranks above the earlier one (before: every left seat ranked
    above every handed-over seat)."""
    users = [make_user() for _ in range(4)]
    game = every_seat_moves(started_game("malefiz", players=users))
    first, second, winner, other = 3, 2, 0, 1
    game_resign(game_id=game.pk, user=users[first])
    game_handover_decline(game_id=game.pk, user=users[winner], seat=first)
    game_resign(game_id=game.pk, user=users[second])
    game_handover_agree(game_id=game.pk, user=users[winner], seat=second)
    game_handover_agree(game_id=game.pk, user=users[other], seat=second)
    game = to_a_persons_turn(game)
    assert game.left_seats == [first] and game.bots == {str(second): "medium"}
    rs, seat = get_ruleset("malefiz"), game.to_act[0]
    action = rs.random_action(rs.decode(game.state), seat, random.Random(1))
    monkeypatch.setattr(rs, "outcome", lambda state: {"winners": [winner], "draw": False})
    game_act(game_id=game.pk, user=users[seat], version=game.version, action=action)
    places = dict(RatingChange.objects.filter(game=game).values_list("user_id", "place"))
    assert [places[u.pk] for u in users] == [1, 2, 3, 4]


def malefiz_with_three_bots(person) -> Game:
    """A casual 4-seat Malefiz table: the person and three bots, started once full."""
    client = client_for(person)
    body = {"ruleset": "malefiz", "seat_count": 4, "bot": {"level": "easy"}}
    answer = client.post("/api/tables/", body, format="json")
    assert answer.status_code == 201, answer.json()
    game_id = answer.json()["id"]
    for level in ("medium", "strong"):
        invite = client.post(f"/api/tables/{game_id}/bot/", {"level": level}, format="json")
        assert invite.status_code == 200, invite.json()
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.ACTIVE and len(game.bots) == 3
    return game


def test_a_person_leaving_three_bots_at_move_0_aborts_the_game():
    """Before: the four bots played on, for 15 minutes."""
    person = make_user()
    game = malefiz_with_three_bots(person)
    assert not Event.objects.filter(game=game, kind=Event.Kind.ACT).exists()  # nobody moved
    answer = client_for(person).post(f"/api/games/{game.pk}/resign/", format="json")
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.result["winners"] == []
    version = game.version
    assert bots.bot_turns_due() == [] and bots.play_due_bots() == 0
    assert Game.objects.get(pk=game.pk).version == version


def test_a_person_leaving_three_bots_mid_game_ends_it_ranked():
    person = make_user()
    game = to_a_persons_turn(malefiz_with_three_bots(person))
    seat = game.to_act[0]
    rs = get_ruleset("malefiz")
    action = rs.random_action(rs.decode(game.state), seat, random.Random(2))
    game_act(game_id=game.pk, user=person, version=game.version, action=action)
    answer = client_for(person).post(f"/api/games/{game.pk}/resign/", format="json")
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [s for s in range(4) if s != seat]
    assert game.result["reason_params"]["player"] == person.username
    version = game.version
    assert bots.bot_turns_due() == [] and bots.play_due_bots() == 0
    assert Game.objects.get(pk=game.pk).version == version
    assert not RatingChange.objects.exists()  # bots at the table: casual
