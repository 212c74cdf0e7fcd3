"""How long every admin change list and change page takes with 10,000 users
and 100,000 games (issue 47 item 11).

Run (PostgreSQL, a throwaway test database of its own):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres TEST_DATABASE_NAME=bench_admin \\
        .venv/bin/python bench/admin_pages.py --users 10000 --games 100000

Every registered admin's change list and the change page of its first row
(as tests/test_admin_queries.py walks them), as a superuser through Django's
test client: the fastest of ``--repeat`` (3) wall times, the queries and
the bytes. Each game has two seats, a start event, a chat line, a
notification with its mail and a remis request; each user a tournament and
an API token. ``--keep`` keeps the database and, run again, measures it
without generating anything (to compare two versions of the admins).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_admin.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

from django.conf import settings  # noqa: E402

settings.STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from accounts.models import ApiToken, User  # noqa: E402
from games.models import (  # noqa: E402
    ChatMessage,
    Event,
    Game,
    Notification,
    OutgoingMail,
    RemisRequest,
    Seat,
)
from lobby.models import Tournament  # noqa: E402
from tests.test_admin_queries import pages  # noqa: E402

BATCH = 5000


def populate(users: int, games: int) -> None:
    made = User.objects.bulk_create(
        (User(username=f"u{i}") for i in range(users)), batch_size=BATCH
    )
    for start in range(0, games, BATCH):
        pairs = [(made[i % users], made[(i + 1) % users]) for i in range(start, start + BATCH)]
        pairs = pairs[: games - start]
        rows = Game.objects.bulk_create(
            Game(ruleset="halma", seat_count=2, host=a, challenged=b, version=1) for a, b in pairs
        )
        Seat.objects.bulk_create(
            Seat(game=g, index=i, user=u)
            for g, pair in zip(rows, pairs, strict=True)
            for i, u in enumerate(pair)
        )
        Event.objects.bulk_create(Event(game=g, version=1, kind=Event.Kind.START) for g in rows)
        ChatMessage.objects.bulk_create(
            ChatMessage(game=g, user=a, seat=0, text="hi")
            for g, (a, _b) in zip(rows, pairs, strict=True)
        )
        notes = Notification.objects.bulk_create(
            Notification(user=a, kind=Notification.Kind.DECISION, game=g)
            for g, (a, _b) in zip(rows, pairs, strict=True)
        )
        OutgoingMail.objects.bulk_create(OutgoingMail(notification=n) for n in notes)
        RemisRequest.objects.bulk_create(
            RemisRequest(
                game=g, seat=0, requested_by=a, decided_by=b, kind="deadlock", status="decided"
            )
            for g, (a, b) in zip(rows, pairs, strict=True)
        )
    Tournament.objects.bulk_create(
        (
            Tournament(name=f"t{i}", ruleset="halma", system="swiss", creator=u)
            for i, u in enumerate(made)
        ),
        batch_size=BATCH,
    )
    ApiToken.objects.bulk_create(
        (
            ApiToken(user=u, name="t", digest=f"d{i}", prefix="p", scopes=["read"])
            for i, u in enumerate(made)
        ),
        batch_size=BATCH,
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE")


def measure(repeat: int) -> None:
    staff = User.objects.filter(username="root").first() or User.objects.create_superuser(
        "root", password="x"
    )
    client = Client()
    client.force_login(staff)
    print(f"# {User.objects.count()} users, {Game.objects.count()} games")
    print(f"{'page':<48} {'ms':>8} {'queries':>8} {'KB':>8}")
    worst = 0.0
    for url in pages():
        times = []
        for _ in range(repeat):
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - began)
            assert response.status_code == 200, (url, response.status_code)
        best = min(times) * 1000
        worst = max(worst, best)
        print(f"{url:<48} {best:8.1f} {len(captured):8d} {len(response.content) / 1024:8.1f}")
    print(f"# slowest page: {worst:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=10000)
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the database for another run")
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=args.keep)
    try:
        if not Game.objects.exists():
            began = time.perf_counter()
            populate(args.users, args.games)
            print(f"# generated in {time.perf_counter() - began:.0f} s")
        measure(args.repeat)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=args.keep)


if __name__ == "__main__":
    main()
