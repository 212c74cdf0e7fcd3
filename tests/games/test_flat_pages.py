"""Pages that stay the same size as rows pile up (issue 31): the player
page's rating chart, the remis queue, the lobby's counts, the leaderboard."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from json import dumps

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from frontend.charts import MAX_POINTS, rating_chart, thinned
from games.models import Game, Rating, RemisRequest, Seat
from games.selectors import ratings, tables
from games.selectors import remis as remis_reads
from tests.factories import client_for, hourly_rating_changes, make_user

pytestmark = pytest.mark.django_db


def test_a_long_history_is_thinned_keeping_its_peaks_and_troughs():
    rng = random.Random(31)
    ratings = [1500 + rng.randint(-300, 300) for _ in range(2001)]
    kept = thinned(ratings)
    assert len(kept) <= MAX_POINTS
    assert kept[0] == (0, ratings[0]) and kept[-1] == (2000, ratings[-1])
    values = [v for _, v in kept]
    assert max(values) == max(ratings) and min(values) == min(ratings)
    assert [i for i, _ in kept] == sorted({i for i, _ in kept})  # in order, no repeats
    assert thinned(ratings[:50]) == list(enumerate(ratings[:50]))  # short ones whole
    assert rating_chart(ratings, "t", "c").count("<circle") <= MAX_POINTS


def rated_player(changes: int):
    ann = make_user()
    games = Game.objects.bulk_create(
        Game(ruleset="halma", status=Game.Status.FINISHED, result={"winners": [0]})
        for _ in range(changes)
    )
    Seat.objects.bulk_create(Seat(game=g, index=0, user=ann) for g in games)
    hourly_rating_changes(ann, games, before=lambda n: 1500 + n % 97, after=lambda n: 1501 + n % 89)
    Rating.objects.create(
        user=ann,
        ruleset="halma",
        speed="correspondence",
        mu=25,
        sigma=8,
        display=1500,
        games=changes,
    )
    return ann


def test_the_player_page_stays_small_however_long_the_history():
    def size(changes: int) -> int:
        ann = rated_player(changes)
        page = client_for(ann).get(f"/players/{ann.username}/")
        assert page.status_code == 200
        return len(page.content)

    few, many = size(10), size(2000)
    assert many < 50_000
    assert many - few < 15_000  # at most MAX_POINTS points, however many games


def waiting_requests(count: int, *, realtime_every: int = 7) -> list[RemisRequest]:
    """``count`` pending requests, one per running game, every seventh realtime."""
    ann = make_user()
    games = Game.objects.bulk_create(
        Game(ruleset="halma", status=Game.Status.ACTIVE, paused=True) for _ in range(count)
    )
    start = timezone.now() - timedelta(days=30)
    made = RemisRequest.objects.bulk_create(
        RemisRequest(game=g, seat=0, requested_by=ann, kind="deadlock", reason="Walled.")
        for g in games
    )
    for n, request in enumerate(made):  # auto_now_add ignores bulk values
        request.created = start + timedelta(minutes=n // 2)  # pairs share a moment
        request.realtime = n % realtime_every == 0
    RemisRequest.objects.bulk_update(made, ["created", "realtime"])
    return made


def walk_queue(**filters) -> list[int]:
    seen, after, page = [], None, 1
    while True:
        data = remis_reads.queue_page(page=page, after=after, **filters)
        seen += [item["id"] for item in data["items"]]
        if data["next"] is None:
            return seen
        after, page = data["next"], page + 1


def test_the_remis_queue_pages_by_keyset_in_the_queues_order():
    made = waiting_requests(60)
    expected = [
        r.pk
        for r in sorted(
            RemisRequest.objects.filter(pk__in=[m.pk for m in made]),
            key=lambda r: (not r.realtime, r.created, r.pk),
        )
    ]
    assert walk_queue() == expected  # realtime first, then oldest, none twice
    first = remis_reads.queue_page()
    assert first["total"] == 60 and not first["total_capped"] and len(first["items"]) == 25
    assert remis_reads.queue_page(after=2**70)["items"] == first["items"]  # the first page
    RemisRequest.objects.filter(pk=first["next"]).update(status="approved")
    # The request a page starts after may be decided meanwhile: the next page still follows.
    assert [i["id"] for i in remis_reads.queue_page(after=first["next"])["items"]] == (
        expected[25:50]
    )


def test_the_remis_queue_costs_the_same_with_1000_waiting_as_with_10(monkeypatch):
    monkeypatch.setattr(remis_reads, "COUNT_CAP", 500)

    def cost() -> tuple[int, int, int]:
        with CaptureQueriesContext(connection) as queries:
            first = remis_reads.queue_page(per_page=5)
            later = remis_reads.queue_page(after=first["next"], page=2, per_page=5)
            remis_reads.waiting_count()
        return len(queries), len(dumps(first)), len(dumps(later))

    waiting_requests(10)  # two full pages of five
    few = cost()
    waiting_requests(990)
    many = cost()
    # No more statements (a page read from one group takes one fewer).
    assert many[0] <= few[0] <= 9
    assert abs(many[1] - few[1]) < 200 and abs(many[2] - few[2]) < 200  # the same bytes
    assert remis_reads.queue_page()["total"] == 500 and remis_reads.waiting_count() == 500
    assert remis_reads.queue_page()["total_capped"]


def test_the_remis_queue_api_and_socket_take_the_cursor():
    waiting_requests(30)
    admin = make_user(staff=True)
    client = client_for(admin)
    client.force_login(admin)
    first = client.get("/api/remis/").json()
    second = client.get(f"/api/remis/?after={first['next']}&page=2").json()
    assert second["page"] == 2 and second["next"] is None and len(second["items"]) == 5
    bad = client.get("/api/remis/?after=soon")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


def test_the_lobby_counts_stop_at_a_cap(monkeypatch):
    monkeypatch.setattr(tables, "COUNT_CAP", 50)
    Game.objects.bulk_create(Game(ruleset="halma", status=Game.Status.ACTIVE) for _ in range(10))
    Game.objects.bulk_create(Game(ruleset="halma", status=Game.Status.OPEN) for _ in range(3))
    with CaptureQueriesContext(connection) as few:
        assert tables.lobby_counts() == {
            "open": 3,
            "live": 10,
            "open_capped": False,
            "live_capped": False,
        }
    Game.objects.bulk_create(Game(ruleset="halma", status=Game.Status.ACTIVE) for _ in range(990))
    with CaptureQueriesContext(connection) as many:
        counts = tables.lobby_counts()
    assert counts["live"] == 50 and counts["live_capped"] and not counts["open_capped"]
    assert len(many) == len(few) == 2
    assert all("LIMIT 50" in q["sql"] for q in many.captured_queries)


def rated_players(count: int) -> None:
    """``count`` more rated Halma players (correspondence), ratings spread."""
    User = get_user_model()
    start = User.objects.count()
    users = User.objects.bulk_create(
        User(username=f"rated{start + n}", password="!") for n in range(count)
    )
    Rating.objects.bulk_create(
        Rating(
            user=u,
            ruleset="halma",
            speed="correspondence",
            mu=25,
            sigma=8,
            display=1000 + (start + n) * 7 % 1000,
            games=5 + n % 30,
        )
        for n, u in enumerate(users)
    )


def test_the_leaderboard_reads_only_what_its_covering_index_holds():
    """The same statements with 1,000 rated players as with 10, and of a
    rating only the columns of ``rating_board`` (ordered by it, games and
    whose): PostgreSQL answers from the index, no heap page per row."""

    def read() -> tuple[list[str], list[dict]]:
        with CaptureQueriesContext(connection) as queries:
            rows = ratings.leaderboard("halma", "correspondence")
        return [q["sql"] for q in queries.captured_queries], rows

    rated_players(10)
    few, small = read()
    rated_players(990)
    many, rows = read()
    # No more statements (a full page of established players needs one, not two).
    assert len(many) <= len(few) <= 2 and len(small) == 10
    assert len(rows) == ratings.LEADERBOARD_SIZE and len(dumps(rows)) < 12_000
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    index = next(i for i in Rating._meta.indexes if i.name == "rating_board")
    covered = {*index.fields, *index.include}
    covered = {name.lstrip("-").replace("user", "user_id") for name in covered}
    selected = {c for sql in few + many for c in re.findall(r'"games_rating"\."(\w+)"', sql)}
    assert selected <= covered, selected - covered
