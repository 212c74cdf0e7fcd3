"""The move's hot path (games/store/rows.py) on documented APIs, watched for
what an upgrade of Django or psycopg could break without a failing test
elsewhere: how many statements a move takes, that the rows come back as the
ORM reads them, that the saved Event is a saved instance.

Runs on SQLite and on PostgreSQL (the loop's part on PostgreSQL only).
"""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Event, Game
from games.services import play
from games.services.internal import deciding
from games.store import loop_pool, rows
from tests.factories import FIRST_MOVE, make_user, started_game

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
TRANSACTION_CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b", re.I)


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def hot_statements(captured: CaptureQueriesContext) -> list[str]:
    """The statements a block sent to the game and event tables (not the
    transaction's own BEGIN/COMMIT, not the notifications a move may add)."""
    tables = (f'"{Game._meta.db_table}"', f'"{Event._meta.db_table}"')
    return [
        q["sql"]
        for q in captured.captured_queries
        if not TRANSACTION_CONTROL.match(q["sql"]) and any(t in q["sql"] for t in tables)
    ]


@pytest.mark.django_db(transaction=True)
def test_a_move_takes_the_lock_and_one_write_per_table_at_most():
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    with CaptureQueriesContext(connection) as captured:
        assert play.game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    sent = hot_statements(captured)
    # The lock (with the seats), then the event insert and the game update:
    # one statement on PostgreSQL (a data-modifying CTE), two on SQLite.
    assert len(sent) == (2 if ON_POSTGRES else 3), sent
    assert "FOR UPDATE" in sent[0] if ON_POSTGRES else sent[0].startswith("SELECT")
    assert sent[1].startswith("WITH e AS (INSERT" if ON_POSTGRES else "INSERT")


@pytest.mark.django_db(transaction=True)
def test_the_locked_row_is_the_game_the_orm_reads():
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    with transaction.atomic():
        locked = rows.lock_game(game.pk, black.pk)
    assert fields_of(locked.game) == fields_of(Game.objects.get(pk=game.pk))
    assert locked.seat == 1
    assert locked.holders == {0: white.pk, 1: black.pk}
    with transaction.atomic():
        assert rows.lock_game(game.pk + 10_000, black.pk) is None
        assert rows.lock_game(game.pk, None).seat is None


@pytest.mark.django_db(transaction=True)
def test_the_saved_event_is_a_saved_instance():
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    with transaction.atomic():
        locked = rows.lock_game(game.pk, white.pk)
        change = deciding.decide_act(locked, white, 1, FIRST_MOVE, timezone.now())
        saved = rows.save_event(locked.game, change.event, ["version", "state", "to_act"])
    stored = Event.objects.get(game=game, version=2)
    assert saved.pk == stored.pk
    assert fields_of(saved) == fields_of(stored)
    assert saved._state.adding is False and saved._state.db == "default"
    assert saved.game is locked.game  # no query to reach its game
    assert Game.objects.get(pk=game.pk).version == 2


@pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL")
@pytest.mark.django_db(transaction=True)
async def test_the_loops_row_is_the_game_the_orm_reads():
    from tests.db_threads import sync_to_async

    def build():
        white, black = make_user(), make_user()
        game = started_game(players=[white, black])
        return game, white, black, fields_of(Game.objects.get(pk=game.pk))

    game, white, black, expected = await sync_to_async(build)()
    pool = await loop_pool.pool_for_this_loop()
    async with pool.connection() as conn:
        (locked,) = await rows.alock_games(conn, [(game.pk, black.pk)])
        await conn.rollback()
    assert fields_of(locked.game) == expected
    assert locked.seat == 1
    assert locked.holders == {0: white.pk, 1: black.pk}


@pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL")
@pytest.mark.django_db(transaction=True)
async def test_a_batch_lock_answers_each_pair_in_the_order_asked():
    """A batch's games locked in one round trip: each (game, user) pair gets
    its own row (its user's seat), in the order given, None for no such game;
    the rows stay locked until the transaction ends."""
    from tests.db_threads import sync_to_async

    def build():
        white, black = make_user(), make_user()
        first = started_game(players=[white, black])
        second = started_game(players=[black, white])
        return first, second, white, black

    first, second, white, black = await sync_to_async(build)()
    missing = second.pk + 1000
    pool = await loop_pool.pool_for_this_loop()
    async with pool.connection() as conn, pool.connection() as other:
        found = await rows.alock_games(
            conn, [(second.pk, white.pk), (missing, None), (first.pk, white.pk)]
        )
        assert [f and (f.game.pk, f.seat) for f in found] == [
            (second.pk, 1),
            None,
            (first.pk, 0),
        ]
        assert found[2].holders == {0: white.pk, 1: black.pk}
        with pytest.raises(psycopg.errors.LockNotAvailable):  # held by ``conn``
            await other.execute(
                f"SELECT 1 FROM {rows.GAME} WHERE id = %s FOR UPDATE NOWAIT", [first.pk]
            )
        await conn.rollback()


# Text a script's binding must keep as it is: quotes, placeholders, semicolons.
TRICKY = "it's 100%s; done\\ %(x)s $$ ''; COMMIT"


@pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL")
@pytest.mark.django_db(transaction=True)
async def test_a_batchs_writes_store_their_values_as_given():
    """Two moves' writes in one script (each statement bound to its values
    by itself, then joined): every value arrives as it was, even text that
    looks like SQL or like a placeholder, and each event gets its own id."""
    from tests.db_threads import sync_to_async

    def build():
        games = []
        for _ in range(2):
            white, black = make_user(), make_user()
            games.append((started_game(players=[white, black]), white))
        return games

    games = await sync_to_async(build)()
    pool = await loop_pool.pool_for_this_loop()
    statements = []
    async with pool.connection() as conn:
        found = await rows.alock_games(conn, [(game.pk, white.pk) for game, white in games])
        for (game, white), locked in zip(games, found, strict=True):
            change = deciding.decide_act(locked, white, game.version, FIRST_MOVE, timezone.now())
            change.event.events = [*change.event.events, {"note": TRICKY, "game": game.pk}]
            statements.append(rows.event_statement(change.game, change.event))
        ids = [pk for pk, _ in await rows.acommit(conn, statements)]

    def stored():
        return [
            (event.pk, event.version, event.events[-1])
            for event in Event.objects.filter(pk__in=ids).order_by("pk")
        ]

    assert await sync_to_async(stored)() == [
        (pk, 2, {"note": TRICKY, "game": game.pk}) for pk, (game, _) in zip(ids, games, strict=True)
    ]


PRIVATE = re.compile(r"atomic_blocks|needs_rollback|(?<![A-Za-z0-9])_state\.|\.autocommit\s*=")


def private_uses(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if PRIVATE.search(line):
                found.append(f"{path}:{number}: {line.strip()}")
    return found


def test_product_code_uses_no_private_transaction_or_model_state():
    """Django's undocumented connection and model state (and switching
    autocommit under its feet) stays out of games/: an upgrade could change
    them silently."""
    assert private_uses(Path(__file__).resolve().parents[2] / "games") == []


def test_the_guard_finds_what_it_looks_for(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "a = len(connection.atomic_blocks)\nb = connection.needs_rollback\n"
        "event._state.adding = False\nraw.autocommit = True\nnew_state.x = 1\n"
    )
    assert [line.split(": ", 1)[1] for line in private_uses(tmp_path)] == [
        "a = len(connection.atomic_blocks)",
        "b = connection.needs_rollback",
        "event._state.adding = False",
        "raw.autocommit = True",
    ]
