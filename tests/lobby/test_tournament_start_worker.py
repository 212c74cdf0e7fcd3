"""A big field's start is paired by the sweeper's tournament thread (issue 47,
item 2): the API answers at once, saying ``pairing``; the round follows; and
while a tournament's work runs, other games' clocks keep their deadlines."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.db import connection
from django.utils import timezone

from games import wakeups
from games.models import Game
from games.realtime import sweeper as sweeping
from games.services import play
from lobby import tournaments as svc
from lobby.models import Tournament, TournamentPairing, TournamentPlayer
from lobby.tournaments import rounds
from tests.db_threads import sync_to_async
from tests.factories import client_for, make_user, started_game


def _field(players: int) -> tuple[Tournament, object]:
    creator = make_user()
    t = svc.tournament_create(
        creator=creator,
        name="Big",
        ruleset="halma",
        system="swiss",
        rounds=3,
        clock={"kind": "realtime", "minutes": 5, "increment": 0},
    )
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=t, user=make_user()) for _ in range(players)
    )
    return t, creator


@pytest.mark.django_db
def test_a_field_of_200_is_paired_in_the_start_and_a_bigger_one_by_the_sweeper(monkeypatch):
    monkeypatch.setattr(rounds, "INLINE_FIELD", 6)
    small, creator = _field(6)
    answer = client_for(creator).post(f"/api/tournaments/{small.pk}/start/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "running" and body["current_round"] == 1
    assert body["pairing"] is False and len(body["rounds"][0]["pairings"]) == 3

    big, creator = _field(7)
    answer = client_for(creator).post(f"/api/tournaments/{big.pk}/start/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "open" and body["pairing"] is True and body["rounds"] == []
    assert not TournamentPairing.objects.filter(tournament=big).exists()
    assert svc.tournament_rounds_pair_due() == 1  # the sweeper's tournament thread's round
    big.refresh_from_db()
    assert big.status == "running" and big.current_round == 1 and big.due is None
    assert TournamentPairing.objects.filter(tournament=big).count() == 4  # 3 games, a bye
    again = client_for(creator).post(f"/api/tournaments/{big.pk}/start/")
    assert again.status_code == 400 and again.json()["code"] == "not_open"


@pytest.mark.django_db
def test_a_big_fields_start_still_refuses_too_many_rounds_at_once(monkeypatch):
    monkeypatch.setattr(rounds, "INLINE_FIELD", 2)
    t, creator = _field(3)
    Tournament.objects.filter(pk=t.pk).update(rounds=5)
    answer = client_for(creator).post(f"/api/tournaments/{t.pk}/start/")
    assert answer.status_code == 400 and answer.json()["code"] == "too_many_rounds"
    t.refresh_from_db()
    assert t.status == "open" and t.due is None


def _due_now(game_id: int) -> None:
    Game.objects.filter(pk=game_id).update(deadline=timezone.now())


@pytest.mark.django_db(transaction=True)
async def test_clocks_keep_their_deadlines_while_a_tournament_round_is_created(
    settings, monkeypatch
):
    """A tournament's start is held (as a 1,000-player round takes seconds);
    meanwhile a game's clock runs out: its timeout comes within a second.
    PostgreSQL only: on SQLite any write transaction holds the whole database."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL (bin/test runs tests/lobby there)")
    settings.GAME_SWEEPER = True
    settings.GAME_SWEEP_SECONDS = 0.05
    entered, release, applied = threading.Event(), threading.Event(), threading.Event()
    begin = rounds._begin

    def held_begin(tournament, now):
        entered.set()
        release.wait(10)  # a slow round: the test lets it go
        begin(tournament, now)

    timeout = play.game_timeout

    def told_timeout(**kwargs):
        version = timeout(**kwargs)
        if version is not None:
            applied.set()
        return version

    monkeypatch.setattr(rounds, "_begin", held_begin)
    monkeypatch.setattr(sweeping, "game_timeout", told_timeout)
    realtime = {"kind": "realtime", "minutes": 1, "increment": 0}
    game = await sync_to_async(started_game)("halma", clock=realtime)
    t, _creator = await sync_to_async(_field)(4)
    await Tournament.objects.filter(pk=t.pk).aupdate(due=timezone.now())
    worker = sweeping.Sweeper()
    worker.ensure_started()
    try:
        assert await asyncio.to_thread(entered.wait, 10), "the tournament's start never ran"
        # Now the clock runs out, while the start is held (written from a
        # thread of its own: the sweep may hold the thread-sensitive one).
        began = time.monotonic()
        await sync_to_async(_due_now, thread_sensitive=False)(game.pk)
        wakeups.wake("deadlines")  # as the move that set it would (games/wakeups.py)
        kept = await asyncio.to_thread(applied.wait, 3)
        late = time.monotonic() - began
        release.set()
        assert kept and late < 1.0, f"the timeout waited {late:.1f} s for the tournament"
    finally:
        release.set()
        await worker.stop()
    await sync_to_async(t.refresh_from_db)()
    assert t.status == "running"  # and the held start went through afterwards
