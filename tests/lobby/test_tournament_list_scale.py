"""The tournament list carries counts, not players (issue 54, item 2): its
statements and its size are the same with 10 or 10,000 stored entries."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from lobby.models import Tournament, TournamentPlayer

pytestmark = pytest.mark.django_db

LISTED = 10


def _read() -> tuple[int, int, dict]:
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        answer = client.get("/api/tournaments/?status=open")
    assert answer.status_code == 200
    return len(queries), len(answer.content), answer.json()


def _fill(tournaments: list[Tournament], users: list, per: int) -> None:
    TournamentPlayer.objects.bulk_create(
        TournamentPlayer(tournament=t, user=u) for t in tournaments for u in users[:per]
    )


def test_the_list_reads_the_same_with_10_or_10000_entries():
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"entrant{n:04}", password="!") for n in range(1000)
    )
    few = Tournament.objects.bulk_create(
        Tournament(name=f"Few {n}", ruleset="halma", system="swiss", rounds=3)
        for n in range(LISTED)
    )
    _fill(few, users, 1)  # 10 entries
    small_statements, small_bytes, small = _read()

    TournamentPlayer.objects.filter(tournament__in=few).delete()
    _fill(few, users, 1000)  # 10,000 entries
    big_statements, big_bytes, big = _read()

    assert [i["player_count"] for i in small["items"]] == [1] * LISTED
    assert [i["player_count"] for i in big["items"]] == [1000] * LISTED
    assert "players" not in big["items"][0]
    assert big_statements == small_statements
    # Only the counts' digits differ: "1000" against "1".
    assert big_bytes - small_bytes == 3 * LISTED


def test_the_detail_keeps_its_players_list():
    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"p{n}", password="!") for n in range(3))
    t = Tournament.objects.create(name="Cup", ruleset="halma", system="swiss", rounds=2)
    _fill([t], users, 3)
    body = Client().get(f"/api/tournaments/{t.pk}/").json()
    assert body["players"] == ["p0", "p1", "p2"] and body["player_count"] == 3
    assert body["pairing"] is False and body["rounds"] == [] and len(body["standings"]) == 3
