"""Lists that grow answer a page from an index (issue 31, items 5 and 6):
the rating chart shows the newest changes and pages back, My games pages,
the bell keeps a bounded history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Notification, Rating, Seat
from games.selectors import notifications as notification_reads
from games.selectors import players, ratings
from games.services.internal import notifications
from tests.factories import client_for, hourly_rating_changes, make_user

pytestmark = pytest.mark.django_db


def finished_games(user, count: int) -> list[Game]:
    games = Game.objects.bulk_create(
        Game(ruleset="halma", status=Game.Status.FINISHED, result={"winners": [0]})
        for _ in range(count)
    )
    Seat.objects.bulk_create(Seat(game=g, index=0, user=user) for g in games)
    return games


def test_the_chart_shows_the_newest_2000_changes_and_pages_back():
    ann = make_user()
    games = finished_games(ann, ratings.HISTORY_SIZE + 5)
    hourly_rating_changes(ann, games, before=lambda n: 1500 + n, after=lambda n: 1501 + n)
    newest = ratings.history_of(ann)[("halma", "correspondence")]
    assert len(newest) == ratings.HISTORY_SIZE
    assert newest[-1]["game"] == games[-1].pk  # the latest game is on the chart
    assert newest[0]["game"] == games[5].pk  # oldest first within the page
    older = ratings.older_history({("halma", "correspondence"): newest})
    assert older == newest[0]["date"]
    back = ratings.history_of(ann, before=older)[("halma", "correspondence")]
    assert [p["game"] for p in back] == [g.pk for g in games[:5]]
    assert ratings.older_history({("halma", "correspondence"): back}) is None

    Rating.objects.create(
        user=ann, ruleset="halma", speed="correspondence", mu=25, sigma=8, display=1500, games=2005
    )
    page = client_for(ann).get(f"/players/{ann.username}/")
    assert page.status_code == 200 and b'data-testid="older-ratings"' in page.content
    href = page.content.split(b'data-testid="older-ratings" href="')[1].split(b'"')[0]
    again = client_for(ann).get(f"/players/{ann.username}/" + href.decode())
    assert again.status_code == 200 and b'data-testid="older-ratings"' not in again.content
    assert b'data-testid="newest-ratings"' in again.content
    bad = client_for(ann).get(f"/players/{ann.username}/?before=yesterday")
    assert bad.status_code == 200  # an unreadable cursor is the first page


def test_my_games_come_a_page_at_a_time_newest_first():
    ann = make_user()
    games = finished_games(ann, players.MY_GAMES_PAGE + 3)
    first = players.games_of(ann)
    assert [g.pk for g in first] == [g.pk for g in reversed(games)][: players.MY_GAMES_PAGE]
    rest = players.games_of(ann, before=first[-1].pk)
    assert [g.pk for g in rest] == [g.pk for g in reversed(games[:3])]

    client = client_for(ann)
    client.force_login(ann)
    page = client.get("/my/games/")
    assert page.status_code == 200
    assert page.content.count(b'data-testid="replay"') == players.MY_GAMES_PAGE
    assert f'href="?before={first[-1].pk}"'.encode() in page.content
    older = client.get(f"/my/games/?before={first[-1].pk}")
    assert older.content.count(b'data-testid="replay"') == 3
    assert b'data-testid="older-games"' not in older.content


def test_a_page_checks_only_as_many_games_as_it_shows():
    """Seat ids come in slices of twice the page; their games are checked by
    primary key newest first and the check stops when the page is full (each
    id checked is one descent of the key), skipping aborted ones."""
    ann = make_user()
    games = finished_games(ann, 2 * players.MY_GAMES_PAGE)
    Game.objects.filter(pk=games[-1].pk).update(status=Game.Status.ABORTED)
    with CaptureQueriesContext(connection) as queries:
        page = players.games_of(ann)
    assert [g.pk for g in page] == [g.pk for g in reversed(games[:-1])][: players.MY_GAMES_PAGE]
    checks = [q["sql"] for q in queries.captured_queries if '"status" = ' in q["sql"]]
    assert checks and all(f"LIMIT {players.MY_GAMES_PAGE}" in sql for sql in checks)


def test_a_profile_costs_the_same_with_200_games_as_with_20():
    ann = make_user()
    finished_games(ann, 20)

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            players.player_profile(ann.username)
        return len(queries)

    few = statements()
    finished_games(ann, 180)
    assert statements() == few
    assert len(players.player_profile(ann.username)["recent_games"]) == players.RECENT_GAMES


def test_the_bell_keeps_a_bounded_history_newest_first(monkeypatch):
    monkeypatch.setattr(notifications, "KEEP", 5)
    ann, bob = make_user(), make_user()
    Notification.objects.bulk_create(
        Notification(user=bob, kind=Notification.Kind.CHALLENGE, params={}) for _ in range(3)
    )
    for n in range(8):
        notifications.notify(
            user_ids=[ann.pk], kind=Notification.Kind.CHALLENGE, game=None, params={"n": n}
        )
    kept = Notification.objects.filter(user=ann)
    assert kept.count() == 5
    assert [i["id"] for i in notification_reads.unread(ann, limit=3)] == list(
        kept.order_by("-pk").values_list("pk", flat=True)[:3]
    )
    assert sorted(n.params["n"] for n in kept) == [3, 4, 5, 6, 7]  # the oldest went
    assert Notification.objects.filter(user=bob).count() == 3  # nobody else's


def test_the_lobby_lists_the_newest_tables_and_games_from_the_index(monkeypatch):
    from games.selectors import tables

    monkeypatch.setattr(tables, "LOBBY_TABLES", 5)
    host = make_user()
    made = Game.objects.bulk_create(
        Game(ruleset="halma", host=host, status=status)
        for status in [Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED] * 4
    )
    listed = [t["id"] for t in tables.lobby_tables()]
    shown = [g.pk for g in made if g.status != Game.Status.FINISHED]
    assert listed == sorted(shown, reverse=True)[:5]  # open and live mixed, newest first
