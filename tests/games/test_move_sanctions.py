"""A sanctioned player's move is refused by the decision itself
(``deciding.decide_act`` through ``moderation.standing.refuse_sanctioned_move``),
on both move paths; the game socket only forwards (it caches no flag).

Runs on SQLite and on PostgreSQL (bin/test's PG_TESTS), where the socket's
moves take the event-loop path; the loop's own test needs PostgreSQL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import publish
from games.errors import GameError
from games.models import Game
from games.services import moves_on_loop, play
from games.services.internal import deciding
from games.store import loop_pool
from moderation.models import PlayBan, Standing
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user, started_game
from tests.games.test_consumers import connect, next_error, receive

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = pytest.mark.django_db(transaction=True)


def table(**standing):
    """A started game; white's standing as given (no row when empty)."""
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    if standing:
        Standing.objects.create(user=white, **standing)
    return game, white


def suspended(days: float = 1) -> dict:
    return {"suspended_until": timezone.now() + timedelta(days=days)}


def test_the_thread_path_refuses_a_suspended_move():
    game, white = table(**suspended())
    with pytest.raises(GameError) as err:
        play.game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert err.value.code == "suspended" and err.value.status == 403
    assert Game.objects.get(pk=game.pk).version == 1


def test_the_thread_path_refuses_a_closed_accounts_move():
    game, white = table(closed=True)
    with pytest.raises(GameError) as err:
        play.game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert err.value.code == "closed"
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_lapsed_suspension_or_a_play_ban_refuses_no_move():
    """A play-ban stops new realtime games, never a move in a running one."""
    game, white = table(**suspended(days=-1))
    PlayBan.objects.create(
        user=white, minutes=60, reason="leave", until=timezone.now() + timedelta(hours=1)
    )
    assert play.game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2


@pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL")
async def test_the_loop_path_refuses_a_suspended_move():
    game, white = await sync_to_async(table)(**suspended())
    await (await loop_pool.pool_for_this_loop()).wait()
    with pytest.raises(GameError) as err:
        await moves_on_loop.loop_move_write(
            game_id=game.pk, user=white, version=1, action=FIRST_MOVE, admitted=None
        )
    assert err.value.code == "suspended"
    await game.arefresh_from_db()
    assert game.version == 1


async def test_a_socket_with_a_stale_flag_still_gets_suspended(monkeypatch):
    """The suspension is stored without the group message (as if the channel
    layer lost it): the socket's cached flag still says "free to play"."""
    usual = []
    game_act = play.game_act
    monkeypatch.setattr(play, "game_act", lambda **kw: usual.append(1) or game_act(**kw))
    game, white = await sync_to_async(table)()
    comm = await connect(f"/ws/game/{game.pk}/", white)
    await receive(comm, "hello")
    await Standing.objects.acreate(user=white, **suspended())
    await comm.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE})
    refused = await next_error(comm)
    assert refused["code"] == "suspended"
    await game.arefresh_from_db()
    assert game.version == 1
    # On PostgreSQL the loop's own decision refused it (no fallback to the thread path).
    assert usual == ([] if ON_POSTGRES else [1])
    await comm.disconnect()


async def test_a_lifted_suspension_plays_at_once():
    """The socket opened while its player was suspended; a moderator lifts
    it (nothing is pushed for a lift): the page's next move plays, since no
    flag cached at connect time refuses it, only the decision could."""
    game, white = await sync_to_async(table)(**suspended())
    comm = await connect(f"/ws/game/{game.pk}/", white)
    await receive(comm, "hello")
    await Standing.objects.filter(user=white).aupdate(suspended_until=None)
    await comm.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE, "ref": 1})
    assert (await receive(comm, "ack"))["version"] == 2
    await comm.disconnect()


async def test_a_pushed_suspension_is_refused_by_the_decision(monkeypatch):
    """The suspension reaches the open page (``game.sanction``), and the move
    sent after it is still refused by the decision, after the row's lock,
    on the loop on PostgreSQL: the socket only forwards."""
    decided, usual = [], []
    refuse = deciding.refuse_sanctioned_move
    monkeypatch.setattr(
        deciding,
        "refuse_sanctioned_move",
        lambda standing, now: decided.append(standing) or refuse(standing, now),
    )
    game_act = play.game_act
    monkeypatch.setattr(play, "game_act", lambda **kw: usual.append(1) or game_act(**kw))
    game, white = await sync_to_async(table)()
    comm = await connect(f"/ws/game/{game.pk}/", white)
    await receive(comm, "hello")
    await Standing.objects.acreate(user=white, **suspended())
    await sync_to_async(publish.publish_sanction)(white.pk, "suspended")
    assert (await next_error(comm))["code"] == "suspended"  # the page is told
    await comm.send_json_to({"type": "act", "version": 1, "action": FIRST_MOVE})
    assert (await next_error(comm))["code"] == "suspended"
    assert [s.suspended_until is not None for s in decided] == [True]
    assert usual == ([] if ON_POSTGRES else [1])
    await game.arefresh_from_db()
    assert game.version == 1
    await comm.disconnect()
