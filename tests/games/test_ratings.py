"""Ratings: openskill's own figures for every way a game ends, casual and
aborted games left alone, the table's rated choice and the players API."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from games.models import Game, Rating, RatingChange
from games.rules import get_ruleset
from games.selectors.ratings import BASE_DISPLAY, shown
from games.services.endings import game_abort, game_offer_draw, game_resign
from games.services.handover import game_handover_decline
from games.services.internal.ratings import finishing_places
from games.services.play import game_act, game_timeout
from games.users import is_bot
from tests.factories import (
    client_for,
    every_seat_moves,
    hexenhalma_campaign,
    make_user,
    started_game,
)

pytestmark = pytest.mark.django_db

MODEL = PlackettLuce()


def expected(ranks: list[int]) -> list[float]:
    """openskill's own result for newcomers finishing in ``ranks`` (seat
    order): mu, sigma of the first seat, then of the second, ..."""
    teams = [[MODEL.rating()] for _ in ranks]
    return [x for [r] in MODEL.rate(teams, ranks=ranks) for x in (r.mu, r.sigma)]


def stored(game: Game, players: list) -> list[float]:
    rows = {r.user_id: r for r in Rating.objects.filter(ruleset=game.ruleset)}
    return [x for u in players for x in (rows[u.pk].mu, rows[u.pk].sigma)]


def places(game: Game, players: list) -> list[int]:
    by_user = dict(RatingChange.objects.filter(game=game).values_list("user_id", "place"))
    return [by_user.get(u.pk) for u in players]


def finish_with(monkeypatch, game: Game, outcome: dict) -> None:
    """The next Malefiz move ends the game with ``outcome`` (through the real
    act path: next_event asks the ruleset's outcome after the move)."""
    rs = get_ruleset("malefiz")
    game.refresh_from_db()
    seat = game.to_act[0]
    user = game.seats.get(index=seat).user
    action = rs.random_action(rs.decode(game.state), seat, random.Random(0))
    monkeypatch.setattr(rs, "outcome", lambda state: dict(outcome))
    game_act(game_id=game.pk, user=user, version=game.version, action=action)
    monkeypatch.undo()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_three_players_winner_first_the_others_tied_as_openskill_says(monkeypatch):
    players = [make_user() for _ in range(3)]
    game = every_seat_moves(started_game("malefiz", players=players))
    finish_with(monkeypatch, game, {"winners": [1], "draw": False, "reason": "finished"})
    assert places(game, players) == [2, 1, 2]
    want = expected([2, 1, 2])
    assert stored(game, players) == pytest.approx(want)
    assert want[0:2] == pytest.approx(want[4:6])  # the tie: equal figures for equal places
    row = Rating.objects.get(user=players[1], ruleset="malefiz", speed="correspondence")
    assert row.games == 1 and row.display == shown(want[2]) > BASE_DISPLAY


def test_a_leaver_ranks_last_below_the_players_who_lost(monkeypatch):
    players = [make_user() for _ in range(3)]
    game = every_seat_moves(started_game("malefiz", players=players))
    game_resign(game_id=game.pk, user=players[2])  # three seats: play goes on without it
    game_handover_decline(game_id=game.pk, user=players[0], seat=2)  # no bot: it leaves
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.left_seats == [2]
    finish_with(monkeypatch, game, {"winners": [0], "draw": False, "reason": "finished"})
    assert places(game, players) == [1, 2, 3]
    assert stored(game, players) == pytest.approx(expected([1, 2, 3]))


def test_finishing_places_rank_leavers_last_a_later_one_higher():
    result = {"winners": [1], "draw": False, "handovers": [{"seat": 3, "move": 9}]}
    assert finishing_places([0, 1, 2, 3], result, [], leavers=[3, 2]) == {0: 2, 1: 1, 2: 3, 3: 4}
    assert finishing_places([0, 1, 2, 3], result, [], leavers=[2, 3]) == {0: 2, 1: 1, 2: 4, 3: 3}
    draw = {"winners": [], "draw": True}
    assert finishing_places([0, 1, 2], draw, [], leavers=[1]) == {0: 1, 1: 3, 2: 1}


def test_two_seats_resignation_rates_the_winner_first():
    white, black = make_user(), make_user()
    game = every_seat_moves(started_game(players=[white, black]))
    game_resign(game_id=game.pk, user=white)
    assert places(game, [white, black]) == [2, 1]
    assert stored(game, [white, black]) == pytest.approx(expected([2, 1]))


def test_a_time_out_ranks_last_and_rates_the_realtime_speed():
    white, black = make_user(), make_user()
    game = started_game(players=[white, black], clock={"kind": "realtime", "minutes": 1})
    every_seat_moves(game)
    assert game_timeout(game_id=game.pk, now=timezone.now() + timedelta(hours=1)) is not None
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
    assert places(game, [white, black]) == [2, 1]  # white was to move again
    assert set(Rating.objects.values_list("speed", flat=True)) == {"realtime"}


def test_an_agreed_draw_ties_everybody():
    white, black = make_user(), make_user()
    game = every_seat_moves(started_game(players=[white, black]))
    game_offer_draw(game_id=game.pk, user=white)
    game_offer_draw(game_id=game.pk, user=black)
    assert places(game, [white, black]) == [1, 1]
    assert stored(game, [white, black]) == pytest.approx(expected([1, 1]))


def test_a_hexenhalma_campaign_rates_the_teams_by_standings_not_the_game_master():
    game = hexenhalma_campaign(rounds=1, teams=3)
    seats = {s.index: s.user for s in game.seats.select_related("user")}
    finished = next(e for ev in game.events.all() for e in ev.events if e.get("type") == "finished")
    keys = {r["seat"]: (-r["goals"], -r["points"]) for r in finished["standings"]}
    want = {s: 1 + sum(1 for k in keys.values() if k < keys[s]) for s in keys}
    got = dict(RatingChange.objects.filter(game=game).values_list("user_id", "place"))
    assert seats[0].pk not in got  # the game master runs the campaign, unrated
    assert {s: got[seats[s].pk] for s in keys} == want


def test_casual_and_aborted_games_leave_ratings_alone():
    white, black = make_user(), make_user()
    casual = started_game(players=[white, black])
    Game.objects.filter(pk=casual.pk).update(rated=False)
    game_resign(game_id=casual.pk, user=white)
    aborted = started_game(players=[white, black])
    game_abort(game_id=aborted.pk, user=white)
    assert Game.objects.get(pk=aborted.pk).status == Game.Status.ABORTED
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_games_with_a_bot_account_are_never_rated_even_if_marked_rated():
    person, bot = make_user(), make_user("bot-halma-easy")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    assert is_bot(bot) and not is_bot(person)
    by_default = every_seat_moves(started_game(players=[person, bot]))
    game_resign(game_id=by_default.pk, user=person)
    chosen = started_game(players=[person, bot])
    Game.objects.filter(pk=chosen.pk).update(rated=True)  # as an older table may be
    every_seat_moves(chosen)
    game_resign(game_id=chosen.pk, user=person)
    assert Game.objects.get(pk=chosen.pk).status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    profile = APIClient().get(f"/api/players/{bot.username}/").json()  # bots have profiles too
    assert profile["bot"] is True and profile["ratings"] == []


# The API


@pytest.mark.parametrize("rated", ["yes", 1, "true", [], {}])
def test_a_table_rated_must_be_true_or_false(rated):
    host = make_user()
    answer = client_for(host).post(
        "/api/tables/", {"ruleset": "halma", "rated": rated}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_request" and "rated" in answer.json()["fields"]
    assert not Game.objects.exists()


def test_a_table_is_rated_by_default_and_casual_when_chosen():
    host = make_user()
    client = client_for(host)
    rated = client.post("/api/tables/", {"ruleset": "halma"}, format="json").json()
    casual = client.post("/api/tables/", {"ruleset": "halma", "rated": False}, format="json")
    assert rated["rated"] is True
    assert casual.status_code == 201 and casual.json()["rated"] is False
    assert Game.objects.get(pk=casual.json()["id"]).rated is False


def test_player_profile_and_leaderboard_shapes():
    white, black = make_user(), make_user()
    game = every_seat_moves(started_game(players=[white, black]))
    game_resign(game_id=game.pk, user=white)
    profile = APIClient().get(f"/api/players/{black.username}/").json()
    assert profile["username"] == black.username and profile["bot"] is False
    [rating] = profile["ratings"]
    assert rating == {
        "ruleset": "halma",
        "speed": "correspondence",
        "rating": shown(expected([2, 1])[2]),
        "games": 1,
        "provisional": True,  # one game of PROVISIONAL_GAMES
    }
    [recent] = profile["recent_games"]
    assert recent["id"] == game.pk and recent["result"] == "win" and recent["rated"] is True
    assert recent["rating_change"] == rating["rating"] - BASE_DISPLAY
    assert recent["replay"] == f"/g/{game.pk}/replay/"
    board = APIClient().get("/api/leaderboard/halma/").json()
    assert [(i["rank"], i["username"]) for i in board["items"]] == [
        (1, black.username),
        (2, white.username),
    ]
    assert APIClient().get("/api/leaderboard/halma/?speed=realtime").json() == {"items": []}


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/api/players/nobody-here/", 404, "not_found"),
        ("/api/leaderboard/chess/", 404, "not_found"),
        ("/api/leaderboard/halma/?speed=blitz", 400, "bad_request"),
    ],
)
def test_unknown_players_games_and_speeds_are_refused_clearly(url, status, code):
    answer = APIClient().get(url)
    assert answer.status_code == status
    assert answer.json()["code"] == code and answer.json()["message"]
