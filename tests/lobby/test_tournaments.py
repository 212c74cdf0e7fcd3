"""Tournament services and API: create, join, withdraw, start, rounds paired
as games end, standings; every bad input a clear error that changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.errors import GameError
from games.models import Game
from games.services import handover
from games.services.endings import game_resign
from lobby import tournaments as svc
from lobby.models import Tournament, TournamentBan, TournamentPairing, TournamentPlayer
from lobby.selectors import tournaments as read
from tests.factories import client_for, make_user

from .tournament_play import play_round, running_games

pytestmark = pytest.mark.django_db


def swiss(creator, **extra):
    fields = {"name": "Friday Swiss", "ruleset": "halma", "system": "swiss", "rounds": 3}
    return svc.tournament_create(creator=creator, **{**fields, **extra})


def joined(tournament, *users):
    for user in users:
        svc.tournament_join(tournament_id=tournament.pk, user=user)


def code_of(call) -> str:
    with pytest.raises(GameError) as info:
        call()
    return info.value.code


def test_a_swiss_runs_round_by_round_to_the_end_with_standings():
    creator = make_user("boss")
    players = [make_user(f"p{i}") for i in range(5)]
    t = swiss(creator)
    joined(t, *players)
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("running", 1)
    rng = random.Random(3)
    for number in (1, 2, 3):
        assert t.current_round == number
        assert len(running_games(t)) == 2  # five players: two games and a bye
        play_round(t, rng)
    assert t.status == "finished"
    data = read.detail(t)
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3]
    byes = [p["players"][0] for r in data["rounds"] for p in r["pairings"] if p["bye"]]
    assert len(byes) == len(set(byes)) == 3
    assert sum(row["points"] for row in data["standings"]) == 9  # 2 games + 1 bye a round
    assert all(len(row["tiebreaks"]) == 2 for row in data["standings"])


def test_the_next_round_waits_for_its_pause_and_the_sweeper_pairs_it():
    creator = make_user()
    t = swiss(creator, round_pause_seconds=60, rounds=2)
    joined(t, *[make_user() for _ in range(4)])
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    play_round(t, random.Random(1))
    assert t.current_round == 1 and t.due is not None
    assert svc.tournament_rounds_pair_due(now=timezone.now()) == 0  # not due yet
    assert svc.tournament_rounds_pair_due(now=t.due + timedelta(seconds=1)) == 1
    t.refresh_from_db()
    assert t.current_round == 2 and t.due is None and len(running_games(t)) == 2


def test_a_timed_start_begins_at_starts_at():
    creator = make_user()
    t = swiss(creator, rounds=1, starts_at=(timezone.now() + timedelta(hours=1)).isoformat())
    joined(t, make_user(), make_user())
    assert svc.tournament_rounds_pair_due() == 0
    svc.tournament_rounds_pair_due(now=timezone.now() + timedelta(hours=2))
    t.refresh_from_db()
    assert t.status == "running" and len(running_games(t)) == 1


def test_round_robin_meets_everyone_once_with_berger_rounds():
    creator = make_user()
    t = svc.tournament_create(creator=creator, name="RR", ruleset="halma", system="round_robin")
    joined(t, *[make_user() for _ in range(4)])
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    assert t.rounds == 3
    rng = random.Random(2)
    for _ in range(3):
        play_round(t, rng)
    assert t.status == "finished"
    met = {frozenset(p.players) for p in TournamentPairing.objects.filter(tournament=t, bye=False)}
    assert len(met) == 6


def test_malefiz_tables_score_by_finishing_order():
    creator = make_user()
    t = swiss(creator, ruleset="malefiz", seat_count=4, rounds=1)
    joined(t, *[make_user() for _ in range(7)])
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    games = running_games(t)
    assert sorted(g.seat_count for g in games) == [3, 4]
    for game in games:  # everyone leaves but one: the last standing wins the table
        for seat in range(game.seat_count - 1):
            game.refresh_from_db()
            if game.status == Game.Status.ACTIVE:
                game_resign(game_id=game.pk, user=game.seats.get(index=seat).user)
                # nobody hands the seat to a bot in time: the player leaves
                handover.handover_offers_expire(now=timezone.now() + timedelta(days=30))
    t.refresh_from_db()
    assert t.status == "finished"
    for p in TournamentPairing.objects.filter(tournament=t):
        assert sorted(p.points.values(), reverse=True)[0] == len(p.players) - 1


def test_bad_inputs_are_clear_errors_and_change_nothing():
    creator, a, b = make_user(), make_user(), make_user()
    assert code_of(lambda: swiss(creator, system="knockout")) == "bad_request"
    assert code_of(lambda: swiss(creator, rounds=0)) == "bad_request"
    assert code_of(lambda: swiss(creator, ruleset="hexenhalma")) == "bad_request"
    assert code_of(lambda: swiss(creator, starts_at="tomorrow")) == "bad_request"
    assert code_of(lambda: swiss(creator, clock={"kind": "sundial"})) == "bad_clock"
    # What a client sent is checked for its type, not trusted to be one.
    assert code_of(lambda: swiss(creator, system=["swiss"])) == "bad_request"
    assert code_of(lambda: swiss(creator, options=["x"])) == "bad_options"
    assert code_of(lambda: swiss(creator, options={"nope": 1})) == "bad_options"
    assert code_of(lambda: swiss(AnonymousUser())) == "login_required"
    assert code_of(lambda: swiss(None)) == "login_required"
    assert Tournament.objects.count() == 0
    for no_id in (True, "x", None, 2**70, ["1"]):
        assert code_of(lambda i=no_id: svc.tournament_join(tournament_id=i, user=a)) == "not_found"
    t = swiss(creator, rounds=3)
    joined(t, a)
    assert code_of(lambda: joined(t, a)) == "already_joined"
    assert code_of(lambda: svc.tournament_start(tournament_id=t.pk, user=creator)) == (
        "too_few_players"
    )
    joined(t, b)
    # two players allow one round only
    assert code_of(lambda: svc.tournament_start(tournament_id=t.pk, user=creator)) == (
        "too_many_rounds"
    )
    assert code_of(lambda: svc.tournament_start(tournament_id=t.pk, user=a)) == "forbidden"
    t.refresh_from_db()
    assert t.status == "open" and not TournamentPairing.objects.exists()
    assert not Game.objects.exists()


def test_joining_a_started_or_finished_tournament_is_refused():
    creator = make_user()
    t = swiss(creator, rounds=1)
    joined(t, make_user(), make_user())
    svc.tournament_start(tournament_id=t.pk, user=creator)
    late = make_user()
    assert code_of(lambda: joined(t, late)) == "not_open"  # 1 round: none left to join
    play_round(t, random.Random(0))
    assert t.status == "finished"
    assert code_of(lambda: joined(t, late)) == "not_open"
    assert not TournamentPlayer.objects.filter(user=late).exists()


def test_a_round_robin_of_500_is_refused_at_the_31st_player():
    creator = make_user()
    t = svc.tournament_create(creator=creator, name="RR", ruleset="halma", system="round_robin")
    joined(t, *[make_user() for _ in range(30)])
    assert code_of(lambda: joined(t, make_user())) == "full"
    assert TournamentPlayer.objects.filter(tournament=t).count() == 30


def test_late_join_while_fewer_than_half_the_rounds_are_played():
    creator = make_user()
    t = swiss(creator, rounds=5)
    joined(t, *[make_user() for _ in range(6)])
    svc.tournament_start(tournament_id=t.pk, user=creator)
    late = make_user()
    joined(t, late)  # round 1 of 5
    play_round(t, random.Random(4))
    play_round(t, random.Random(5))
    assert t.current_round == 3
    paired = {u for p in TournamentPairing.objects.filter(tournament=t, round=2) for u in p.players}
    assert late.pk in paired
    assert code_of(lambda: joined(t, make_user())) == "not_open"


def test_withdrawing_resigns_the_running_game_and_keeps_the_points():
    creator = make_user()
    a, b = make_user(), make_user()
    t = swiss(creator, rounds=1)
    joined(t, a, b)
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    (game,) = running_games(t)
    from tests.factories import every_seat_moves

    every_seat_moves(game)
    svc.tournament_withdraw(tournament_id=t.pk, user=a)
    game.refresh_from_db()
    t.refresh_from_db()
    assert game.status == Game.Status.FINISHED and t.status == "finished"
    rows = {row["username"]: row for row in read.detail(t)["standings"]}
    assert rows[b.username]["points"] == 1 and rows[a.username]["withdrawn"]


def test_a_no_show_loses_is_withdrawn_and_banned_for_a_day_then_two():
    creator = make_user()
    t = swiss(creator, rounds=1, clock={"kind": "realtime", "minutes": 1, "increment": 0})
    a, b = make_user(), make_user()
    joined(t, a, b)
    svc.tournament_start(tournament_id=t.pk, user=creator)
    t.refresh_from_db()
    (game,) = running_games(t)
    first = game.seats.get(index=game.to_act[0]).user
    other = b if first == a else a
    from games.services.play import game_timeout

    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game_timeout(game_id=game.pk)
    game.refresh_from_db()
    t.refresh_from_db()
    assert game.status == Game.Status.FINISHED and t.status == "finished"
    pairing = TournamentPairing.objects.get(game=game)
    assert pairing.points == {str(first.pk): 0.0, str(other.pk): 1.0}
    assert TournamentPlayer.objects.get(tournament=t, user=first).withdrawn
    ban = TournamentBan.objects.get(user=first)
    assert ban.no_shows == 1 and ban.until - timezone.now() > timedelta(hours=23)
    assert code_of(lambda: joined(swiss(creator), first)) == "tournament_ban"


def test_api_shapes_and_errors():
    creator, a, b = make_user("owner"), make_user("ann"), make_user("bob")
    api = client_for(creator)
    made = api.post(
        "/api/tournaments/",
        {
            "name": "Cup",
            "ruleset": "halma",
            "system": "swiss",
            "seat_count": 2,
            "rounds": 1,
            "clock": {"kind": "correspondence", "days": 3},
            "rated": False,
            "starts_at": None,
            "round_pause_seconds": 0,
            "options": {},
            "play": False,  # the owner only organises
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for user in (a, b):
        assert client_for(user).post(f"/api/tournaments/{tid}/join/").status_code == 200
    again = client_for(a).post(f"/api/tournaments/{tid}/join/")
    assert again.status_code == 400 and again.json()["code"] == "already_joined"
    started = api.post(f"/api/tournaments/{tid}/start/").json()
    assert started["status"] == "running" and started["current_round"] == 1
    (pairing,) = started["rounds"][0]["pairings"]
    assert set(pairing) >= {"game", "players", "bye", "points"}
    assert sorted(pairing["players"]) == ["ann", "bob"] and pairing["points"] is None
    row = started["standings"][0]
    assert set(row) >= {"rank", "username", "points", "tiebreaks", "withdrawn"}
    listed = api.get("/api/tournaments/?status=running").json()["items"]
    assert [i["id"] for i in listed] == [tid] and "rounds" not in listed[0]
    assert api.get("/api/tournaments/?status=nope").status_code == 400
    assert api.get("/api/tournaments/999999/").status_code == 404
    assert client_for(None).post(f"/api/tournaments/{tid}/join/").status_code in (401, 403)


def test_creating_needs_the_settings_finished_games_and_is_limited_per_user(settings):
    creator = make_user()
    settings.TOURNAMENT_CREATOR_MIN_GAMES = 1
    assert code_of(lambda: swiss(creator)) == "too_few_games"
    settings.TOURNAMENT_CREATOR_MIN_GAMES = 0
    for _ in range(3):
        swiss(creator)
    assert code_of(lambda: swiss(creator)) == "too_many_tournaments"
    assert Tournament.objects.count() == 3


def test_the_list_reads_in_two_statements_however_many_it_lists():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    creator = make_user("host")
    players = [make_user(f"n{i}") for i in range(4)]

    def statements():
        with CaptureQueriesContext(connection) as seen:
            items = read.listing("open")
        return len(seen), items

    for n in range(2):
        joined(swiss(creator, name=f"Cup {n}"), *players[: n + 1])
    few, items = statements()
    for n in range(2, 12):
        joined(swiss(make_user(f"host{n}"), name=f"Cup {n}"), *players)
    many, items = statements()
    assert few == many == 2
    assert items[-1]["name"] == "Cup 0" and items[-1]["player_count"] == 1
    assert items[-1]["creator"] == "host" and items[0]["player_count"] == 4
    assert "players" not in items[0]
    assert len(read.listing("open", limit=5)) == 5
