"""Imports off the request path: the request checks the size and the header
and queues; the import worker replays within a CPU budget; bodies over their
endpoint's limit are 413; imports are throttled per user."""

from __future__ import annotations

import json
import random
import time
import uuid
from datetime import timedelta
from functools import cache

import pytest
import redis
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Event, Game, ImportJob
from games.rules import get_ruleset
from games.selectors import replays
from games.selectors.walk import step_full
from games.services import import_jobs
from games.services.internal import game_import
from tests.factories import client_for, every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024


@cache
def long_malefiz_export() -> str:
    """A genuinely long finished game's export (four seats of random Malefiz,
    about 15,000 versions, 2.8 MB), played through the rules engine alone:
    the test pays one replay to make it, not a database write per move."""
    rs, rng = get_ruleset("malefiz"), random.Random(1)
    options, seats, seed = rs.default_options(), 4, 7
    state = rs.setup(options, seats, seed)
    log = [{"version": 1, "seat": None, "kind": "start", "action": None, "events": []}]
    while rs.outcome(state) is None:
        seat = rs.to_act(state)[0]
        action = rs.random_action(state, seat, rng)
        state, items, _ = step_full(rs, state, "act", seat, action)
        log.append(
            {
                "version": len(log) + 1,
                "seat": seat,
                "kind": "act",
                "action": action,
                "events": items,
            }
        )
    return json.dumps(
        {
            "format": replays.EXPORT_FORMAT,
            "ruleset": "malefiz",
            "options": options,
            "seat_count": seats,
            "seed": seed,
            "result": rs.outcome(state),
            "log": log,
            "final_state": rs.encode(state),
        }
    )


def post_import(client: APIClient, body: str):
    return client.post("/api/games/import/", body, content_type="application/json")


def decide_all() -> None:
    while import_jobs.imports_run():
        pass


def test_an_import_of_several_megabytes_succeeds():
    body = long_malefiz_export()
    assert 2.5 * MIB < len(body) < 8 * MIB
    client = client_for(make_user())
    queued = post_import(client, body)
    assert queued.status_code == 202, queued.content[:300]
    decide_all()
    done = client.get(queued["Location"]).json()
    assert done["status"] == "done" and done["error"] is None, done
    data = json.loads(body)
    game = Game.objects.get(pk=done["game"])
    assert game.imported and game.status == Game.Status.FINISHED
    assert game.version == len(data["log"]) == Event.objects.filter(game=game).count()
    assert game.state == data["final_state"] and game.result["winners"] == data["result"]["winners"]
    assert ImportJob.objects.get(pk=done["id"]).data is None  # the export is not kept


def test_the_request_only_checks_and_queues(monkeypatch):
    """The request replays nothing: it answers at once, its CPU is the body's
    parsing, and the game exists only once the worker has replayed it."""
    body = long_malefiz_export()
    client = client_for(make_user())

    def no_replay_here(*args, **kwargs):
        raise AssertionError("the request replayed the log")

    with monkeypatch.context() as patched:
        patched.setattr(game_import, "replay_export", no_replay_here)
        started = time.thread_time()
        queued = post_import(client, body)
        spent = time.thread_time() - started
    assert queued.status_code == 202, queued.content[:300]
    assert queued.json() == {
        "id": queued.json()["id"],
        "status": "pending",
        "game": None,
        "error": None,
    }
    assert spent < 2.0, f"{spent:.2f} s of CPU inside the request"
    assert not Game.objects.filter(imported=True).exists()
    assert client.get(queued["Location"]).json()["status"] == "pending"
    decide_all()
    assert client.get(queued["Location"]).json()["status"] == "done"


@pytest.mark.django_db(transaction=True)
def test_the_worker_replays_holding_no_connection(monkeypatch):
    """Between claiming a job and storing its game, the worker's thread holds no
    database connection (with the pool's CONN_MAX_AGE of 0, on any database)."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    connection.close()  # the next connection is opened with that age
    client = client_for(make_user())
    assert post_import(client, long_malefiz_export()).status_code == 202
    held = []
    replay = game_import.replay_export

    def watched(*args, **kwargs):
        held.append(connection.connection is not None)
        return replay(*args, **kwargs)

    monkeypatch.setattr(game_import, "replay_export", watched)
    decide_all()
    assert held == [False]
    assert Game.objects.filter(imported=True).count() == 1


def test_a_replay_over_its_cpu_budget_ends_too_costly(settings):
    settings.IMPORT_CPU_SECONDS = 0.05
    client = client_for(make_user())
    queued = post_import(client, long_malefiz_export())
    assert queued.status_code == 202
    started = time.thread_time()
    decide_all()
    assert time.thread_time() - started < 2.0  # stopped at the budget, not at the end
    failed = client.get(queued["Location"]).json()
    assert failed["status"] == "failed" and failed["game"] is None
    assert failed["error"]["code"] == "too_costly" and "0.05" in failed["error"]["message"]
    assert not Game.objects.filter(imported=True).exists()


def test_only_the_owner_follows_an_import():
    owner = client_for(make_user())
    queued = post_import(owner, long_malefiz_export())
    assert client_for(make_user()).get(queued["Location"]).status_code == 404
    assert APIClient().get(queued["Location"]).status_code in (401, 403)
    assert owner.get(queued["Location"]).status_code == 200


def test_a_claim_whose_worker_died_expires_and_the_job_is_picked_up():
    """A job survives its worker: the claim runs out and another worker takes it;
    one claimed too often (its process dies each time) fails with a clear error."""
    game, _, _ = finished_halma()
    client = client_for(make_user())
    queued = post_import(client, json.dumps(replays.export_game(game)))
    job = ImportJob.objects.get(pk=queued.json()["id"])
    lease = timezone.now() + timedelta(minutes=10)
    assert import_jobs._import_queue().claim_due(timezone.now(), lease) == [job.pk]  # then it died
    assert import_jobs.imports_run() == 0  # claimed: no one else takes it
    ImportJob.objects.filter(pk=job.pk).update(due=timezone.now() - timedelta(seconds=1))
    decide_all()
    assert client.get(queued["Location"]).json()["status"] == "done"

    again = post_import(client, json.dumps(replays.export_game(game)))
    ImportJob.objects.filter(pk=again.json()["id"]).update(attempts=3)
    decide_all()
    broken = client.get(again["Location"]).json()
    assert broken["status"] == "failed" and broken["error"]["code"] == "server_error"


def finished_halma():
    from games.services.endings import game_resign

    game = every_seat_moves(started_game())  # else the resignation aborts it
    white = game.seats.get(index=0).user
    game_resign(game_id=game.pk, user=white)
    game.refresh_from_db()
    return game, white, None


def test_a_header_that_is_no_export_is_refused_at_once():
    client = client_for(make_user())
    response = post_import(client, json.dumps({"format": "brettspiele/1", "ruleset": "chess"}))
    assert response.status_code == 400 and response.json()["code"] == "bad_export"
    assert not ImportJob.objects.exists()


# -- body limits ------------------------------------------------------------------------


def test_bodies_over_their_endpoints_limit_are_413_bad_request():
    game = started_game()
    white = client_for(game.seats.get(index=0).user)
    over = {
        f"/api/games/{game.pk}/act/": 64 * 1024 + 1,
        f"/api/games/{game.pk}/chat/": 3 * MIB,  # over Django's 2.5 MB: once a 500
        "/api/games/import/": 8 * MIB + 1,
        "/api/no-such-endpoint/": 64 * 1024 + 1,
    }
    for url, size in over.items():
        body = '{"text": "' + "x" * (size - 12) + '"}'
        assert len(body) == size
        response = white.post(url, body, content_type="application/json")
        assert response.status_code == 413, (url, response.status_code)
        assert response.json()["code"] == "bad_request" and response.json()["message"]
    game.refresh_from_db()
    assert game.version == 1 and not ImportJob.objects.exists()


def test_bodies_at_their_limit_reach_the_view():
    client = client_for(make_user())
    body = '{"x": "' + "y" * (8 * MIB - 9) + '"}'
    assert len(body) == 8 * MIB
    response = post_import(client, body)
    assert response.status_code == 400 and response.json()["code"] == "bad_export"


def test_a_page_form_over_its_limit_is_413(client):
    response = client.post(
        "/accounts/login/",
        "username=a&password=" + "x" * (3 * MIB),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413


def test_djangos_own_limit_is_answered_413_not_500(settings):
    """Should Django's limit ever sit below an endpoint's own, its refusal is a 413."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100 * 1024
    client = client_for(make_user())
    response = post_import(client, '{"x": "' + "y" * (200 * 1024) + '"}')
    assert response.status_code == 413 and response.json()["code"] == "bad_request"


# -- the per-user throttle ---------------------------------------------------------------


@pytest.fixture
def shared_counts(request, settings):
    """Counters in the process (the embedded default) or on the shared Redis,
    under a prefix of this test's own."""
    if request.param == "local":
        yield
        return
    url = request.getfixturevalue("redis_url")
    prefix = f"bsptest{uuid.uuid4().hex[:10]}"
    settings.REDIS_URL, settings.REDIS_PREFIX = url, prefix
    yield
    client = redis.Redis.from_url(url)
    assert any(client.scan_iter(f"{prefix}:rl:*"))  # counted where every process counts
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


@pytest.mark.parametrize("shared_counts", ["local", pytest.param("redis", marks=pytest.mark.redis)])
def test_imports_are_throttled_per_user(shared_counts, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "imports": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.IMPORT_PENDING_PER_USER = 10
    export = json.dumps(replays.export_game(finished_halma()[0]))
    eager = client_for(make_user())
    codes = [post_import(eager, export).status_code for _ in range(3)]
    assert codes == [202, 202, 429]
    refused = post_import(eager, export)
    assert refused.json()["code"] == "throttled" and refused.json()["retry_after"] > 0
    assert post_import(client_for(make_user()), export).status_code == 202  # another user
    assert ImportJob.objects.count() == 3


def test_a_user_has_a_few_imports_waiting_at_most(settings):
    settings.IMPORT_PENDING_PER_USER = 2
    export = json.dumps(replays.export_game(finished_halma()[0]))
    client = client_for(make_user())
    assert [post_import(client, export).status_code for _ in range(2)] == [202, 202]
    waiting = post_import(client, export)
    assert waiting.status_code == 429 and waiting.json()["code"] == "rate_limited"
    decide_all()
    assert post_import(client, export).status_code == 202


@pytest.mark.django_db(transaction=True)
def test_two_imports_at_once_cannot_both_pass_the_waiting_limit(settings, monkeypatch):
    """Count, then insert: two requests at once each counted the other's job
    as not there yet. Each waits for the other to have counted (or, with the
    user's row locked, for a second that never comes)."""
    import contextlib
    import threading

    from django.db.models.query import QuerySet

    from tests.together import at_once

    settings.IMPORT_PENDING_PER_USER = 1
    data = replays.export_game(finished_halma()[0])
    user = make_user()
    both_counted = threading.Barrier(2)
    real_count = QuerySet.count

    def count(self):
        counted = real_count(self)
        if self.model is ImportJob:
            with contextlib.suppress(threading.BrokenBarrierError):
                both_counted.wait(timeout=1)
        return counted

    monkeypatch.setattr(QuerySet, "count", count)
    results = at_once([lambda: import_jobs.import_enqueue(user=user, data=data)] * 2)
    assert ImportJob.objects.filter(user=user).count() == 1, results
    assert sorted(type(r).__name__ for r in results) == ["GameError", "ImportJob"]
