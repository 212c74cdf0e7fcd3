"""What an import costs the request and the worker, and what others notice.

Run: .venv/bin/python bench/import_cost.py [--imports 10]

In a throwaway test database (SQLite by default; PostgreSQL with
DATABASE_URL and TEST_DATABASE_NAME set): a long finished Malefiz game's
export (about 2.8 MB, made by the rules engine as tests/games/test_imports.py
makes it) is posted ``--imports`` times by one user; prints the CPU each
request spent (the old synchronous import spent the whole replay there:
``request + worker``), the worker's CPU per import, and the latency of
another user's ``GET /api/games/<id>/`` alone and while the import worker
replays them in its thread (as the sweeper runs it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SQLITE_TEST_PATH", "/tmp/bench_import_cost.sqlite3")
os.environ["GAME_SWEEPER"] = "false"

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402


def gets(client, url: str, until: threading.Event | None, most: int) -> list[float]:
    """Wall milliseconds of GETs of ``url``, until ``until`` is set (or ``most``)."""
    times = []
    while len(times) < most and not (until and until.is_set()):
        started = time.perf_counter()
        assert client.get(url).status_code == 200
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--imports", type=int, default=10)
    args = parser.parse_args()
    setup_test_environment()
    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["imports"] = "1000/hour"
    settings.IMPORT_PENDING_PER_USER = 1000
    name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        from games.services import import_jobs
        from tests.factories import client_for, make_user, started_game
        from tests.games.test_imports import long_malefiz_export, post_import

        body = long_malefiz_export()
        importer = client_for(make_user())
        game = started_game()
        other = client_for(game.seats.get(index=1).user)
        url = f"/api/games/{game.pk}/"
        quiet = gets(other, url, None, 200)
        request_cpu = []
        for _ in range(args.imports):
            started = time.thread_time()
            assert post_import(importer, body).status_code == 202
            request_cpu.append(time.thread_time() - started)
        worker_cpu: list[float] = []
        finished = threading.Event()

        def worker() -> None:
            while True:
                started = time.thread_time()
                if not import_jobs.imports_run():
                    break
                worker_cpu.append(time.thread_time() - started)
            finished.set()

        thread = threading.Thread(target=worker)
        thread.start()
        busy = gets(other, url, finished, 10**9)
        thread.join()
        ms = statistics.quantiles
        print(f"export: {len(body) / 1e6:.1f} MB, {args.imports} imports by one user")
        print(f"request CPU per import: median {statistics.median(request_cpu):.2f} s")
        print(f"worker CPU per import:  median {statistics.median(worker_cpu):.2f} s")
        print(
            f"GET {url} alone: median {statistics.median(quiet):.1f} ms, p95 {ms(quiet, n=20)[18]:.1f} ms"
        )
        print(
            f"GET while the worker replays: median {statistics.median(busy):.1f} ms,"
            f" p95 {ms(busy, n=20)[18]:.1f} ms, max {max(busy):.1f} ms ({len(busy)} GETs)"
        )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
