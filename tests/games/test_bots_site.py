"""Bots on the site: accounts, tables with bots, the worker's turns, races.

The worker functions are called directly (the in-process worker only adds
threads and a pause). The race tests run here on SQLite and, in bin/test, on
PostgreSQL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.utils import timezone

from accounts.services.internal import bot_accounts
from games.errors import GameError
from games.models import Event, Game, Seat
from games.services import bots
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import FIRST_MOVE, make_user
from tests.together import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def versions(game: Game) -> list[int]:
    return list(Event.objects.filter(game=game).values_list("version", flat=True))


def vs_bot(level: str = "easy", host_seat: int | str = 0, **more) -> tuple[Game, object]:
    human = make_user()
    game = lobby.table_create(
        host=human, ruleset="halma", host_seat=host_seat, bot={"level": level}, **more
    )
    game.refresh_from_db()
    return game, human


def test_bot_accounts_are_created_once_and_cannot_log_in():
    first = bot_accounts.bot_user("halma", "strong")
    again = bot_accounts.bot_user("halma", "strong")
    assert first.pk == again.pk and first.username == "bot-halma-strong"
    assert first.is_bot and not first.has_usable_password()
    created = at_once([lambda: bot_accounts.bot_user("malefiz", "easy").pk for _ in range(3)])
    assert len(set(created)) == 1, created
    assert get_user_model().objects.filter(username="bot-malefiz-easy").count() == 1


def test_play_the_computer_starts_at_once_and_the_bot_answers_a_move():
    game, human = vs_bot()
    assert game.status == Game.Status.ACTIVE and game.bots == {"1": "easy"} and game.has_bots
    bot = Seat.objects.get(game=game, index=1).user
    assert bot.is_bot
    assert bots.bot_turns_due() == []  # the human (seat 0) is to move
    assert game_act(game_id=game.pk, user=human, version=1, action=FIRST_MOVE) == 2
    assert bots.play_due_bots() == 1
    last = Event.objects.get(game=game, version=3)
    assert last.seat == 1 and last.kind == Event.Kind.ACT
    game.refresh_from_db()
    assert game.to_act == [0] and bots.bot_turns_due() == []


def test_a_bot_turn_is_reproducible():
    vs_bot(host_seat=1)  # the bot (seat 0) moves first
    (turn,) = bots.bot_turns_due()
    encoded = bots.bot_turn_claim(turn)
    assert bots._think(turn, encoded) == bots._think(turn, encoded)


def test_two_workers_at_once_move_once():
    game, _ = vs_bot(host_seat=1)
    results = at_once([bots.play_due_bots for _ in range(4)], timeout=30)
    assert sorted(results) == [0, 0, 0, 1], results
    assert versions(game) == [1, 2]


def test_a_second_move_on_the_claimed_version_is_stale():
    game, _ = vs_bot(host_seat=1)
    (turn,) = bots.bot_turns_due()
    action = bots._think(turn, bots.bot_turn_claim(turn))
    results = at_once(
        [lambda: bots.bot_turn_move(turn, action=action) for _ in range(2)], timeout=30
    )
    assert sorted(results, key=str) == [2, None], results
    assert versions(game) == [1, 2]


def test_a_fresh_worker_picks_up_a_turn_a_dead_process_claimed():
    game, _ = vs_bot(host_seat=1)
    (turn,) = bots.bot_turns_due()
    assert bots.bot_turn_claim(turn) is not None  # this "process" dies before moving
    assert bots.bot_turns_due() == [] and bots.play_due_bots() == 0  # the claim holds a while
    Game.objects.filter(pk=game.pk).update(bot_claim_at=timezone.now() - timedelta(minutes=5))
    assert bots.play_due_bots() == 1
    assert versions(game) == [1, 2]


def test_a_bot_with_no_action_resigns_rather_than_stall(monkeypatch):
    game, _ = vs_bot(host_seat=1)

    def broken(*args, **kwargs):
        raise LookupError("nothing to do")

    monkeypatch.setattr(bots, "_think", broken)
    assert bots.play_due_bots() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]


def test_a_bot_tries_again_after_a_clash_in_the_database(monkeypatch):
    """A "conflict" (a constraint other than the version's) is no reason to resign."""
    game, _ = vs_bot(host_seat=1)
    real = bots.store_event

    def clash(*args, **kwargs):
        raise IntegrityError("another constraint")

    monkeypatch.setattr(bots, "store_event", clash)
    assert bots.play_due_bots() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and versions(game) == [1]
    monkeypatch.setattr(bots, "store_event", real)
    assert bots.play_due_bots() == 1  # released: the next poll plays the turn
    assert versions(game) == [1, 2]


def test_the_host_invites_a_bot_to_an_open_seat():
    host, other = make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="malefiz", seat_count=3, auto_start=True)
    with pytest.raises(GameError) as refused:
        lobby.table_invite_bot(game_id=game.pk, user=other, level="easy")
    assert refused.value.code == "forbidden"
    lobby.table_invite_bot(game_id=game.pk, user=host, level="easy", seat=2)
    with pytest.raises(GameError) as twice:
        lobby.table_invite_bot(game_id=game.pk, user=host, level="easy")
    assert twice.value.code == "bot_seated"
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.bots == {"2": "easy"}
    lobby.table_invite_bot(game_id=game.pk, user=host, level="medium")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.bots == {"2": "easy", "1": "medium"}
    with pytest.raises(GameError) as started:
        lobby.table_invite_bot(game_id=game.pk, user=host, level="strong")
    assert started.value.code == "not_open"


def test_staff_bot_match_plays_itself_to_the_end_of_a_few_turns():
    staff = make_user(staff=True)
    game = lobby.table_create(
        host=staff, ruleset="malefiz", bot={"levels": ["easy", "medium", "strong"]}
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seat_count == 3
    for _ in range(6):
        assert bots.play_due_bots() == 1
    assert versions(game) == list(range(1, 8))
    with pytest.raises(GameError) as refused:
        lobby.table_create(host=make_user(), ruleset="halma", bot={"levels": ["easy", "strong"]})
    assert refused.value.code == "forbidden"


async def test_the_worker_answers_on_the_player_s_socket_after_its_pause(settings):
    """The in-process worker's own path: claim, think in its pool, pause on the
    loop, move and publish; the player's socket gets the bot's move."""
    import asyncio

    from games.realtime.bot_worker import BotWorker
    from tests.db_threads import sync_to_async

    from .test_consumers import connect, receive

    settings.BOT_DELAY_MIN = settings.BOT_DELAY_MAX = 0.3
    game, human = await sync_to_async(vs_bot)()
    sock = await connect(f"/ws/game/{game.pk}/", human)
    await receive(sock, "hello")
    await sock.send_json_to({"type": "act", "game": game.pk, "version": 1, "action": FIRST_MOVE})
    await receive(sock, "ack")
    (turn,) = await sync_to_async(bots.bot_turns_due)()
    loop = asyncio.get_running_loop()
    began = loop.time()
    await BotWorker().take(turn)
    assert loop.time() - began >= 0.3
    assert (await receive(sock, "event"))["version"] == 2  # the player's own move
    frame = await receive(sock, "event")
    assert frame["version"] == 3 and frame["event"]["seat"] == 1
    assert frame["state"]["to_act"] == [0]
    await sock.disconnect()
