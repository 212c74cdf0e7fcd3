"""Club matches (lobby/clubs/matches.py, docs/protocol.md): a challenge, its
answer, the lineups, the start (boards by rating order, colours alternating),
the games played to their end through the real services and the score on
both clubs' pages; every refusal is a clear 4xx that changes nothing. Runs on
SQLite and on PostgreSQL (bin/test's PG_TESTS take tests/lobby)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game, Notification, Rating, RatingChange
from games.selectors.notifications import notification_text
from games.services.endings import game_offer_draw, game_resign
from lobby.clubs import club_create, club_join, club_leave, club_set_role
from lobby.clubs.matches import MAX_OPEN_CHALLENGES
from lobby.models import ClubMatch, ClubMatchBoard, ClubMatchPlayer
from lobby.selectors.club_matches import club_match_detail, club_matches_of
from tests.factories import client_for, every_seat_moves, make_user

pytestmark = pytest.mark.django_db


def rate(user, display: int, ruleset: str = "halma") -> None:
    Rating.objects.create(
        user=user, ruleset=ruleset, speed="correspondence", mu=25, sigma=8, display=display
    )


@pytest.fixture
def clubs():
    """Two clubs: each an owner, an admin and three members."""
    home_owner, away_owner = make_user("hilde"), make_user("arno")
    home = club_create(creator=home_owner, name="Spieleabend Nord")
    away = club_create(creator=away_owner, name="Halma Süd")
    people = {"home_owner": home_owner, "away_owner": away_owner}
    for side, club in (("home", home), ("away", away)):
        admin = make_user(f"{side}admin")
        club_join(club_id=club.pk, user=admin)
        owner = people[f"{side}_owner"]
        club_set_role(club_id=club.pk, user=owner, username=admin.username, role="admin")
        people[f"{side}_admin"] = admin
        for n in range(3):
            member = make_user(f"{side}{n}")
            club_join(club_id=club.pk, user=member)
            people[f"{side}{n}"] = member
    people["outsider"] = make_user("outsider")
    return home, away, people


def challenge(client, home, away, **extra):
    body = {"opponent": away.pk, "ruleset": "halma", "boards": 2, **extra}
    return client.post(f"/api/clubs/{home.pk}/matches/", body, format="json")


def test_a_two_board_match_played_to_its_end(clubs):
    home, away, p = clubs
    # Ratings: the home side's second-named is its strongest; the away side's
    # unrated player comes after its rated one.
    rate(p["home0"], 1400)
    rate(p["home1"], 1700)
    rate(p["away1"], 1600)
    made = challenge(client_for(p["home_admin"]), home, away)
    assert made.status_code == 201, made.json()
    match_id = made.json()["id"]
    assert made.json()["status"] == "proposed" and made.json()["score"] == {"home": 0, "away": 0}

    # The away club's owner and admin are told, like any challenge.
    notes = Notification.objects.filter(kind=Notification.Kind.CHALLENGE)
    assert {n.user_id for n in notes} == {p["away_owner"].pk, p["away_admin"].pk}
    text = notification_text(notes[0].kind, notes[0].params)
    assert "Spieleabend Nord" in text and "hadmin" not in text and "2" in text

    # Only the challenged club's owner and admins answer.
    for who in ("away0", "home_owner", "outsider"):
        refused = client_for(p[who]).post(f"/api/club-matches/{match_id}/accept/")
        assert refused.status_code == 403, who
    assert (
        client_for(p["away_admin"]).post(f"/api/club-matches/{match_id}/accept/").json()["status"]
        == "accepted"
    )

    url = f"/api/club-matches/{match_id}/players/"
    home_names = ["home0", "home1"]
    assert (
        client_for(p["home0"]).post(url, {"players": home_names}, format="json").status_code == 403
    )
    assert (
        client_for(p["home_owner"]).post(url, {"players": home_names}, format="json").status_code
        == 200
    )
    # Starting before the away lineup is full: refused, nothing made.
    early = client_for(p["home_owner"]).post(f"/api/club-matches/{match_id}/start/")
    assert early.status_code == 400 and early.json()["code"] == "lineup_incomplete"
    assert not ClubMatchBoard.objects.exists() and not Game.objects.exists()
    assert (
        client_for(p["away_owner"])
        .post(url, {"players": ["away0", "away1"]}, format="json")
        .status_code
        == 200
    )

    started = client_for(p["away_admin"]).post(f"/api/club-matches/{match_id}/start/")
    assert started.status_code == 200, started.json()
    body = started.json()
    assert body["status"] == "running"
    boards = body["board_list"]
    # Board 1: the strongest of each side; the home club has seat 0 on odd boards.
    assert [(b["home"]["username"], b["away"]["username"]) for b in boards] == [
        ("home1", "away1"),
        ("home0", "away0"),
    ]
    assert [b["home_seat"] for b in boards] == [0, 1]
    assert [b["seats"] for b in boards] == [["home1", "away1"], ["away0", "home0"]]
    assert boards[0]["home"]["rating"] == 1700 and boards[1]["away"]["rating"] is None
    games = [Game.objects.get(pk=b["game"]) for b in boards]
    assert all(g.status == Game.Status.ACTIVE and g.ruleset == "halma" for g in games)
    assert all(g.clock["kind"] == "correspondence" for g in games)

    # Lineups are fixed once it runs.
    late = client_for(p["home_owner"]).post(url, {"players": ["home2", "home1"]}, format="json")
    assert late.status_code == 400 and late.json()["code"] == "not_open"

    # Board 1: the away player resigns (home 1); board 2: a draw agreed (½ each),
    # after each seat's first moves (a game without them is aborted, unrated).
    for game in games:
        every_seat_moves(game)
    game_resign(game_id=games[0].pk, user=p["away1"])
    mid = client_for(p["outsider"]).get(f"/api/club-matches/{match_id}/").json()
    assert mid["score"] == {"home": 1, "away": 0} and mid["status"] == "running"
    assert mid["board_list"][0]["points"] == {"home": 1, "away": 0}
    assert mid["board_list"][1]["points"] is None
    game_offer_draw(game_id=games[1].pk, user=p["home0"])
    game_offer_draw(game_id=games[1].pk, user=p["away0"])

    done = client_for(p["outsider"]).get(f"/api/club-matches/{match_id}/").json()
    assert done["status"] == "finished" and done["ended"]
    assert done["score"] == {"home": 1.5, "away": 0.5}
    assert [b["points"] for b in done["board_list"]] == [
        {"home": 1, "away": 0},
        {"home": 0.5, "away": 0.5},
    ]
    # Rated as any game of its time control.
    assert RatingChange.objects.filter(game__in=games).count() == 4
    # Both clubs see it, with its score: the API and the pages.
    for club in (home, away):
        listed = Client().get(f"/api/clubs/{club.pk}/matches/").json()["items"]
        assert [(m["id"], m["score"], m["status"]) for m in listed] == [
            (match_id, {"home": 1.5, "away": 0.5}, "finished")
        ]
        assert club_matches_of(club.pk)[0]["score"] == {"home": 1.5, "away": 0.5}
    page = Client().get(f"/club-matches/{match_id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="score-home">1.5<' in html and 'data-testid="score-away">0.5<' in html
    assert html.count('data-testid="board-game"') == 2


def test_refusals_change_nothing(clubs):
    home, away, p = clubs
    admin = client_for(p["home_admin"])
    bad = [
        ({"ruleset": "hexenhalma"}, 400, "bad_request"),
        ({"ruleset": "chess"}, 400, "bad_request"),
        ({"ruleset": None}, 400, "bad_request"),
        ({"boards": 0}, 400, "bad_request"),
        ({"boards": 21}, 400, "bad_request"),
        ({"boards": "2"}, 400, "bad_request"),
        ({"boards": True}, 400, "bad_request"),
        ({"clock": {"kind": "blitz"}}, 400, "bad_clock"),
        ({"opponent": home.pk}, 400, "bad_request"),
        ({"opponent": 999999}, 404, "not_found"),
        ({"opponent": "x"}, 404, "not_found"),
    ]
    for extra, status, code in bad:
        answer = challenge(admin, home, away, **extra)
        assert (answer.status_code, answer.json()["code"]) == (status, code), extra
    # Not the home club's owner or admin: a member, the other club's owner, a stranger.
    for who in ("home0", "away_owner", "outsider"):
        answer = challenge(client_for(p[who]), home, away)
        assert answer.status_code == 403, who
    assert challenge(APIClient(), home, away).status_code == 403
    assert not ClubMatch.objects.exists() and not Notification.objects.exists()


def test_one_open_challenge_between_two_clubs_and_none_soon_after_a_decline(clubs):
    home, away, p = clubs
    first = challenge(client_for(p["home_owner"]), home, away).json()["id"]
    again = challenge(client_for(p["home_admin"]), home, away)
    assert again.status_code == 409 and again.json()["code"] == "match_open"
    back = challenge(client_for(p["away_owner"]), away, home)  # the other way round too
    assert back.status_code == 409 and back.json()["code"] == "match_open"
    assert (
        client_for(p["away_owner"]).post(f"/api/club-matches/{first}/decline/").status_code == 200
    )
    assert ClubMatch.objects.get(pk=first).status == "declined"
    answered = client_for(p["away_owner"]).post(f"/api/club-matches/{first}/accept/")
    assert answered.status_code == 400 and answered.json()["code"] == "not_proposed"
    soon = challenge(client_for(p["home_owner"]), home, away)
    assert soon.status_code == 429 and soon.json()["code"] == "declined_recently"
    assert ClubMatch.objects.count() == 1
    # The declined club may still challenge the other way.
    assert challenge(client_for(p["away_owner"]), away, home).status_code == 201


def test_a_club_has_a_few_challenges_waiting_at_most(clubs):
    home, _, p = clubs
    owner = client_for(p["home_owner"])
    others = [club_create(creator=make_user(), name=f"Gegner {n}") for n in range(6)]
    answers = [challenge(owner, home, club).status_code for club in others]
    assert answers == [201] * MAX_OPEN_CHALLENGES + [429]


def test_lineups_name_members_once(clubs):
    home, away, p = clubs
    match_id = challenge(client_for(p["home_owner"]), home, away).json()["id"]
    client_for(p["away_owner"]).post(f"/api/club-matches/{match_id}/accept/")
    url = f"/api/club-matches/{match_id}/players/"
    owner = client_for(p["home_owner"])
    assert owner.post(url, {"players": ["home0"]}, format="json").status_code == 200
    bad = [
        ({"players": ["home0", "home1", "home2"]}, "too_many_players"),
        ({"players": ["home0", "HOME0"]}, "bad_request"),
        ({"players": "home0"}, "bad_request"),
        ({"players": [1]}, "bad_request"),
        ({"players": ["away0"]}, "not_member"),
        ({"players": ["nobody"]}, "not_member"),
        ({"players": ["home1"], "club": away.pk}, "forbidden"),
    ]
    for body, code in bad:
        answer = owner.post(url, body, format="json")
        assert 400 <= answer.status_code < 500 and answer.json()["code"] == code, body
    assert list(ClubMatchPlayer.objects.values_list("user__username", flat=True)) == ["home0"]
    # Named case-insensitively; a new list replaces the old one.
    assert owner.post(url, {"players": ["HOME2", "home1"]}, format="json").status_code == 200
    assert club_match_detail(ClubMatch.objects.get(pk=match_id))["players"]["home"] == [
        {"username": "home2", "rating": None},
        {"username": "home1", "rating": None},
    ]
    # A member of both clubs plays for one side only.
    club_join(club_id=away.pk, user=p["home1"])
    twice = client_for(p["away_owner"]).post(url, {"players": ["home1"]}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "other_lineup"


def test_calling_a_match_off(clubs):
    home, away, p = clubs
    match_id = challenge(client_for(p["home_owner"]), home, away).json()["id"]
    # A proposed challenge: the home club withdraws it (the away club declines instead).
    assert (
        client_for(p["away_owner"]).post(f"/api/club-matches/{match_id}/cancel/").status_code == 403
    )
    assert (
        client_for(p["home_admin"]).post(f"/api/club-matches/{match_id}/cancel/").json()["status"]
        == "cancelled"
    )
    # Once accepted, either club calls it off.
    match_id = challenge(client_for(p["home_owner"]), home, away).json()["id"]
    client_for(p["away_owner"]).post(f"/api/club-matches/{match_id}/accept/")
    assert client_for(p["away0"]).post(f"/api/club-matches/{match_id}/cancel/").status_code == 403
    assert (
        client_for(p["away_admin"]).post(f"/api/club-matches/{match_id}/cancel/").json()["status"]
        == "cancelled"
    )
    start = client_for(p["home_owner"]).post(f"/api/club-matches/{match_id}/start/")
    assert start.status_code == 400 and start.json()["code"] == "not_open"


def test_a_dissolved_club_calls_off_the_matches_it_has_not_started(clubs):
    home, away, p = clubs
    third = club_create(creator=p["outsider"], name="Dritte Runde")
    proposed = challenge(client_for(p["home_owner"]), home, third).json()["id"]
    accepted = challenge(client_for(p["away_owner"]), away, home).json()["id"]
    client_for(p["home_owner"]).post(f"/api/club-matches/{accepted}/accept/")
    # Every member of the home club leaves, its owner last: the club dissolves.
    for name in ("home_admin", "home0", "home1", "home2", "home_owner"):
        club_leave(club_id=home.pk, user=p[name])
    home.refresh_from_db()
    assert home.dissolved is not None
    for match_id in (proposed, accepted):
        match = ClubMatch.objects.get(pk=match_id)
        assert match.status == ClubMatch.Status.CANCELLED and match.ended is not None
    # The other club sees it called off: nothing left to accept or start.
    start = client_for(p["away_owner"]).post(f"/api/club-matches/{accepted}/start/")
    assert start.status_code == 400 and start.json()["code"] == "not_open"


def test_a_realtime_match_and_unknown_matches(clubs):
    home, away, p = clubs
    clock = {"kind": "realtime", "minutes": 5, "increment": 3}
    made = challenge(
        client_for(p["home_owner"]), home, away, ruleset="daschax", boards=1, clock=clock
    )
    assert made.status_code == 201 and made.json()["clock"] == clock
    assert Client().get("/api/club-matches/999999/").status_code == 404
    assert Client().get("/club-matches/999999/").status_code == 404
    assert client_for(p["home_owner"]).post("/api/club-matches/999999/accept/").status_code == 404


def test_the_challenge_is_throttled(clubs, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "club_matches": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    home, _, p = clubs
    owner = client_for(p["home_owner"])
    others = [club_create(creator=make_user(), name=f"Ziel {n}") for n in range(3)]
    answers = [challenge(owner, home, club).status_code for club in others]
    assert answers == [201, 201, 429]
    assert ClubMatch.objects.count() == 2
