"""Play-bans with a controllable clock: 3 realtime aborts, leaves or time-outs
within 24 hours ban new realtime tables and quick play for 15 minutes, doubling
on repeat up to a day; correspondence ones never ban; completion rate."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Game, Seat
from games.services.endings import game_abort, game_resign
from games.services.play import game_act, game_timeout
from lobby import services as lobby
from moderation import selectors, standing
from moderation.internal import playbans
from moderation.models import Offence, PlayBan
from tests.factories import (
    FIRST_MOVE,
    client_for,
    every_seat_moves,
    make_user,
    started_game,
)

pytestmark = pytest.mark.django_db

REALTIME = {"kind": "realtime", "minutes": 5}


def realtime_game(user):
    return started_game(players=[user, make_user()], clock=REALTIME)


def abort_after_the_opponent_moved(leaver, clock=REALTIME):
    """White (seat 0) moves; ``leaver`` (Black) aborts before moving."""
    opponent = make_user()
    game = started_game(players=[opponent, leaver], clock=clock)
    game_act(game_id=game.pk, user=opponent, version=game.version, action=FIRST_MOVE)
    game_abort(game_id=game.pk, user=leaver)
    return game


def test_three_realtime_aborts_ban_quick_play_and_realtime_tables():
    leaver = make_user()
    for _ in range(3):
        abort_after_the_opponent_moved(leaver)
    client = client_for(leaver)
    table = client.post("/api/tables/", {"ruleset": "halma", "clock": REALTIME}, format="json")
    assert table.status_code == 403, table.content
    body = table.json()
    assert body["code"] == "playban" and 890 <= body["retry_after"] <= 900
    assert "15" in body["message"] and "aborted" in body["message"]
    quick = client.post("/api/quickplay/", {"ruleset": "halma", "clock": REALTIME}, format="json")
    assert quick.status_code == 403 and quick.json()["code"] == "playban"
    # Correspondence stays open to them.
    assert client.post("/api/tables/", {"ruleset": "halma"}, format="json").status_code == 201


def test_bans_double_on_repeat_up_to_a_day_and_then_are_forgotten():
    leaver = make_user()
    game = realtime_game(leaver)
    clock = timezone.now()
    minutes = []
    for _round in range(9):
        for _ in range(3):
            clock += timedelta(minutes=1)
            ban = playbans.record_offence(game, 0, "abort", clock)
        assert ban is not None
        minutes.append(ban.minutes)
        assert standing.playban_left(leaver.pk, clock) == (ban.minutes * 60, "abort")
        clock = ban.until + timedelta(minutes=1)  # served
        assert standing.playban_left(leaver.pk, clock) is None
    assert minutes == [15, 30, 60, 120, 240, 480, 960, 1440, 1440]
    # A week without bans: the next one is 15 minutes again.
    clock += timedelta(days=8)
    for _ in range(3):
        ban = playbans.record_offence(game, 0, "abort", clock)
    assert ban.minutes == 15


def test_offences_spread_beyond_a_day_ban_nobody():
    leaver = make_user()
    game = realtime_game(leaver)
    clock = timezone.now()
    for _ in range(6):
        clock += timedelta(hours=13)
        assert playbans.record_offence(game, 0, "flag", clock) is None
    assert not PlayBan.objects.exists()


def test_realtime_time_outs_count_and_correspondence_ones_do_not_ban():
    flagger = make_user()
    for clock, kind, step in [
        (REALTIME, "realtime", timedelta(hours=1)),  # 3 within a day: banned
        (None, "correspondence", timedelta(days=4)),  # past a move's 3 days
    ]:
        later = timezone.now()
        for _ in range(3):
            game = every_seat_moves(started_game(players=[flagger, make_user()], clock=clock))
            later += step
            assert game_timeout(game_id=game.pk, now=later) is not None
        offences = Offence.objects.filter(user=flagger, correspondence=kind != "realtime")
        assert offences.count() == 3, kind
    bans = list(PlayBan.objects.filter(user=flagger))
    assert [b.reason for b in bans] == ["flag"]  # the realtime ones only


def test_completion_rate_on_every_profile():
    player = make_user("finisher")
    abort_after_the_opponent_moved(player)
    game = realtime_game(player)
    game_abort(game_id=game.pk, user=game.seats.get(index=1).user)  # not the player's fault
    assert Game.objects.filter(status="aborted").count() == 2
    client = client_for(player)
    client.force_login(player)
    page = client.get("/players/finisher/")
    assert b"50%" in page.content and b"1 of 2" in page.content


def test_completion_rate_covers_the_newest_games_only(monkeypatch):
    monkeypatch.setattr(selectors, "COMPLETION_WINDOW", 2)
    player = make_user()
    abort_after_the_opponent_moved(player)  # an offence, older than the window
    for _ in range(2):
        newer = realtime_game(player)
        game_abort(game_id=newer.pk, user=newer.seats.get(index=1).user)
    assert selectors.completion(player.pk) == {"started": 2, "completed": 2, "rate": 100}


def test_completion_reads_the_seat_index_then_the_games_by_key():
    """No join of seats with games: PostgreSQL met the player's seats by
    walking every game stored, newest first (4,425 pages with 26,000 games)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    player = make_user()
    abort_after_the_opponent_moved(player)
    with CaptureQueriesContext(connection) as seen:
        selectors.completion(player.pk)
    reads = [q["sql"] for q in seen.captured_queries if "games_seat" in q["sql"]]
    assert reads and not any("JOIN" in sql for sql in reads)


def test_an_abort_before_any_opponent_moved_counts_nothing():
    leaver = make_user()
    for _ in range(3):
        game_abort(game_id=realtime_game(leaver).pk, user=leaver)
    assert not Offence.objects.exists() and not PlayBan.objects.exists()


def test_early_resignations_count_and_ban():
    leaver = make_user()
    for _ in range(3):
        game = realtime_game(leaver)
        game_act(game_id=game.pk, user=leaver, version=game.version, action=FIRST_MOVE)
        game_resign(game_id=game.pk, user=leaver)
    assert [o.kind for o in Offence.objects.filter(user=leaver)] == ["leave"] * 3
    left = standing.playban_left(leaver.pk)
    assert left is not None and left[1] == "leave" and 890 <= left[0] <= 900
    client = client_for(leaver)
    table = client.post("/api/tables/", {"ruleset": "halma", "clock": REALTIME}, format="json")
    assert table.status_code == 403 and table.json()["code"] == "playban"
    assert "left" in table.json()["message"]


def test_resigning_after_a_real_game_counts_nothing():
    player = make_user()
    game = realtime_game(player)
    opponent = game.seats.get(index=1).user
    for _ in range(settings.PLAYBAN_EARLY_MOVES):
        for user in (player, opponent):
            game.refresh_from_db()
            seat = game.seats.get(user=user).index
            action = playbans_action(game, seat)
            game_act(game_id=game.pk, user=user, version=game.version, action=action)
    game_resign(game_id=game.pk, user=player)
    assert not Offence.objects.exists()


def playbans_action(game, seat):
    import random

    from games.rules import get_ruleset

    rs = get_ruleset(game.ruleset)
    return rs.random_action(rs.decode(game.state), seat, random.Random(seat))


def malefiz_table(leaver, clock):
    """Three people at a Malefiz table, the leaver at seat 0."""
    others = [make_user(), make_user()]
    return started_game("malefiz", players=[leaver, *others], clock=clock)


def test_leaving_into_a_handover_counts_realtime_and_gently_by_correspondence():
    for clock, correspondence in [(REALTIME, False), (None, True)]:
        leaver = make_user()
        game = malefiz_table(leaver, clock)
        game_resign(game_id=game.pk, user=leaver)
        game.refresh_from_db()
        assert game.status == "active" and "leave" in game.handovers["0"]  # others decide
        offence = Offence.objects.get(user=leaver)
        assert offence.kind == "leave" and offence.correspondence is correspondence
    assert not PlayBan.objects.exists()


def test_three_correspondence_leaves_never_ban():
    leaver = make_user()
    for _ in range(3):
        game_resign(game_id=malefiz_table(leaver, None).pk, user=leaver)
    assert Offence.objects.filter(user=leaver, correspondence=True).count() == 3
    assert standing.playban_left(leaver.pk) is None
    client = client_for(leaver)
    table = client.post("/api/tables/", {"ruleset": "halma", "clock": REALTIME}, format="json")
    assert table.status_code == 201, table.content


def test_leaving_a_table_of_bots_counts_nothing():
    leaver = make_user()
    game = lobby.table_create(
        host=leaver, ruleset="halma", options={}, seat_count=2, clock=REALTIME
    )
    lobby.table_invite_bot(game_id=game.pk, user=leaver, level="easy")
    lobby.table_start(game_id=game.pk, user=leaver)
    game_resign(game_id=game.pk, user=leaver)
    assert Seat.objects.filter(game=game, user__is_bot=True).exists()
    assert not Offence.objects.exists()
