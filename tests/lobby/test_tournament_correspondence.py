"""Correspondence rounds with a deadline, a table's no-show handed to a bot,
round-start notices, featured tournaments and starting ranks by rating."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import GameError
from games.models import Event, Game, Notification, OutgoingPush, PushSubscription, Rating
from games.reasons import REASON_ROUND_DEADLINE
from games.rules import get_ruleset
from games.selectors.ratings import own_movers
from games.services import handover
from games.services.adjudication import _thinking_minutes, game_adjudicate
from games.services.bots import play_due_bots
from games.services.endings import game_resign
from games.services.play import game_act, game_timeout
from lobby import tournaments as svc
from lobby.models import Tournament, TournamentBan, TournamentPairing, TournamentPlayer
from lobby.selectors import tournaments as read
from tests.factories import client_for, every_seat_moves, make_user

from .tournament_play import play_round, running_games

pytestmark = pytest.mark.django_db
DAILY = {"kind": "correspondence", "days": 1}


def create(creator, **extra):
    fields = {"name": "Daily", "ruleset": "halma", "system": "round_robin", "clock": DAILY}
    return svc.tournament_create(creator=creator, **{**fields, **extra})


def started(tournament, creator, players):
    for user in players:
        svc.tournament_join(tournament_id=tournament.pk, user=user)
    svc.tournament_start(tournament_id=tournament.pk, user=creator)
    tournament.refresh_from_db()
    return tournament


def code_of(call) -> str:
    with pytest.raises(GameError) as info:
        call()
    return info.value.code


def test_a_round_deadline_adjudicates_by_time_used_and_pairs_the_next_round():
    creator = make_user()
    t = started(create(creator, round_days=2), creator, [make_user() for _ in range(3)])
    assert t.round_deadline is not None and t.due == t.round_deadline
    assert t.round_deadline - timezone.now() > timedelta(days=1, hours=23)
    (game,) = running_games(t)  # three players: one game and a bye a round
    every_seat_moves(game, limit=4)
    game.refresh_from_db()
    slow = game.to_act[0]  # its turn runs until the deadline: it used the most time
    assert svc.tournament_rounds_pair_due(now=timezone.now()) == 0  # not due yet
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    svc.tournament_rounds_pair_due(now=t.round_deadline + timedelta(seconds=1))
    game.refresh_from_db()
    t.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["reason"] == REASON_ROUND_DEADLINE
    assert game.result["winners"] == [1 - slow]
    pairing = TournamentPairing.objects.get(game=game)
    assert pairing.points[str(pairing.players[slow])] == 0.0
    assert pairing.points[str(pairing.players[1 - slow])] == 1.0
    assert t.current_round == 2 and len(running_games(t)) == 1
    assert t.due == t.round_deadline and t.round_deadline > timezone.now() + timedelta(days=1)
    items = Event.objects.filter(game=game).order_by("-version").first().events
    assert items[0]["type"] == "adjudicated"


def test_the_deadline_touches_only_due_tournaments_and_games_that_ended_stay():
    creator = make_user()
    due = started(create(creator, round_days=3), creator, [make_user() for _ in range(4)])
    later = started(create(creator, round_days=5), creator, [make_user() for _ in range(4)])
    first, second = running_games(due)
    game_resign(game_id=first.pk, user=first.seats.get(index=0).user)  # ended before
    when = due.round_deadline + timedelta(minutes=1)
    assert svc.tournament_rounds_pair_due(now=when) == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.result["reason"] != REASON_ROUND_DEADLINE  # its own result stands
    assert second.status == Game.Status.FINISHED
    later.refresh_from_db()
    assert later.current_round == 1
    assert all(g.status == Game.Status.ACTIVE for g in running_games(later))
    due.refresh_from_db()
    assert due.current_round == 2 and due.round_deadline > timezone.now() + timedelta(days=2)
    assert svc.tournament_rounds_pair_due(now=timezone.now()) == 0  # nothing due any more
    assert game_adjudicate(game_id=second.pk, now=when) is None  # over: nothing happens


def test_thinking_time_counts_each_seats_turns():
    creator = make_user()
    t = started(create(creator, round_days=1), creator, [make_user(), make_user()])
    (game,) = running_games(t)
    now = timezone.now()
    waiting = game.to_act[0]
    minutes = _thinking_minutes(game, now + timedelta(hours=2))
    assert minutes[waiting] == 120 and minutes[1 - waiting] == 0
    # both seats alike: a draw for the tournament (½ each)
    Game.objects.filter(pk=game.pk).update(to_act=[])
    game_adjudicate(game_id=game.pk, now=now)
    game.refresh_from_db()
    assert game.result["draw"] is True
    assert set(TournamentPairing.objects.get(game=game).points.values()) == {0.5}


def test_round_days_are_checked():
    creator = make_user()
    realtime = {"kind": "realtime", "minutes": 5, "increment": 0}
    assert code_of(lambda: create(creator, round_days=2, clock=realtime)) == "bad_request"
    assert (
        code_of(lambda: create(creator, round_days=1, clock={**DAILY, "days": 3})) == "bad_request"
    )
    assert code_of(lambda: create(creator, round_days=0)) == "bad_request"
    assert code_of(lambda: create(creator, round_days="2")) == "bad_request"
    assert not Tournament.objects.exists()
    answer = client_for(creator).post(
        "/api/tournaments/",
        {
            "name": "Daily",
            "ruleset": "halma",
            "system": "swiss",
            "rounds": 2,
            "clock": DAILY,
            "round_days": 2,
        },
        format="json",
    )
    assert answer.status_code == 201
    assert answer.json()["round_days"] == 2 and answer.json()["round_deadline"] is None


def test_a_malefiz_no_show_is_handed_to_a_bot_withdrawn_banned_and_last():
    creator = make_user()
    players = [make_user() for _ in range(3)]
    t = svc.tournament_create(
        creator=creator,
        name="Tables",
        ruleset="malefiz",
        system="swiss",
        seat_count=3,
        rounds=1,
        clock={"kind": "realtime", "minutes": 1, "increment": 0},
    )
    t = started(t, creator, players)
    (game,) = running_games(t)
    absent = game.to_act[0]
    no_show = game.seats.get(index=absent).user
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game_timeout(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # the table plays on
    assert game.bots == {str(absent): "medium"}
    assert TournamentPlayer.objects.get(tournament=t, user=no_show).withdrawn
    assert TournamentBan.objects.get(user=no_show).no_shows == 1
    items = Event.objects.filter(game=game).order_by("-version").first().events
    assert [i["type"] for i in items] == ["no_show", "handed_to_bot"]
    people_move(game, {s for s in range(3) if s != absent})
    for seat in [s for s in range(3) if s != absent]:  # the people leave one by one
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            game_resign(game_id=game.pk, user=game.seats.get(index=seat).user)
            handover.handover_offers_expire(now=timezone.now() + timedelta(days=30))
    t.refresh_from_db()
    assert t.status == "finished"
    points = TournamentPairing.objects.get(game=game).points
    assert points[str(no_show.pk)] == 0.0 and sorted(points.values()) == [0.0, 1.0, 2.0]
    assert read.detail(t)["standings"][-1]["username"] == no_show.username
    assert TournamentBan.objects.get(user=no_show).no_shows == 1  # banned once


def people_move(game, people, limit=60):
    """Each person moves once (the bot plays its seat's turns in between)."""
    rng = random.Random(5)
    rs = get_ruleset(game.ruleset)
    for _ in range(limit):
        game.refresh_from_db()
        if people <= own_movers(game):
            return
        seat = game.to_act[0]
        if str(seat) in game.bots:
            assert play_due_bots() == 1
            continue
        action = rs.random_action(rs.decode(game.state), seat, rng)
        game_act(
            game_id=game.pk,
            user=game.seats.get(index=seat).user,
            version=game.version,
            action=action,
        )
    raise AssertionError("a person never got to move")


def test_a_realtime_table_timeout_outside_tournaments_keeps_the_vote():
    from tests.factories import started_game

    realtime = {"kind": "realtime", "minutes": 1, "increment": 0}
    game = started_game("malefiz", players=[make_user() for _ in range(3)], clock=realtime)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game_timeout(game_id=game.pk)
    game.refresh_from_db()
    assert game.bots == {}
    assert "no_show" not in [i["type"] for i in game.events.order_by("-version").first().events]


def test_each_player_with_a_game_hears_once_per_round_and_gets_a_push():
    creator = make_user()
    players = [make_user() for _ in range(5)]
    PushSubscription.objects.create(
        user=players[0], endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    t = svc.tournament_create(
        creator=creator,
        name="Notices",
        ruleset="halma",
        system="swiss",
        rounds=2,
        clock={"kind": "realtime", "minutes": 5, "increment": 0},
    )
    t = started(t, creator, players)
    # (The player with a bye hears of it too: a notice without a game.)
    notes = Notification.objects.filter(kind=Notification.Kind.ROUND_START, game__isnull=False)
    seated = {
        u for p in TournamentPairing.objects.filter(tournament=t, bye=False) for u in p.players
    }
    assert sorted(n.user_id for n in notes) == sorted(seated) and len(seated) == 4
    assert all(n.params["round"] == 1 and n.game_id for n in notes)
    assert OutgoingPush.objects.filter(notification__kind="round_start").count() == (
        1 if players[0].pk in seated else 0
    )
    play_round(t, random.Random(2))
    assert notes.filter(params__round=2).count() == 4
    assert notes.all().count() == 8  # once per round and player, never again
    from games.selectors.notifications import notification_text

    text = notification_text("round_start", notes.first().params)
    assert "Notices" in text and "Round" in text


def test_featured_is_staff_only_and_listed_first():
    user, staff = make_user(), make_user(staff=True)
    plain = create(user)
    assert code_of(lambda: create(user, featured=True)) == "forbidden"
    featured = create(staff, featured=True)
    assert [item["id"] for item in read.listing("open")][:2] == [featured.pk, plain.pk]
    assert read.listing(None)[0]["featured"] is True
    answer = client_for(user).post(
        "/api/tournaments/",
        {"name": "x", "ruleset": "halma", "system": "round_robin", "featured": True},
        format="json",
    )
    assert answer.status_code == 403 and Tournament.objects.count() == 2


def test_starting_rank_is_by_rating_not_join_order():
    creator = make_user()
    players = [make_user() for _ in range(4)]
    for user, display in zip(players, [1100, None, 1900, 1500], strict=True):
        if display is not None:
            Rating.objects.create(
                user=user,
                ruleset="halma",
                speed="correspondence",
                mu=25,
                sigma=8,
                display=display,
            )
    t = svc.tournament_create(
        creator=creator, name="Seeded", ruleset="halma", system="swiss", rounds=2, clock=DAILY
    )
    t = started(t, creator, players)
    order = [p.user_id for p in read.players_in_order(t)]
    assert order == [players[2].pk, players[3].pk, players[0].pk, players[1].pk]
    boards = {frozenset(p.players) for p in TournamentPairing.objects.filter(tournament=t)}
    # Dutch round 1: the top half against the bottom half by starting rank
    assert boards == {frozenset(order[0::2]), frozenset(order[1::2])}


def test_staff_feature_a_tournament_through_the_api_and_the_admin(client):
    user, staff = make_user(), make_user(staff=True)
    t = create(user)
    url = f"/api/tournaments/{t.pk}/feature/"
    assert client_for(user).post(url, {"featured": True}, format="json").status_code == 403
    assert client_for(staff).post(url, {"featured": "yes"}, format="json").status_code == 400
    t.refresh_from_db()
    assert not t.featured
    answer = client_for(staff).post(url, {"featured": True}, format="json")
    assert answer.status_code == 200 and answer.json()["featured"] is True
    admin = make_user(staff=True)
    admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    page = client.post(f"/admin/lobby/tournament/{t.pk}/change/", {"featured": ""})
    assert page.status_code == 302
    t.refresh_from_db()
    assert not t.featured and t.name == "Daily"
    assert client.get("/admin/lobby/tournament/add/").status_code == 403


def test_a_rated_game_adjudicated_before_every_seat_moved_bans_nobody():
    creator = make_user()
    t = started(create(creator, round_days=1, rated=True), creator, [make_user(), make_user()])
    (game,) = running_games(t)
    first = game.to_act[0]
    user = game.seats.get(index=first).user
    action = get_ruleset("halma").random_action(game_state(game), first, random.Random(1))
    game_act(game_id=game.pk, user=user, version=game.version, action=action)
    svc.tournament_rounds_pair_due(now=t.round_deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED  # a rated game ending before every seat moved
    assert set(TournamentPairing.objects.get(game=game).points.values()) == {0.0}
    assert not TournamentBan.objects.exists()
    assert not TournamentPlayer.objects.filter(tournament=t, withdrawn=True).exists()


def game_state(game):
    return get_ruleset(game.ruleset).decode(game.state)
