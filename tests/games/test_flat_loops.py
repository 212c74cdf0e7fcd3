"""The background loops cost what is due, not what is stored (issue 31):
their statements, and on PostgreSQL the rows they read, are the same with
1,000 stored games as with 10."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from games.realtime.sweeper import build_replays, sweep_once
from games.services import bots, handover, import_jobs, mail, push
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def store_games(count: int) -> None:
    """Running and finished games, none with anything due: a bot waiting for
    its human, a seat a bot took over (its offer closed), clocks far off."""
    now = timezone.now()
    games = []
    for i in range(count):
        game = Game(
            ruleset="halma",
            status=Game.Status.ACTIVE,
            version=3,
            to_act=[0],
            clock={"kind": "correspondence", "days": 3},
            deadline=now + timedelta(days=3),
            turn_started=now,
        )
        if i % 4 == 1:
            game.bots, game.has_bots = {"1": "easy"}, True
        elif i % 4 == 2:
            game.handovers = {"1": {"votes": [0], "move": 7}}
        elif i % 4 == 3:
            game.status, game.deadline, game.to_act = Game.Status.FINISHED, None, []
        game.mark_due()  # bulk_create calls no save(): derive as it would
        games.append(game)
    Game.objects.bulk_create(games, batch_size=500)


def one_round_of_every_loop() -> tuple[int, list[int]]:
    """The statements of one round of each loop, and the rows each returned
    (psycopg counts them; SQLite says -1)."""
    rows: list[int] = []

    def counting(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        rows.append(context["cursor"].rowcount)
        return result

    with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(counting):
        assert sweep_once() == 0
        assert bots.bot_turns_due() == []
        assert handover.handover_offers_expire() == 0
        mail.mail_send_due()
        push.pushes_send_due()
        import_jobs.imports_run()
        build_replays()
    return len(queries), rows


def test_the_loops_read_the_same_with_1000_games_as_with_10():
    store_games(10)
    one_round_of_every_loop()  # the first round also purges given-up mail and pushes (then every 10 min)
    few = one_round_of_every_loop()
    store_games(990)
    assert Game.objects.count() == 1000
    many = one_round_of_every_loop()
    assert many == few  # the same statements, each returning as many rows (none due)


def test_a_due_bot_turn_and_an_offer_run_out_are_found_then_cleared():
    ann = make_user()
    store_games(20)
    now = timezone.now()
    due = Game(ruleset="halma", status=Game.Status.ACTIVE, to_act=[1], bots={"1": "easy"})
    due.save()
    assert due.bot_due and [t.game_id for t in bots.bot_turns_due()] == [due.pk]
    due.to_act = [0]
    due.save(update_fields=["to_act"])
    assert not Game.objects.get(pk=due.pk).bot_due and bots.bot_turns_due() == []

    until = (now - timedelta(seconds=1)).isoformat()
    leave = {"reason": "timeout", "event": "timeout", "until": until}
    offer = Game(
        ruleset="halma",
        status=Game.Status.ACTIVE,
        host=ann,
        handovers={"1": {"votes": [], "move": None, "leave": leave}},
    )
    offer.save()
    assert Game.objects.filter(offer_due__lte=now).get() == offer
    offer.handovers = {}
    offer.save(update_fields=["handovers"])
    assert Game.objects.get(pk=offer.pk).offer_due is None
    offer.status = Game.Status.FINISHED
    offer.handovers = {"1": {"votes": [], "move": None, "leave": leave}}
    offer.save()
    assert Game.objects.get(pk=offer.pk).offer_due is None  # a game over expires nothing


@pytest.fixture
def shared_leases(settings, redis_url):
    """Leases in the shared Redis under a prefix of this test's own."""
    import uuid

    import redis

    settings.REDIS_URL, settings.REDIS_PREFIX = redis_url, f"test-lease-{uuid.uuid4().hex[:8]}"
    yield
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{settings.REDIS_PREFIX}:*"):
        client.delete(key)
    client.close()


@pytest.mark.redis
async def test_one_process_holds_a_sweep_until_it_lets_go(shared_leases):
    from games.realtime import leases

    assert await leases.hold("deadlines", 5, process="a")
    assert await leases.hold("deadlines", 5, process="a")  # renewed
    assert not await leases.hold("deadlines", 5, process="b")
    assert await leases.hold("mail", 5, process="b")  # another sweep, another lease
    await leases.release("deadlines", process="b")  # not b's: nothing happens
    assert not await leases.hold("deadlines", 5, process="b")
    await leases.release("deadlines", process="a")
    assert await leases.hold("deadlines", 5, process="b")


@pytest.mark.redis
async def test_a_loop_whose_lease_another_process_holds_does_nothing(shared_leases, monkeypatch):
    import asyncio

    from games.realtime import leases, polling

    assert await leases.hold("deadlines", 60, process="elsewhere")
    rounds: list[str] = []
    asked: list[bool] = []
    stop = asyncio.Event()
    really_hold = leases.hold

    async def hold(name: str, seconds: float) -> bool:
        asked.append(await really_hold(name, seconds))
        if len(asked) >= 3:
            stop.set()
        return asked[-1]

    async def call() -> None:
        rounds.append("swept")

    monkeypatch.setattr(polling.leases, "hold", hold)
    await polling.poll_forever(call, 0.01, "failed", stop, lease="deadlines")
    assert asked == [False] * 3 and rounds == []
    stop.clear()
    asked.clear()
    await polling.poll_forever(call, 0.01, "failed", stop, lease="mail")
    assert asked == [True] * 3 and rounds == ["swept"] * 3
