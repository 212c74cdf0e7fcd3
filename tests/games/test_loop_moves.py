"""Moves on the event loop (games/services/moves_on_loop.py, run by
games/realtime/acts.py): PostgreSQL only.

bin/test runs this file in its PostgreSQL run; on SQLite every move takes
the thread-pool path, which the rest of the suite covers.
"""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import timedelta
from functools import partial

import psycopg
import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.utils import timezone, translation

from games import publish
from games.errors import GameError
from games.models import ConditionalPlan, Event, Game, Notification, OutgoingMail, Seat
from games.realtime import acts, sending
from games.rules import get_ruleset
from games.services import endings, moves_on_loop, play
from games.services.conditional import conditional_save
from games.services.internal import deciding, events
from games.store import loop_pool, presence, rows
from moderation.models import Standing
from tests.db_threads import sync_to_async
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game
from tests.games.test_conditional import line_from

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL"),
]
REALTIME = {"kind": "realtime", "minutes": 10, "increment": 0}
WHITE_REPLY = {"type": "move", "path": [[4, 9], [3, 9]]}  # White's next, after BLACK_MOVE


@pytest.fixture
def moves(monkeypatch):
    """Records what the usual path made and what was published."""
    record = {"usual": 0, "published": []}
    usual = play.game_act

    def counted(**kwargs):
        record["usual"] += 1
        return usual(**kwargs)

    monkeypatch.setattr(play, "game_act", counted)
    # Every event's frames, built at once or before a conditional reply
    # moves the game on, are sent through game_event_sender.
    monkeypatch.setattr(
        publish,
        "game_event_sender",
        lambda game, rs, state, event, holders=None: partial(
            record["published"].append, event.version
        ),
    )
    return record


async def new_game(moves, clock=None):
    def build():
        white, black = make_user(), make_user()
        game = started_game(players=[white, black], clock=clock or REALTIME)
        return game, white, black

    built = await sync_to_async(build)()
    moves["published"].clear()  # the start
    # As on a server that has been up a while: the pool holds its one idle
    # connection (asked for at once, the first move would make a second).
    await (await loop_pool.pool_for_this_loop()).wait()
    return built


async def stored(game) -> tuple[int, list[int]]:
    def read():
        versions = Event.objects.filter(game=game).order_by("version")
        return Game.objects.get(pk=game.pk).version, list(
            versions.values_list("version", flat=True)
        )

    return await sync_to_async(read)()


async def pooled() -> tuple[psycopg.pq.TransactionStatus, int, dict[str, int]]:
    """The state and backend of the connection the next move would get, and
    the pool's figures."""
    pool = await loop_pool.pool_for_this_loop()
    async with pool.connection() as conn:
        status, pid = conn.info.transaction_status, conn.info.backend_pid
    return status, pid, pool.get_stats()


async def test_a_plain_move_is_made_on_the_loop(moves):
    game, white, black = await new_game(moves)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert moves == {"usual": 0, "published": [2, 3]}
    assert await stored(game) == (3, [1, 2, 3])
    # One connection served both moves and is back, outside any transaction.
    status, _, stats = await pooled()
    assert status == psycopg.pq.TransactionStatus.IDLE
    assert stats["pool_size"] == 1


async def runs() -> dict[str, int]:
    """How often the pool's connection ran each prepared statement."""
    pool = await loop_pool.pool_for_this_loop()
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT name, generic_plans + custom_plans FROM pg_prepared_statements"
        )
        return dict(await cursor.fetchall())


PREPARED = (rows.PREPARED_LOCK, rows.PREPARED_WRITE, rows.PREPARED_HOLD, rows.PREPARED_GUARDED)


async def ran(before: dict[str, int]) -> dict[str, int]:
    after = await runs()
    return {name: after[name] - before[name] for name in PREPARED}


async def test_a_move_on_the_loop_runs_the_statements_its_connection_prepared(moves):
    game, white, _ = await new_game(moves)
    before = await runs()
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    lock_and_write = {rows.PREPARED_LOCK: 1, rows.PREPARED_WRITE: 1}
    assert await ran(before) == {**dict.fromkeys(PREPARED, 0), **lock_and_write}
    assert await stored(game) == (2, [1, 2])


async def test_the_next_move_of_a_game_the_loop_wrote_is_one_round_trip(moves, locks):
    """Decided from the row the loop committed last: the row held and the
    guarded write, no lock read; every move after the first alike."""
    game, white, black = await new_game(moves)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    before = await runs()
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    hold_and_guarded = {rows.PREPARED_HOLD: 1, rows.PREPARED_GUARDED: 1}
    assert await ran(before) == {**dict.fromkeys(PREPARED, 0), **hold_and_guarded}
    assert locks == [[game.pk]]  # the first move's only
    assert moves == {"usual": 0, "published": [2, 3]}
    assert await stored(game) == (3, [1, 2, 3])

    def read():
        fresh = Game.objects.get(pk=game.pk)
        event = Event.objects.get(game=game, version=3)
        return fresh.to_act, fresh.clocks, event.seat, event.action

    to_act, clocks, seat, action = await sync_to_async(read)()
    assert (to_act, seat, action) == ([0], 1, BLACK_MOVE)
    assert len(clocks) == 2 and all(0 < left <= 600 for left in clocks)


async def _moved_by_white(moves):
    """A game whose row the loop wrote last (white's first move)."""
    game, white, black = await new_game(moves)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    return game, white, black


@pytest.mark.parametrize(
    "behind_its_back, code",
    [
        # The row changed without a new version (an admin's pause): its xmin did.
        (lambda game, black: Game.objects.filter(pk=game.pk).update(paused=True), "paused"),
        # The seat handed to another user, the game row untouched.
        (
            lambda game, black: Seat.objects.filter(game=game, index=1).update(user=make_user()),
            "not_seated",
        ),
        # The mover suspended since.
        (
            lambda game, black: Standing.objects.create(
                user=black, suspended_until=timezone.now() + timedelta(days=1)
            ),
            "suspended",
        ),
        (lambda game, black: Standing.objects.create(user=black, closed=True), "closed"),
    ],
)
async def test_a_change_behind_the_loops_back_is_decided_under_the_lock(
    moves, locks, behind_its_back, code
):
    game, _, black = await _moved_by_white(moves)
    await sync_to_async(behind_its_back)(game, black)
    with pytest.raises(GameError) as refused:
        await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert refused.value.code == code
    assert locks == [[game.pk], [game.pk]]  # the guarded write found it and wrote nothing
    assert await stored(game) == (2, [1, 2])
    assert moves == {"usual": 0, "published": [2]}
    assert (await pooled())[0] == psycopg.pq.TransactionStatus.IDLE


async def test_a_version_another_path_made_is_not_made_again_from_memory(moves, locks):
    """The loop remembers version 2; another process (here the usual path)
    makes version 3. A second tab still at version 2 is refused as stale, and
    the move at version 3 is decided under the lock."""
    game, white, black = await _moved_by_white(moves)
    made = await sync_to_async(play.game_act)(
        game_id=game.pk, user=black, version=2, action=BLACK_MOVE
    )
    assert made == 3
    with pytest.raises(GameError) as refused:
        await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert refused.value.code == "stale_version"
    assert await stored(game) == (3, [1, 2, 3])
    assert await acts.act(game_id=game.pk, user=white, version=3, action=WHITE_REPLY) == 4
    assert locks == [[game.pk], [game.pk], [game.pk]]
    assert await stored(game) == (4, [1, 2, 3, 4])


async def test_a_move_from_memory_is_decided_while_the_budget_count_runs(moves, monkeypatch):
    game, _, black = await _moved_by_white(moves)
    decided = asyncio.Event()
    decide = deciding.decide_act

    def decide_then_say(*args):
        change = decide(*args)
        decided.set()
        return change

    monkeypatch.setattr(deciding, "decide_act", decide_then_say)
    # Decided before the count came; refused when it came over budget.
    await refused_over_budget(decided, game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert await stored(game) == (2, [1, 2])
    assert moves == {"usual": 0, "published": [2]}
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3


async def test_a_failure_deciding_from_memory_leaves_the_move_to_the_lock(
    moves, locks, monkeypatch
):
    """Whatever fails on the way from memory to the write (here building the
    guarded statement) is no answer: the lock's path makes the move."""
    game, _, black = await _moved_by_white(moves)

    def broken(*args, **kwargs):
        raise RuntimeError("not this way")

    monkeypatch.setattr(rows, "guarded_statement", broken)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert locks == [[game.pk], [game.pk]]
    assert await stored(game) == (3, [1, 2, 3])


async def test_a_refusal_decided_from_memory_is_decided_again_under_the_lock(moves, locks):
    game, white, black = await _moved_by_white(moves)
    with pytest.raises(GameError) as refused:
        await acts.act(game_id=game.pk, user=white, version=2, action=FIRST_MOVE)
    assert refused.value.code == "not_your_turn"
    assert locks == [[game.pk], [game.pk]]
    # The lock's refusal wrote nothing; the row is remembered no more, so the
    # next move reads it under the lock and plays.
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert locks == [[game.pk], [game.pk], [game.pk]]
    assert await stored(game) == (3, [1, 2, 3])


async def deallocated(name: str) -> int:
    """``DEALLOCATE name`` on the connection the next move would get; its backend."""
    pool = await loop_pool.pool_for_this_loop()
    async with pool.connection() as conn:
        await conn.execute(f"DEALLOCATE {name}")
        return conn.info.backend_pid


async def replaced(backend: int) -> bool:
    """The connection the next move would get is another, outside any transaction."""
    status, after, _ = await pooled()
    return after != backend and status == psycopg.pq.TransactionStatus.IDLE


@pytest.mark.parametrize("gone", ["ALL", rows.PREPARED_WRITE])
async def test_a_connection_without_its_prepared_statements_is_replaced(moves, gone):
    """A session that lost them (a pooler in transaction mode, a DEALLOCATE,
    a migration that changed a column they read) is closed, and the move is
    made: the lock's failure is tried again on the pool's next connection, the
    write's is made by the usual path, which decides it again."""
    game, white, black = await new_game(moves)
    before = await deallocated(gone)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert moves["usual"] == (1 if gone == rows.PREPARED_WRITE else 0)
    assert await replaced(before)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert moves["usual"] == (1 if gone == rows.PREPARED_WRITE else 0)  # prepared anew
    assert await stored(game) == (3, [1, 2, 3])


@pytest.mark.parametrize("gone", [rows.PREPARED_HOLD, rows.PREPARED_GUARDED])
async def test_a_connection_without_its_guarded_write_is_replaced(moves, locks, gone):
    """A move decided from memory whose statements are gone: nothing was
    committed, so the lock decides it on the pool's next connection."""
    game, white, black = await _moved_by_white(moves)
    before = await deallocated(gone)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert await replaced(before)
    assert locks == [[game.pk], [game.pk]]
    # The fresh connection has them: the next move is made from memory again.
    assert await acts.act(game_id=game.pk, user=white, version=3, action=WHITE_REPLY) == 4
    assert locks == [[game.pk], [game.pk]]
    assert moves == {"usual": 0, "published": [2, 3, 4]}
    assert await stored(game) == (4, [1, 2, 3, 4])


@pytest.mark.parametrize(
    "who, version, action, code",
    [
        ("white", 0, FIRST_MOVE, "stale_version"),
        ("black", 1, BLACK_MOVE, "not_your_turn"),
        ("white", 1, {"type": "move", "path": [[5, 9], [0, 0]]}, "illegal"),
        ("stranger", 1, FIRST_MOVE, "not_seated"),
        ("white", 1, "e2e4", "bad_request"),
        ("white", "1", FIRST_MOVE, "bad_request"),
    ],
)
async def test_refusals_change_nothing_and_release_the_row(moves, who, version, action, code):
    game, white, black = await new_game(moves)
    user = {"white": white, "black": black}.get(who) or await sync_to_async(make_user)()
    with pytest.raises(GameError) as refused:
        await acts.act(game_id=game.pk, user=user, version=version, action=action)
    assert refused.value.code == code
    assert await stored(game) == (1, [1])
    assert moves == {"usual": 0, "published": []}
    assert (await pooled())[0] == psycopg.pq.TransactionStatus.IDLE
    # The row is not left locked: the usual path can take it.
    version = await sync_to_async(play.game_act)(
        game_id=game.pk, user=white, version=1, action=FIRST_MOVE
    )
    assert version == 2


@pytest.mark.parametrize(
    "game_id, code", [(999_999_999, "not_found"), (0, "not_found"), ("x", "bad_request")]
)
async def test_an_unknown_game_is_refused(moves, game_id, code):
    with pytest.raises(GameError) as refused:
        await acts.act(game_id=game_id, user=None, version=1, action=FIRST_MOVE)
    assert refused.value.code == code
    # Let the pool the refusal opened finish connecting: a connection attempt
    # still running when the test's loop closes keeps its teardown waiting.
    await (await loop_pool.pool_for_this_loop()).wait()


async def refused_over_budget(reached: asyncio.Event, **move) -> None:
    """The move, its shared count not yet answered, gets as far as ``reached``
    and waits there for the count; the count answers over budget (wait 4 s)
    and the move is refused."""
    count = asyncio.get_running_loop().create_future()
    made = asyncio.ensure_future(acts.act(**move, admitted=count))
    await asyncio.wait_for(reached.wait(), 10)
    assert not made.done()
    count.set_result(4)
    with pytest.raises(GameError) as refused:
        await made
    assert (refused.value.code, refused.value.retry_after) == ("rate_limited", 4)


async def test_the_budget_count_runs_while_the_row_is_locked(moves, monkeypatch):
    """The user's shared count is awaited after the lock: the lock's round trip
    and the count's overlap, and a move over budget is refused untouched."""
    game, white, _ = await new_game(moves)
    locked = asyncio.Event()
    lock = moves_on_loop.rows.alock_games

    async def lock_then_say(*args):
        found = await lock(*args)
        locked.set()
        return found

    monkeypatch.setattr(moves_on_loop.rows, "alock_games", lock_then_say)
    # Locked before the count came; refused when it came over budget.
    await refused_over_budget(locked, game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert await stored(game) == (1, [1])
    assert moves == {"usual": 0, "published": []}
    assert (await pooled())[0] == psycopg.pq.TransactionStatus.IDLE
    admitted = asyncio.get_running_loop().create_future()
    admitted.set_result(None)
    assert (
        await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE, admitted=admitted)
        == 2
    )


async def test_the_move_that_opens_the_pool_is_served_while_others_keep_coming(settings):
    """A server starting under load: the move that opened the pool gets its
    connection in turn, not only once the other moves stop coming."""
    settings.MOVES_POOL_SIZE = 1
    stop = asyncio.Event()
    served = 0

    async def other_moves() -> None:
        nonlocal served
        pool = await loop_pool.pool_for_this_loop()
        while not stop.is_set():
            async with pool.connection() as conn:
                await conn.execute("SELECT 1")
                served += 1

    first = asyncio.ensure_future(loop_pool.pool_for_this_loop())
    others = [asyncio.ensure_future(other_moves()) for _ in range(3)]
    try:
        pool = await asyncio.wait_for(first, 5)
        async with pool.connection(timeout=5) as conn:
            await conn.execute("SELECT 1")
    finally:
        stop.set()
        await asyncio.gather(*others)
    assert served


async def test_two_tabs_racing_make_one_move(moves):
    game, white, _ = await new_game(moves)
    results = await asyncio.gather(
        *(acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) for _ in range(2)),
        return_exceptions=True,
    )
    [refused] = [r for r in results if isinstance(r, GameError)]
    assert [r for r in results if r is not refused] == [2]
    assert refused.code == "stale_version"
    assert await stored(game) == (2, [1, 2])
    # The row lock decided it on the loop (not the unique constraint and a retry).
    assert moves == {"usual": 0, "published": [2]}


async def test_a_version_conflict_is_stale_and_changes_nothing(moves):
    # Someone else's event row for version 2 already exists: the committing
    # statement fails on the (game, version) constraint; the usual path then
    # answers with stale_version, and nothing is kept.
    game, white, _ = await new_game(moves)
    await sync_to_async(Event.objects.create)(
        game=game, version=2, seat=None, kind=Event.Kind.ACT, events=[]
    )
    with pytest.raises(GameError) as refused:
        await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert refused.value.code == "stale_version"
    assert moves == {"usual": 1, "published": []}
    assert await stored(game) == (1, [1, 2])


async def test_a_correspondence_turn_is_notified_after_the_commit(moves, monkeypatch):
    pushed = []
    monkeypatch.setattr(publish, "publish_to_user", lambda user_id, payload: pushed.append(user_id))
    game, white, black = await new_game(moves, clock={"kind": "correspondence", "days": 3})
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert moves == {"usual": 0, "published": [2]}
    turns = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN, game=game)
    assert await sync_to_async(list)(turns.values_list("user_id", flat=True)) == [black.pk]
    assert pushed == [black.pk]
    # A player whose game page is open is not told what it already shows.
    await presence.join(game.pk, "page", presence.person_key(white, None, "page"), 0)
    try:
        assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    finally:
        await presence.leave(game.pk, "page")
    assert await sync_to_async(turns.count)() == 1
    assert pushed == [black.pk]


async def test_a_realtime_turn_on_the_loop_is_told_only_to_a_closed_page(moves, monkeypatch):
    """The opponent's page open in this process: no thread, no query, nobody
    told. Closed: the turn notice comes, in the background."""
    told = []
    run_effect = acts._run_effect

    async def counted(effect, change):
        told.append(change.event.version)
        await run_effect(effect, change)

    monkeypatch.setattr(acts, "_run_effect", counted)
    game, white, black = await new_game(moves)
    turns = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN, game=game)
    await presence.join(game.pk, "page", presence.person_key(black, None, "page"), 1)
    try:
        assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    finally:
        await presence.leave(game.pk, "page")
    assert told == [] and await sync_to_async(turns.count)() == 0
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert told == [3]
    await asyncio.gather(*sending._background)
    assert await sync_to_async(list)(turns.values_list("user_id", flat=True)) == [white.pk]


async def test_a_turn_on_the_loop_queues_its_mail_in_the_recipients_language(moves, monkeypatch):
    pushed = []
    monkeypatch.setattr(publish, "publish_to_user", lambda user_id, p: pushed.append(p))
    game, white, black = await new_game(moves, clock={"kind": "correspondence", "days": 3})
    black.email, black.email_notifications, black.language = "b@example.org", True, "de"
    await sync_to_async(black.save)()
    with translation.override("en"):
        assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert mail.outbox == []  # sent later, from the outbox
    queued = OutgoingMail.objects.filter(notification__user=black)
    assert await sync_to_async(queued.count)() == 1
    assert pushed[0]["notification"]["text"].startswith("Du bist am Zug")


async def test_a_move_that_ends_the_game_takes_the_usual_path(moves, monkeypatch):
    game, white, _ = await new_game(moves)
    tables = []
    monkeypatch.setattr(publish, "publish_table", lambda g: tables.append((g.pk, g.status)))
    halma = type(get_ruleset("halma"))
    ending = {"winners": [0], "draw": False, "reason": "", "reason_params": {}}
    # Pretend the first move wins (it is the first ply of the game).
    monkeypatch.setattr(halma, "outcome", lambda self, state: ending if state.plies else None)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert moves == {"usual": 1, "published": [2]}
    finished = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert finished.status == Game.Status.FINISHED
    assert [g for g, _ in tables] == [game.pk]  # the lobby hears that it ended
    assert (
        await sync_to_async(Notification.objects.filter(game=game, kind="game_over").count)() == 2
    )


async def test_a_connection_the_server_dropped_is_replaced(moves):
    game, white, black = await new_game(moves)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    _, dropped, _ = await pooled()

    def terminate(pid):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    await sync_to_async(terminate)(dropped)
    # The move is tried again on a fresh connection, still on the loop.
    assert await acts.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert moves == {"usual": 0, "published": [2, 3]}
    status, fresh, _ = await pooled()
    assert fresh != dropped and status == psycopg.pq.TransactionStatus.IDLE
    assert await stored(game) == (3, [1, 2, 3])


class RowHolder:
    """Another session that locks the game's row until released."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.locked = threading.Event()
        self.release = threading.Event()

    def hold(self) -> None:
        db = connection.settings_dict
        params = {"dbname": db["NAME"], "user": db["USER"], "host": db["HOST"], "port": db["PORT"]}
        with psycopg.connect(**params, password=db["PASSWORD"] or None) as other:
            other.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [self.game_id])
            self.locked.set()
            self.release.wait(30)

    async def __aenter__(self) -> RowHolder:
        self.task = asyncio.ensure_future(sync_to_async(self.hold, thread_sensitive=False)())
        await asyncio.to_thread(self.locked.wait, 30)
        return self

    async def __aexit__(self, *exc) -> None:
        self.release.set()
        await self.task


async def until(condition, what: str) -> None:
    """Wait for ``condition()`` (a coroutine function) to come true."""
    for _ in range(400):
        if await condition():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"{what} never happened")


async def lock_waiters() -> int:
    def count():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            )
            return cursor.fetchone()[0]

    return await sync_to_async(count)()


async def test_a_move_whose_socket_closes_is_still_made_and_published(moves):
    game, white, _ = await new_game(moves)
    async with RowHolder(game.pk):
        move = asyncio.ensure_future(
            acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
        )
        await until(lambda: _positive(lock_waiters()), "the move waiting for the row")
        move.cancel()  # as Daphne does with the handler of a socket that went away
        with pytest.raises(asyncio.CancelledError):
            await move
    await until(lambda: _true(moves["published"] == [2]), "the move's publish")
    assert moves["usual"] == 0
    assert await stored(game) == (2, [1, 2])


async def _positive(count) -> bool:
    return await count > 0


async def _true(value: bool) -> bool:
    return value


async def test_a_row_locked_for_long_is_waited_for_in_a_thread(moves):
    game, white, _ = await new_game(moves)
    async with RowHolder(game.pk):
        move = asyncio.ensure_future(
            acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
        )
        # Past the loop's lock timeout the usual path takes over and waits.
        await until(lambda: _true(moves["usual"] == 1), "the hand-over to the usual path")
    assert await move == 2
    assert moves == {"usual": 1, "published": [2]}
    assert await stored(game) == (2, [1, 2])


async def test_a_failing_publish_does_not_undo_or_refuse_the_move(moves, monkeypatch):
    def broken(*args):
        raise RuntimeError("the layer is gone")

    game, white, black = await new_game(moves)
    monkeypatch.setattr(publish, "publish_game_event", broken)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    # And through the usual path (thread pool, on_commit):
    version = await sync_to_async(play.game_act)(
        game_id=game.pk, user=black, version=2, action=BLACK_MOVE
    )
    assert version == 3
    assert await stored(game) == (3, [1, 2, 3])


async def test_a_move_on_the_loop_charges_the_clock_once_after_a_draw_offer(moves):
    from tests.games.test_lifecycle import Clock

    clock = Clock()
    with clock.patch:
        game, white, _ = await new_game(moves)
        clock.advance(10)
        await sync_to_async(endings.game_offer_draw)(game_id=game.pk, user=white)
        clock.advance(5)
        assert await acts.act(game_id=game.pk, user=white, version=2, action=FIRST_MOVE) == 3
    assert moves["usual"] == 0
    moved = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert moved.clocks == [585.0, 600.0]  # 10 s before the offer, 5 s after: 15 s in all
    assert moved.deadline == clock.now + timedelta(seconds=600)


async def test_frames_published_from_the_loop_say_who_may_request_remis(monkeypatch):
    sent = []

    async def capture(pending):
        sent.extend(pending)

    monkeypatch.setattr(sending, "_flush", capture)
    monkeypatch.setattr(play, "game_act", None)  # the move must stay on the loop
    white = await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[white, await sync_to_async(make_user)()])
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    # Halma has no secrets: every seat's frame travels in one message.
    [(_group, message)] = [(g, m) for g, m in sent if m["type"] == "game.frames"]
    states = {seat: json.loads(frame)["state"] for seat, frame in message["frames"].items()}
    assert {seat: s["remis_allowed"] for seat, s in states.items()} == {
        "0": [],
        "1": ["repetition"],  # Black to move; no deadlock claim before move 50
        "s": [],
    }


def probe_effect(monkeypatch, *, with_the_commit: bool) -> list[tuple[int, bool]]:
    """A side effect added to the funnel (services/internal/events.py): records each
    event it sees and whether a Django transaction held it."""
    seen: list[tuple[int, bool]] = []

    def record(change: events.Change) -> None:
        seen.append((change.event.version, connection.in_atomic_block))

    probe = events.SideEffect(record, lambda change: True, with_the_commit=with_the_commit)
    monkeypatch.setattr(events, "SIDE_EFFECTS", [*events.SIDE_EFFECTS, probe])
    return seen


async def test_a_side_effect_added_to_the_funnel_runs_on_both_paths(moves, monkeypatch):
    game, white, black = await new_game(moves)
    seen = probe_effect(monkeypatch, with_the_commit=False)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    # The loop's move: after its commit, in a transaction of its own.
    assert (moves, seen) == ({"usual": 0, "published": [2]}, [(2, True)])
    version = await sync_to_async(play.game_act)(
        game_id=game.pk, user=black, version=2, action=BLACK_MOVE
    )
    # The usual path: in the move's transaction.
    assert (version, seen) == (3, [(2, True), (3, True)])
    assert moves["published"] == [2, 3]


async def test_a_side_effect_that_must_commit_with_the_move_leaves_it_to_the_usual_path(
    moves, monkeypatch
):
    game, white, _ = await new_game(moves)
    seen = probe_effect(monkeypatch, with_the_commit=True)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert (moves, seen) == ({"usual": 1, "published": [2]}, [(2, True)])
    assert await stored(game) == (2, [1, 2])


# -- a move answered by a conditional line (services/internal/replies.py)

CORRESPONDENCE = {"kind": "correspondence", "days": 3}


async def waiting_with_lines(moves, length: int):
    """A correspondence game where White moved and holds one line of
    ``length`` actions from Black's position."""
    game, white, black = await new_game(moves, clock=CORRESPONDENCE)
    assert await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    line = await sync_to_async(line_from)(game, length)
    await sync_to_async(conditional_save)(game_id=game.pk, user=white, lines=[line])
    moves["published"].clear()
    return game, white, black, line


async def plans_of(game) -> tuple[list[int], list[list]]:
    def read():
        flags = Game.objects.get(pk=game.pk).plan_seats
        return flags, list(
            ConditionalPlan.objects.filter(game=game).values_list("lines", flat=True)
        )

    return await sync_to_async(read)()


async def acts_of(game, since: int) -> list[tuple[int, int | None, dict | None]]:
    found = Event.objects.filter(game=game, version__gt=since).order_by("version")
    return await sync_to_async(list)(found.values_list("version", "seat", "action"))


async def test_a_move_answered_by_a_conditional_line_is_made_on_the_loop(moves):
    """The move, the owner's row and the reply commit on the loop together:
    nothing is rolled back and redone in a thread."""
    game, white, black, line = await waiting_with_lines(moves, 2)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=line[0]) == 3
    assert moves == {"usual": 0, "published": [3, 4]}
    assert await acts_of(game, 2) == [(3, 1, line[0]), (4, 0, line[1])]
    assert await plans_of(game) == ([], [])  # the line is used up: row and flag gone
    assert (await pooled())[0] == psycopg.pq.TransactionStatus.IDLE
    # The turn the move began is answered: White hears of nothing, Black of the reply.
    turns = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN, game=game)
    told = await sync_to_async(list)(turns.values_list("user_id", flat=True))
    assert white.pk not in told and black.pk in told
    moved = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert (moved.version, moved.to_act) == (4, [1])


async def test_a_longer_line_is_advanced_on_the_loop_and_plays_on(moves):
    game, _white, black, line = await waiting_with_lines(moves, 4)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=line[0]) == 3
    assert await plans_of(game) == ([0], [[line[2:]]])
    assert await acts.act(game_id=game.pk, user=black, version=4, action=line[2]) == 5
    assert await acts_of(game, 2) == [
        (3, 1, line[0]),
        (4, 0, line[1]),
        (5, 1, line[2]),
        (6, 0, line[3]),
    ]
    assert await plans_of(game) == ([], [])
    assert moves == {"usual": 0, "published": [3, 4, 5, 6]}


async def test_a_move_no_line_answers_drops_them_on_the_loop(moves):
    game, _white, black, line = await waiting_with_lines(moves, 2)
    other = await sync_to_async(line_from)(game, 1, pick=3)
    assert other[0] != line[0]
    assert await acts.act(game_id=game.pk, user=black, version=2, action=other[0]) == 3
    assert moves == {"usual": 0, "published": [3]}
    assert await plans_of(game) == ([], [])
    moved = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert (moved.version, moved.to_act) == (3, [0])


async def test_a_suspended_owners_line_plays_nothing_on_the_loop(moves):
    game, white, black, line = await waiting_with_lines(moves, 2)
    until = timezone.now() + timedelta(days=1)
    await Standing.objects.acreate(user=white, suspended_until=until)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=line[0]) == 3
    assert moves == {"usual": 0, "published": [3]}
    assert await plans_of(game) == ([], [])
    moved = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert (moved.version, moved.to_act) == (3, [0])  # White's own turn


async def test_a_reply_that_ends_the_game_takes_the_usual_path(moves, monkeypatch):
    """Only a game's end goes to the thread, as for any move that ends one."""
    game, _white, black, line = await waiting_with_lines(moves, 2)
    halma = type(get_ruleset("halma"))
    ending = {"winners": [0], "draw": False, "reason": "", "reason_params": {}}
    monkeypatch.setattr(halma, "outcome", lambda self, state: ending if state.plies >= 3 else None)
    assert await acts.act(game_id=game.pk, user=black, version=2, action=line[0]) == 3
    assert moves["usual"] == 1
    finished = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert (finished.version, finished.status) == (4, Game.Status.FINISHED)
    assert await plans_of(game) == ([], [])


async def test_each_event_answered_on_the_loop_publishes_its_own_position(monkeypatch):
    sent = []

    async def capture(pending):
        sent.extend(pending)

    monkeypatch.setattr(sending, "_flush", capture)
    record = {"usual": 0, "published": []}
    game, _white, black, line = await waiting_with_lines(record, 2)
    sent.clear()
    monkeypatch.setattr(play, "game_act", None)  # the move must stay on the loop
    assert await acts.act(game_id=game.pk, user=black, version=2, action=line[0]) == 3
    frames = {
        m["version"]: json.loads(m["frames"]["0"]) for _g, m in sent if m["type"] == "game.frames"
    }
    assert sorted(frames) == [3, 4]
    assert frames[3]["event"]["seat"] == 1 and frames[3]["state"]["to_act"] == [0]
    assert frames[4]["event"]["seat"] == 0 and frames[4]["state"]["to_act"] == [1]


async def test_a_move_a_line_answers_over_the_socket_stays_on_the_loop(monkeypatch):
    """Through the game socket: Black's ack, and White's page gets Black's
    move and then its own reply, with nothing redone in a thread."""
    from tests.games.test_consumers import connect, receive

    usual = []
    game_act = play.game_act
    monkeypatch.setattr(play, "game_act", lambda **kw: usual.append(1) or game_act(**kw))
    game, white, black, line = await waiting_with_lines({"published": []}, 2)
    watching = await connect(f"/ws/game/{game.pk}/", white)
    moving = await connect(f"/ws/game/{game.pk}/", black)
    for comm in (watching, moving):
        await receive(comm, "hello")
    await moving.send_json_to({"type": "act", "version": 2, "action": line[0], "ref": 7})
    assert (await receive(moving, "ack"))["version"] == 3
    seen = [await receive(watching, "event"), await receive(watching, "event")]
    assert [(f["version"], f["event"]["seat"]) for f in seen] == [(3, 1), (4, 0)]
    assert usual == []
    for comm in (watching, moving):
        await comm.disconnect()


def test_the_loop_writer_makes_only_the_reply_effects_itself():
    """``on_the_loop`` effects are written by moves_on_loop's own code
    (``_with_replies``): a new one needs its statements there too."""
    own = [effect.run for effect in events.SIDE_EFFECTS if effect.on_the_loop]
    assert own == [events._plan_reply, events._store_reply]


# Moves asked for in one turn of the event loop are written together
# (moves_on_loop ``_Batches``): one transaction, one round trip for the locks
# and one for the writes, whatever the number of games; each move still gets
# its own answer.

ILLEGAL = {"type": "move", "path": [[5, 9], [0, 0]]}


@pytest.fixture
def locks(monkeypatch):
    """The games each lock round trip asked for."""
    asked: list[list[int]] = []
    lock = moves_on_loop.rows.alock_games

    async def counted(conn, wanted):
        asked.append([game_id for game_id, _ in wanted])
        return await lock(conn, wanted)

    monkeypatch.setattr(moves_on_loop.rows, "alock_games", counted)
    return asked


async def games(moves, count):
    return [await new_game(moves) for _ in range(count)]


async def test_moves_of_many_games_in_one_turn_share_one_transaction(moves, locks):
    played = await games(moves, 5)
    versions = await asyncio.gather(
        *(
            acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
            for game, white, _ in played
        )
    )
    assert versions == [2] * 5
    assert locks == [sorted(game.pk for game, _, _ in played)]  # one lock trip, in id order
    assert moves["usual"] == 0 and sorted(moves["published"]) == [2] * 5
    for game, _, _ in played:
        assert await stored(game) == (2, [1, 2])
    assert (await pooled())[2]["pool_size"] == 1  # one connection served them all


async def test_a_refused_move_in_a_batch_changes_nothing_and_the_others_play(moves, locks):
    (g1, w1, b1), (g2, w2, _), (g3, w3, _) = await games(moves, 3)
    results = await asyncio.gather(
        acts.act(game_id=g1.pk, user=b1, version=1, action=BLACK_MOVE),  # not black's turn
        acts.act(game_id=g2.pk, user=w2, version=1, action=ILLEGAL),
        acts.act(game_id=g3.pk, user=w3, version=1, action=FIRST_MOVE),
        acts.act(game_id=999_999_999, user=w3, version=1, action=FIRST_MOVE),
        return_exceptions=True,
    )
    codes = [r.code if isinstance(r, GameError) else r for r in results]
    assert codes == ["not_your_turn", "illegal", 2, "not_found"]
    assert len(locks) == 1 and len(locks[0]) == 4
    assert [await stored(g) for g in (g1, g2, g3)] == [(1, [1]), (1, [1]), (2, [1, 2])]
    assert moves == {"usual": 0, "published": [2]}
    # The refused games' rows are free again: their next moves play.
    assert await acts.act(game_id=g1.pk, user=w1, version=1, action=FIRST_MOVE) == 2
    assert await acts.act(game_id=g2.pk, user=w2, version=1, action=FIRST_MOVE) == 2


async def test_a_games_second_move_in_the_same_turn_waits_for_the_next_batch(moves, locks):
    (g1, w1, b1), (g2, w2, _) = await games(moves, 2)
    first = asyncio.ensure_future(acts.act(game_id=g1.pk, user=w1, version=1, action=FIRST_MOVE))
    other = asyncio.ensure_future(acts.act(game_id=g2.pk, user=w2, version=1, action=FIRST_MOVE))
    reply = asyncio.ensure_future(acts.act(game_id=g1.pk, user=b1, version=2, action=BLACK_MOVE))
    assert await asyncio.gather(first, other, reply) == [2, 2, 3]
    # The next batch made it from the row the first committed: no lock read.
    assert locks == [sorted([g1.pk, g2.pk])]
    assert await stored(g1) == (3, [1, 2, 3])


async def test_a_move_left_to_the_usual_path_finds_its_row_free(moves, locks, monkeypatch):
    """A move the loop may not write (a game's end, say) is made by the usual
    path once the batch that locked its row has committed the others."""
    (g1, w1, _), (g2, w2, _) = await games(moves, 2)
    may_write = events.loop_may_write
    monkeypatch.setattr(
        events,
        "loop_may_write",
        lambda change, effects: change.game.pk != g1.pk and may_write(change, effects),
    )
    results = await asyncio.gather(
        acts.act(game_id=g1.pk, user=w1, version=1, action=FIRST_MOVE),
        acts.act(game_id=g2.pk, user=w2, version=1, action=FIRST_MOVE),
    )
    assert results == [2, 2]
    assert len(locks) == 1 and moves["usual"] == 1
    assert await stored(g1) == (2, [1, 2]) and await stored(g2) == (2, [1, 2])


async def test_a_version_conflict_in_a_batch_leaves_every_move_to_the_usual_path(moves, locks):
    (g1, w1, _), (g2, w2, _) = await games(moves, 2)
    # Someone else's event row for g1's version 2 already exists: the batch's
    # commit fails on the (game, version) constraint, so nothing of it is kept.
    await sync_to_async(Event.objects.create)(
        game=g1, version=2, seat=None, kind=Event.Kind.ACT, events=[]
    )
    results = await asyncio.gather(
        acts.act(game_id=g1.pk, user=w1, version=1, action=FIRST_MOVE),
        acts.act(game_id=g2.pk, user=w2, version=1, action=FIRST_MOVE),
        return_exceptions=True,
    )
    assert isinstance(results[0], GameError) and results[0].code == "stale_version"
    assert results[1] == 2  # made again by the usual path
    assert len(locks) == 1 and moves["usual"] == 2
    assert await stored(g1) == (1, [1, 2]) and await stored(g2) == (2, [1, 2])


async def test_moves_that_come_while_batches_are_written_go_together(moves, locks):
    """Both batches a process may write at once wait for rows another session
    holds; the moves that come meanwhile wait too, and then go as one batch."""
    played = await games(moves, 5)
    (g0, _, _), (g1, _, _) = played[:2]
    made = []
    async with RowHolder(g0.pk), RowHolder(g1.pk):
        for game, white, _ in played:
            made.append(
                asyncio.ensure_future(
                    acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
                )
            )
            if len(made) <= 2:  # each of the first two starts its own batch
                await until(partial(_asked, locks, len(made)), "the batch's lock")
        # Past the lock timeout the first two go to the usual path (which waits
        # for the holders); the three that waited go together meanwhile.
        await until(partial(_asked, locks, 3), "the waiting moves' batch")
        assert locks == [[g0.pk], [g1.pk], sorted(game.pk for game, _, _ in played[2:])]
    assert await asyncio.gather(*made) == [2] * 5
    # The first went to the usual path; the second too, unless its row came
    # free before its own lock timeout; the three others were made on the loop.
    assert moves["usual"] in (1, 2)


async def _asked(locks: list, count: int) -> bool:
    return len(locks) == count
