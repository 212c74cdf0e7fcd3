"""Rematch and blocking on the game socket: the rematch frames reach every page,
and a blocked player's chat lines never reach the blocker's socket."""

from __future__ import annotations

import pytest

from accounts.services.relations import user_block
from games.services.endings import game_resign
from tests.db_threads import sync_to_async
from tests.factories import every_seat_moves, make_user, started_game

from .test_consumers import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


async def test_rematch_frames_move_both_pages_and_refusals_are_errors():
    def build():
        white, black = make_user(), make_user()
        game = every_seat_moves(started_game(players=[white, black]))  # else an abort
        return game, white, black

    game, white, black = await sync_to_async(build)()
    path = f"/ws/game/{game.pk}/"
    w, b = await connect(path, white), await connect(path, black)
    await receive(w, "hello")
    await receive(b, "hello")
    await w.send_json_to({"type": "rematch", "ref": "r"})
    assert (await receive(w, "error"))["code"] == "not_finished"
    await sync_to_async(game_resign)(game_id=game.pk, user=white)
    await w.send_json_to({"type": "rematch"})
    for sock in (w, b):
        assert (await receive(sock, "rematch"))["rematch"]["accepted"] == [0]
    await b.send_json_to({"type": "rematch"})
    new_games = [(await receive(sock, "rematch"))["rematch"]["new_game"] for sock in (w, b)]
    assert new_games[0] == new_games[1] and new_games[0] != game.pk
    await w.disconnect()
    await b.disconnect()


async def test_a_blocked_player_s_chat_never_reaches_the_blocker():
    def build():
        white, black, fan = make_user(), make_user(), make_user()
        game = started_game(players=[white, black])
        user_block(user=white, name=black.username)
        return game, white, black, fan

    game, white, black, fan = await sync_to_async(build)()
    path = f"/ws/game/{game.pk}/"
    w, b, f = await connect(path, white), await connect(path, black), await connect(path, fan)
    for sock in (w, b, f):
        await receive(sock, "hello")
    await b.send_json_to({"type": "chat", "text": "from black"})
    # Black's line is out (stored and sent) before the fan's is written.
    assert (await receive(f, "chat"))["message"]["text"] == "from black"
    await f.send_json_to({"type": "chat", "text": "from the fan"})
    # White's socket skips black's line: the fan's is the first it gets.
    assert (await receive(w, "chat"))["message"]["text"] == "from the fan"
    for sock in (w, b, f):
        await sock.disconnect()
