"""Forced turns in Malefiz (issue 36): a player who opts in has a roll that
leaves exactly one move played for them by the sweeper, after the pause
(0 here); nobody else's, never before the roll, never without opting in."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games.models import Event, Game
from games.realtime.sweeper import sweep_once
from games.rules import get_ruleset
from games.services import forced
from games.services.play import game_act
from tests.db_threads import sync_to_async
from tests.factories import client_for, make_user, started_game

from .test_consumers import close_all, connect, receive

MALEFIZ = get_ruleset("malefiz")
ROLL = {"type": "roll"}


def forced_position(game: Game) -> int:
    """A fresh deal (all pieces at home) whose first roll is a 1: one move,
    from the house to the entry field. Stored as the game's position; the seat."""
    for seed in range(500):
        state = MALEFIZ.setup({}, 2, seed)
        seat = MALEFIZ.to_act(state)[0]
        rolled, _ = MALEFIZ.apply(state, seat, ROLL)
        if MALEFIZ.forced_action(rolled, seat) is not None:
            Game.objects.filter(pk=game.pk).update(state=MALEFIZ.encode(state), to_act=[seat])
            return seat
    raise AssertionError("no forced roll found")


@pytest.fixture
def malefiz():
    players = [make_user(), make_user()]
    game = started_game("malefiz", players=players)
    seat = forced_position(game)
    game.refresh_from_db()
    return game, players[seat], players[1 - seat], seat


@pytest.mark.django_db
@override_settings(FORCED_TURN_SECONDS=0)
def test_an_opted_in_players_forced_move_is_played_by_the_sweeper(malefiz):
    game, player, other, seat = malefiz
    answer = client_for(player).post(f"/api/games/{game.pk}/forced/", {"on": True}, format="json")
    assert answer.status_code == 200 and answer.json() == {"on": True}
    assert client_for(player).get(f"/api/games/{game.pk}/forced/").json() == {"on": True}
    assert client_for(other).get(f"/api/games/{game.pk}/forced/").json() == {"on": False}
    game.refresh_from_db()
    assert game.forced_at is None  # a roll is a choice: nothing before it
    assert sweep_once() == 0
    version = game_act(game_id=game.pk, user=player, version=game.version, action=ROLL)
    game.refresh_from_db()
    rolled = MALEFIZ.decode(game.state)
    expected = MALEFIZ.forced_action(rolled, seat)
    assert game.forced_at is not None and expected is not None
    assert sweep_once() >= 1
    game.refresh_from_db()
    move = Event.objects.get(game=game, version=version + 1)
    assert (move.seat, move.kind, move.action) == (seat, Event.Kind.ACT, expected)
    assert game.forced_at is None or seat not in game.to_act


@pytest.mark.django_db
@override_settings(FORCED_TURN_SECONDS=0)
def test_without_opting_in_nothing_is_played(malefiz):
    game, player, _other, _seat = malefiz
    version = game_act(game_id=game.pk, user=player, version=game.version, action=ROLL)
    game.refresh_from_db()
    assert game.forced_at is None
    assert forced.forced_turns_play_due() == 0 and Game.objects.get(pk=game.pk).version == version
    # Opting in after the roll schedules the waiting move at once.
    forced.game_forced_turns(game_id=game.pk, user=player, on=True)
    assert (
        forced.forced_turns_play_due() == 1 and Game.objects.get(pk=game.pk).version == version + 1
    )


@pytest.mark.django_db
@override_settings(FORCED_TURN_SECONDS=60)
def test_the_pause_is_kept_and_opting_out_cancels(malefiz):
    game, player, _other, _seat = malefiz
    forced.game_forced_turns(game_id=game.pk, user=player, on=True)
    version = game_act(game_id=game.pk, user=player, version=game.version, action=ROLL)
    assert forced.forced_turns_play_due() == 0  # not yet: the pause
    forced.game_forced_turns(game_id=game.pk, user=player, on=False)
    game.refresh_from_db()
    assert game.forced_at is None and game.autoplay == [] and game.version == version


@pytest.mark.django_db
def test_refusals():
    players = [make_user(), make_user()]
    halma = started_game("halma", players=players)
    answer = client_for(players[0]).post(
        f"/api/games/{halma.pk}/forced/", {"on": True}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "not_supported"
    malefiz = started_game("malefiz", players=players)
    stranger = client_for(make_user())
    answer = stranger.post(f"/api/games/{malefiz.pk}/forced/", {"on": True}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"
    answer = client_for(players[0]).post(
        f"/api/games/{malefiz.pk}/forced/", {"on": "x"}, format="json"
    )
    assert answer.status_code == 400
    answer = client_for(players[0]).post("/api/games/999999/forced/", {"on": True}, format="json")
    assert answer.status_code == 404
    assert Game.objects.get(pk=malefiz.pk).autoplay == []


@pytest.mark.django_db(transaction=True)
async def test_the_socket_command_toggles_it():
    players = [await sync_to_async(make_user)() for _ in range(2)]
    game = await sync_to_async(started_game)("malefiz", players=players)
    sock = await connect(f"/ws/game/{game.pk}/", players[1])
    await receive(sock, "hello")
    await sock.send_json_to({"type": "forced_turns", "game": game.pk, "on": True, "ref": "f"})
    answer = await receive(sock, "forced_turns")
    assert answer == {"type": "forced_turns", "on": True, "ref": "f"}
    await sock.send_json_to({"type": "forced_turns", "game": game.pk, "on": "yes", "ref": "g"})
    error = await receive(sock, "error")
    assert error["code"] == "bad_request"
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.autoplay == [1]
    await close_all([sock])
