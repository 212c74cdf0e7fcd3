"""One lobby frame per change (issue 49 item 2), heard on a real lobby
socket: a new game made by ``games.services.creating`` is told once,
whether it waits for players or starts at once (its start event tells it).
Before, playing the computer was told three times, a rematch and a staff
bot match twice, and a join that filled an auto-start table twice.

No waiting for silence: after the change a marker table is opened, and
the frames the socket hears before the marker's are counted (publishing
runs in commit order on one channel)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.endings import game_resign
from games.services.rematch import rematch_offer
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import client_for, every_seat_moves, make_user, started_game
from tests.games.test_consumers import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


async def frames_of(change) -> tuple[int, list[dict]]:
    """Run ``change`` (returns a game id) with a lobby socket open; that
    game's table frames heard before a later marker table's frame."""
    watcher = await sync_to_async(make_user)()
    sock = await connect("/ws/lobby/", watcher)
    await receive(sock, "tables")
    game_id = await sync_to_async(change)()
    marker = await sync_to_async(lobby.table_create)(host=watcher, ruleset="halma")
    heard = []
    while True:
        table = (await receive(sock, "table"))["table"]
        if table["id"] == marker.pk:
            break
        heard.append(table)
    await sock.disconnect()
    return game_id, [t for t in heard if t["id"] == game_id]


async def test_playing_the_computer_tells_the_lobby_once():
    def play_the_computer() -> int:
        made = client_for(make_user()).post(
            "/api/tables/", {"ruleset": "halma", "bot": {"level": "easy"}}, format="json"
        )
        assert made.status_code == 201, made.content
        return made.json()["id"]

    game_id, heard = await frames_of(play_the_computer)
    assert [t["status"] for t in heard] == [Game.Status.ACTIVE]
    assert await sync_to_async(lambda: Game.objects.get(pk=game_id).status)() == "active"


async def test_a_staff_bot_match_tells_the_lobby_once():
    def bot_match() -> int:
        staff = make_user(staff=True)
        made = client_for(staff).post(
            "/api/tables/",
            {"ruleset": "halma", "bot": {"levels": ["easy", "strong"]}},
            format="json",
        )
        assert made.status_code == 201, made.content
        return made.json()["id"]

    _game_id, heard = await frames_of(bot_match)
    assert [t["status"] for t in heard] == [Game.Status.ACTIVE]


async def test_a_rematch_tells_the_lobby_once():
    white, black = await sync_to_async(make_user)(), await sync_to_async(make_user)()

    def finished() -> int:
        game = every_seat_moves(started_game(players=[white, black]))  # else an abort
        game_resign(game_id=game.pk, user=black)
        return game.pk

    old = await sync_to_async(finished)()
    await sync_to_async(rematch_offer)(game_id=old, user=white)

    def accept() -> int:
        return rematch_offer(game_id=old, user=black)["new_game"]

    new, heard = await frames_of(accept)
    assert new != old and [t["status"] for t in heard] == [Game.Status.ACTIVE]


async def test_a_table_waiting_for_players_and_the_join_that_starts_it_each_tell_once():
    host, guest = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    made: list[int] = []

    def create() -> int:
        made.append(lobby.table_create(host=host, ruleset="halma", auto_start=True).pk)
        return made[0]

    _game_id, heard = await frames_of(create)
    assert [t["status"] for t in heard] == [Game.Status.OPEN]

    def join() -> int:
        lobby.table_join(game_id=made[0], user=guest)
        return made[0]

    _game_id, heard = await frames_of(join)
    assert [t["status"] for t in heard] == [Game.Status.ACTIVE]
