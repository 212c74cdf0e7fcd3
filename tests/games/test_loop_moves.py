"""Moves on the event loop (games/loop_moves.py): PostgreSQL only.

bin/test runs this file in its PostgreSQL run; on SQLite every move takes
the thread-pool path, which the rest of the suite covers.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import broadcast, loop_moves, services
from games.errors import GameError
from games.models import Event, Game, Notification, Presence
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL"),
]
REALTIME = {"kind": "realtime", "minutes": 10, "increment": 0}


@pytest.fixture
def moves(monkeypatch):
    """Records what the usual path made and what was published."""
    record = {"usual": 0, "published": []}
    usual = services.game_act

    def counted(**kwargs):
        record["usual"] += 1
        return usual(**kwargs)

    monkeypatch.setattr(services, "game_act", counted)
    monkeypatch.setattr(
        broadcast,
        "publish_game_event",
        lambda game, rs, state, event: record["published"].append(event.version),
    )
    return record


async def new_game(moves, clock=None):
    def build():
        white, black = make_user(), make_user()
        game = started_game(players=[white, black], clock=clock or REALTIME)
        return game, white, black

    built = await sync_to_async(build)()
    moves["published"].clear()  # the start
    return built


async def stored(game) -> tuple[int, list[int]]:
    def read():
        versions = Event.objects.filter(game=game).order_by("version")
        return Game.objects.get(pk=game.pk).version, list(
            versions.values_list("version", flat=True)
        )

    return await sync_to_async(read)()


def idle_connections() -> list[psycopg.AsyncConnection]:
    pool = loop_moves._pool()
    return pool.idle


async def test_a_plain_move_is_made_on_the_loop(moves):
    game, white, black = await new_game(moves)
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert await loop_moves.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert moves == {"usual": 0, "published": [2, 3]}
    assert await stored(game) == (3, [1, 2, 3])
    # One connection served both moves and is back, outside any transaction.
    [conn] = idle_connections()
    assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


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
        await loop_moves.act(game_id=game.pk, user=user, version=version, action=action)
    assert refused.value.code == code
    assert await stored(game) == (1, [1])
    assert moves == {"usual": 0, "published": []}
    assert all(
        c.info.transaction_status == psycopg.pq.TransactionStatus.IDLE for c in idle_connections()
    )
    # The row is not left locked: the usual path can take it.
    version = await sync_to_async(services.game_act)(
        game_id=game.pk, user=white, version=1, action=FIRST_MOVE
    )
    assert version == 2


@pytest.mark.parametrize(
    "game_id, code", [(999_999_999, "not_found"), (0, "not_found"), ("x", "bad_request")]
)
async def test_an_unknown_game_is_refused(moves, game_id, code):
    with pytest.raises(GameError) as refused:
        await loop_moves.act(game_id=game_id, user=None, version=1, action=FIRST_MOVE)
    assert refused.value.code == code


async def test_two_tabs_racing_make_one_move(moves):
    game, white, _ = await new_game(moves)
    results = await asyncio.gather(
        *(
            loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
            for _ in range(2)
        ),
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
        await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert refused.value.code == "stale_version"
    assert moves == {"usual": 1, "published": []}
    assert await stored(game) == (1, [1, 2])


async def test_a_correspondence_turn_is_notified_after_the_commit(moves, monkeypatch):
    pushed = []
    monkeypatch.setattr(
        broadcast, "publish_to_user", lambda user_id, payload: pushed.append(user_id)
    )
    game, white, black = await new_game(moves, clock={"kind": "correspondence", "days": 3})
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert moves == {"usual": 0, "published": [2]}
    turns = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN, game=game)
    assert await sync_to_async(list)(turns.values_list("user_id", flat=True)) == [black.pk]
    assert pushed == [black.pk]
    # A player whose game page is open is not told what it already shows.
    await sync_to_async(Presence.objects.create)(
        game=game, user=white, seat=0, channel_name="page", last_seen=timezone.now()
    )
    assert await loop_moves.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert await sync_to_async(turns.count)() == 1
    assert pushed == [black.pk]


async def test_a_move_that_ends_the_game_takes_the_usual_path(moves, monkeypatch):
    game, white, _ = await new_game(moves)
    tables = []
    monkeypatch.setattr(broadcast, "publish_table", lambda g: tables.append((g.pk, g.status)))
    halma = type(services.get_ruleset("halma"))
    ending = {"winners": [0], "draw": False, "reason": "", "reason_params": {}}
    # Pretend the first move wins (it is the first ply of the game).
    monkeypatch.setattr(halma, "outcome", lambda self, state: ending if state.plies else None)
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    assert moves == {"usual": 1, "published": [2]}
    finished = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert finished.status == Game.Status.FINISHED
    assert [g for g, _ in tables] == [game.pk]  # the lobby hears that it ended
    assert (
        await sync_to_async(Notification.objects.filter(game=game, kind="game_over").count)() == 2
    )


async def test_a_connection_the_server_dropped_is_replaced(moves):
    game, white, black = await new_game(moves)
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    [conn] = idle_connections()

    def terminate(pid):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    await sync_to_async(terminate)(conn.info.backend_pid)
    await asyncio.sleep(0.1)
    # The usual path makes the move the dropped connection could not start...
    assert await loop_moves.act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE) == 3
    assert moves["usual"] == 1
    assert idle_connections() == []
    # ...and the next move is back on the loop, on a new connection.
    step = {"type": "move", "path": [[6, 8], [5, 8]]}
    assert await loop_moves.act(game_id=game.pk, user=white, version=3, action=step) == 4
    assert moves == {"usual": 1, "published": [2, 3, 4]}
    [fresh] = idle_connections()
    assert fresh is not conn


def hold_row(game_id: int, seconds: float) -> None:
    """Lock the game's row from another session for ``seconds``."""
    db = connection.settings_dict
    params = {"dbname": db["NAME"], "user": db["USER"], "host": db["HOST"], "port": db["PORT"]}
    with psycopg.connect(**params, password=db["PASSWORD"] or None) as other:
        other.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game_id])
        time.sleep(seconds)


async def until_stored(game, version: int) -> None:
    for _ in range(100):
        if (await stored(game))[0] == version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"version {version} never stored")


async def test_a_move_whose_socket_closes_is_still_made_and_published(moves):
    game, white, _ = await new_game(moves)
    holder = asyncio.ensure_future(sync_to_async(hold_row, thread_sensitive=False)(game.pk, 0.3))
    await asyncio.sleep(0.1)
    move = asyncio.ensure_future(
        loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    )
    await asyncio.sleep(0.05)
    move.cancel()  # as Daphne does with the handler of a socket that went away
    with pytest.raises(asyncio.CancelledError):
        await move
    await holder
    await until_stored(game, 2)
    await asyncio.sleep(0.1)
    assert moves == {"usual": 0, "published": [2]}


async def test_a_row_locked_for_long_is_waited_for_in_a_thread(moves):
    game, white, _ = await new_game(moves)
    holder = asyncio.ensure_future(sync_to_async(hold_row, thread_sensitive=False)(game.pk, 1.0))
    await asyncio.sleep(0.1)
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    await holder
    assert moves == {"usual": 1, "published": [2]}
    assert await stored(game) == (2, [1, 2])


async def test_a_failing_publish_does_not_undo_or_refuse_the_move(moves, monkeypatch):
    def broken(*args):
        raise RuntimeError("the layer is gone")

    game, white, black = await new_game(moves)
    monkeypatch.setattr(broadcast, "publish_game_event", broken)
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    # And through the usual path (thread pool, on_commit):
    version = await sync_to_async(services.game_act)(
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
        await sync_to_async(services.game_offer_draw)(game_id=game.pk, user=white)
        clock.advance(5)
        assert await loop_moves.act(game_id=game.pk, user=white, version=2, action=FIRST_MOVE) == 3
    assert moves["usual"] == 0
    moved = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert moved.clocks == [585.0, 600.0]  # 10 s before the offer, 5 s after: 15 s in all
    assert moved.deadline == clock.now + timedelta(seconds=600)


async def test_frames_published_from_the_loop_say_who_may_request_remis(monkeypatch):
    sent = []

    async def capture(pending):
        sent.extend(pending)

    monkeypatch.setattr(broadcast, "_flush", capture)
    monkeypatch.setattr(services, "game_act", None)  # the move must stay on the loop
    white = await sync_to_async(make_user)()
    game = await sync_to_async(started_game)(players=[white, await sync_to_async(make_user)()])
    assert await loop_moves.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
    [(_group, message)] = [(g, m) for g, m in sent if m["type"] == "game.frames"]
    states = {seat: json.loads(frame)["state"] for seat, frame in message["frames"].items()}
    assert {seat: s["remis_allowed"] for seat, s in states.items()} == {
        "0": [],
        "1": ["repetition"],  # Black to move; no deadlock claim before move 50
        "s": [],
    }
