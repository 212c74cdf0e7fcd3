"""The leaderboard's established players come from an index of them alone
(issue 54): where most rated players are still provisional, walking the
whole board's index read thousands of rows to find 100 established ones."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import PROVISIONAL_GAMES, Rating
from games.selectors import ratings

pytestmark = pytest.mark.django_db


def rated(count: int, *, established_every: int) -> None:
    """``count`` rated players, one in ``established_every`` established."""
    start = get_user_model().objects.count()
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"r{start + n}", password="!") for n in range(count)
    )
    Rating.objects.bulk_create(
        Rating(
            user=u,
            ruleset="halma",
            speed="correspondence",
            mu=25,
            sigma=8,
            display=900 + (n * 7919) % 1200,
            games=PROVISIONAL_GAMES + n % 50 if n % established_every == 0 else 1 + n % 9,
        )
        for n, u in enumerate(users)
    )


def rows_walked() -> int:
    """Rows the established page's rating scan read (kept and filtered out)."""
    with CaptureQueriesContext(connection) as queries:
        ratings.leaderboard("halma", "correspondence")
    sql = queries.captured_queries[0]["sql"]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_rating")
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0][0]["Plan"]

    def scans(node: dict) -> list[dict]:
        found = [node] if node.get("Relation Name") == "games_rating" else []
        return found + [s for child in node.get("Plans", []) for s in scans(child)]

    (scan,) = scans(plan)
    return scan["Actual Rows"] + scan.get("Rows Removed by Filter", 0)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_the_established_page_reads_about_its_own_rows_however_many_are_provisional():
    rated(10_000, established_every=50)  # 200 established, 9,800 provisional
    board = ratings.leaderboard("halma", "correspondence")
    assert len(board) == ratings.LEADERBOARD_SIZE
    assert not any(r["provisional"] for r in board)
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    # The old index walked ~5,000 rows here (every provisional one above the 100th).
    assert rows_walked() <= 2 * ratings.LEADERBOARD_SIZE
