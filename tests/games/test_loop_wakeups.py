"""The background loops sleep until their next due time and are woken by
queued work (games/wakeups.py, games/realtime/polling.DueLoop): an idle
process asks the database next to nothing, and work queued while a loop
sleeps is done at once, not at its next poll. Each test waits for the event
it expects, with a timeout; the idle test counts statements over a window."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from django.db.backends import utils as db_utils
from django.utils import timezone

from games import wakeups
from games.models import Game
from games.realtime import bot_worker as bot_worker_module
from games.realtime import leases, polling
from games.realtime import sweeper as sweeping
from games.services import due_times
from games.services.play import game_act
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user, started_game

DB = pytest.mark.django_db(transaction=True)  # the loops' threads read it too

WINDOW = 3.0  # seconds of an idle process counted
REALTIME = {"kind": "realtime", "minutes": 1, "increment": 0}


@pytest.fixture
def statements(monkeypatch):
    """Every SQL statement any thread sends, counted (the loops run in threads
    of their own, each on its own connection)."""
    sent: list[str] = []
    execute, executemany = db_utils.CursorWrapper.execute, db_utils.CursorWrapper.executemany

    def counted(self, sql, *args, **kwargs):
        sent.append(sql)
        return execute(self, sql, *args, **kwargs)

    def counted_many(self, sql, *args, **kwargs):
        sent.append(sql)
        return executemany(self, sql, *args, **kwargs)

    monkeypatch.setattr(db_utils.CursorWrapper, "execute", counted)
    monkeypatch.setattr(db_utils.CursorWrapper, "executemany", counted_many)
    return sent


@DB
async def test_an_idle_process_asks_the_database_next_to_nothing(settings, statements):
    """Every loop on (deadlines, bots, mail, pushes, imports, replays,
    tournaments, guests) with the production intervals and nothing to do:
    after the first look, no statement in the window (the old polls sent
    about a dozen a second). The bar: at most 2 a second."""
    settings.GAME_SWEEPER = True
    await sync_to_async(started_game)("halma", clock=REALTIME)  # a clock a minute away
    worker = sweeping.Sweeper()
    worker.ensure_started()
    try:
        await asyncio.sleep(1.5)  # the first look of every loop (not counted)
        before = len(statements)
        await asyncio.sleep(WINDOW)  # the window measured: nothing is due in it
        sent = statements[before:]
    finally:
        await worker.stop()
    assert len(sent) <= 2 * WINDOW, sent


@DB
def test_the_next_due_times_come_from_the_indexes():
    assert due_times.loop_sweep_due() is None and due_times.loop_bots_due() is None
    game = started_game("halma", clock=REALTIME)
    assert abs((due_times.loop_sweep_due() - game.deadline).total_seconds()) < 0.001
    Game.objects.filter(pk=game.pk).update(paused=True)
    assert due_times.loop_sweep_due() is None  # a paused clock runs out never
    human = make_user()
    vs = lobby.table_create(host=human, ruleset="halma", host_seat=1, bot={"level": "easy"})
    vs.refresh_from_db()
    assert vs.bot_due  # the bot opens
    assert due_times.loop_bots_due() <= timezone.now()
    assert due_times.loop_mail_due() is not None  # never purged yet: now
    assert due_times.loop_imports_due() is None


async def test_a_loop_sleeps_until_its_due_time_and_a_wake_runs_it_at_once(settings):
    """A loop with nothing due looks once and sleeps (the long sleep); a
    wake from another thread (as a commit's) ends the sleep at once."""
    settings.LOOP_IDLE_SECONDS = 60
    due: list[float | None] = [None]
    asked, ran = [], asyncio.Event()
    stop = asyncio.Event()

    async def next_due() -> float | None:
        asked.append(due[0])
        return due[0]

    async def call() -> None:
        due[0] = None  # done: nothing due any more
        ran.set()

    looking = asyncio.create_task(
        polling.poll_forever(call, 30.0, "failed", stop, lease="test-loop", next_due=next_due)
    )
    try:
        await _until(lambda: asked == [None])  # the first look: nothing due
        due[0] = 0.0
        await asyncio.to_thread(wakeups.wake, "test-loop")  # a commit in a thread
        await asyncio.wait_for(ran.wait(), 2)  # not 60 s later
        assert asked == [None, 0.0, None]
    finally:
        stop.set()
        await asyncio.wait_for(looking, 2)


@DB
async def test_an_earlier_deadline_wakes_the_sweep_and_the_clock_runs_out_on_time(
    settings, monkeypatch
):
    """The sweep sleeps until the game's deadline a minute away; a move that
    sets an earlier one (written here, then told as a move's commit tells it:
    ``game_changed``) wakes it, and the timeout comes at that deadline. The
    old loop, polling every ``GAME_SWEEP_SECONDS`` (here 30 s), missed it."""
    settings.GAME_SWEEPER, settings.GAME_SWEEP_SECONDS = True, 30.0
    game = await sync_to_async(started_game)("halma", clock=REALTIME)
    applied = threading.Event()
    timeout = sweeping.game_timeout

    def told_timeout(**kwargs):
        version = timeout(**kwargs)
        if version is not None:
            applied.set()
        return version

    monkeypatch.setattr(sweeping, "game_timeout", told_timeout)
    looked = _told_when_called(monkeypatch, due_times, "loop_sweep_due")
    worker = sweeping.Sweeper()
    worker.ensure_started()
    try:
        # Its first look is done: it sleeps towards the minute.
        assert await asyncio.to_thread(looked.wait, 5)
        soon = timezone.now() + timedelta(seconds=0.3)
        await Game.objects.filter(pk=game.pk).aupdate(deadline=soon)
        changed = await Game.objects.aget(pk=game.pk)
        wakeups.game_changed(changed)
        assert await asyncio.to_thread(applied.wait, 3), "the earlier deadline was missed"
        assert timezone.now() >= soon
    finally:
        await worker.stop()


@DB
async def test_a_move_that_makes_a_bot_s_turn_wakes_the_bot_worker(settings, monkeypatch):
    """The human's move commits; the worker, asleep with nothing due, is
    woken by it (``publish_game_event``) and the bot answers, though it
    would poll only every 30 s."""
    settings.BOT_POLL_SECONDS = 30.0
    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.0
    game, human = await sync_to_async(_vs_bot)()
    looked = _told_when_called(monkeypatch, bot_worker_module, "loop_bots_due")
    worker = bot_worker_module.BotWorker()
    worker.ensure_started()
    try:
        assert await asyncio.to_thread(looked.wait, 5)  # found nothing due: it sleeps
        move = sync_to_async(game_act, thread_sensitive=False)
        assert await move(game_id=game.pk, user=human, version=1, action=FIRST_MOVE) == 2
        await _until(lambda: Game.objects.get(pk=game.pk).version >= 3, sync=True)
    finally:
        await worker.stop()


def test_a_change_wakes_only_the_loops_it_makes_work_for(monkeypatch):
    woken: list[tuple[str, ...]] = []
    monkeypatch.setattr(wakeups, "wake", lambda *names: woken.append(names))
    now = timezone.now()
    wakeups.game_changed(Game(deadline=now + timedelta(seconds=5)))
    wakeups.game_changed(Game(deadline=now + timedelta(days=3)))  # it looks before then anyway
    wakeups.game_changed(Game(bot_due=True))
    wakeups.game_changed(Game(forced_at=now, bot_due=True))
    assert woken == [("deadlines",), ("bots",), ("bots", "deadlines")]


@DB
def test_a_committed_move_tells_the_deadline_sweep(monkeypatch, settings):
    """Its new deadline (a minute away) comes before the sweep's next look."""
    settings.LOOP_IDLE_SECONDS = 120
    woken: list[tuple[str, ...]] = []
    monkeypatch.setattr(wakeups, "wake", lambda *names: woken.append(names))
    game = started_game("halma", clock=REALTIME)
    woken.clear()
    game_act(game_id=game.pk, user=game.seats.get(index=0).user, version=1, action=FIRST_MOVE)
    assert ("deadlines",) in woken


@pytest.mark.redis
async def test_a_wake_reaches_the_lease_holder_in_another_process(settings, redis_url):
    """Another process (here: another holder name) holds the lease: a wake
    here sets the Redis key, which the holder takes with its renewal."""
    import uuid

    settings.REDIS_URL, settings.REDIS_PREFIX = redis_url, f"test-wake-{uuid.uuid4().hex[:8]}"
    assert await leases.hold_woken("mail", 5, process="elsewhere") == (True, False)
    await asyncio.to_thread(wakeups.wake, "mail")  # no loop here: sent at once
    assert await leases.hold_woken("mail", 5, process="elsewhere") == (True, True)
    assert await leases.hold_woken("mail", 5, process="elsewhere") == (True, False)  # taken
    assert await leases.hold_woken("mail", 5) == (False, False)  # not ours
    await leases.release("mail", process="elsewhere")


@pytest.mark.redis
async def test_release_all_hands_every_lease_over_and_takes_none_again(settings, redis_url):
    import uuid

    settings.REDIS_URL, settings.REDIS_PREFIX = redis_url, f"test-wake-{uuid.uuid4().hex[:8]}"
    assert await leases.hold("deadlines", 30) and await leases.hold("bots", 30)
    try:
        assert await leases.release_all() == ["bots", "deadlines"]
        assert await leases.hold("deadlines", 30, process="another")  # free at once
        assert not await leases.hold("bots", 30)  # this process takes none again
    finally:
        leases.rejoin()
        await leases.release("deadlines", process="another")


def _told_when_called(monkeypatch, module, name: str) -> threading.Event:
    """``module.name`` (a loop's next due time) sets the event once it answered."""
    called, real = threading.Event(), getattr(module, name)

    def told():
        found = real()
        called.set()
        return found

    monkeypatch.setattr(module, name, told)
    return called


async def _until(check, timeout: float = 5.0, sync: bool = False) -> None:
    """Wait for ``check()`` (in a thread when it reads the database)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (await sync_to_async(check)() if sync else check()):
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


def _vs_bot():
    human = make_user()
    return lobby.table_create(
        host=human, ruleset="halma", host_seat=0, bot={"level": "easy"}
    ), human
