"""A timed-out player's seat handed to a bot once every other player agrees.

Hexenhalma keeps a timed-out team in play (its orders are locked), so its seat
can be handed over; a Malefiz seat that times out would leave the game (its
pieces go), so the game waits for the others to decide (leavers).
"""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.errors import GameError
from games.models import Event, Game
from games.realtime.sweeper import sweep_once
from games.services import bots, endings
from games.services.handover import game_handover_agree, handover_offers_expire
from lobby import services as lobby
from tests.factories import make_user

from .test_hexenhalma_platform import OPEN, PLAIN, SECRET, act

pytestmark = pytest.mark.django_db

DAY = {"kind": "correspondence", "days": 1}


def campaign_with_a_team_timed_out(rounds: int = 2):
    """GM and three teams; teams 1 and 2 lock orders, team 3 runs out of time."""
    users = [make_user() for _ in range(4)]
    game = lobby.table_create(
        host=users[0], ruleset="hexenhalma", seat_count=4, clock=DAY, options={"rounds": rounds}
    )
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    act(game.pk, users[0], OPEN)
    for user, orders in ((users[1], SECRET), (users[2], PLAIN)):
        act(game.pk, user, {"type": "orders", "orders": orders})
        act(game.pk, user, {"type": "lock"})
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(days=2)):
        assert sweep_once() == 2  # team 3 locked by its timeout, then the round resolved
    assert Event.objects.get(game=game, kind="timeout").seat == 3
    return Game.objects.get(pk=game.pk), users


def refused(code: str, **call) -> None:
    with pytest.raises(GameError) as info:
        game_handover_agree(**call)
    assert info.value.code == code, info.value.code


def test_every_other_player_agrees_then_the_bot_plays_and_the_result_says_so():
    game, (gm, one, two, three) = campaign_with_a_team_timed_out()
    assert game.handovers == {"3": {"votes": [], "move": None}}
    version = game_handover_agree(game_id=game.pk, user=one, seat=3)
    refused("already_agreed", game_id=game.pk, user=one, seat=3)
    refused("already_agreed", game_id=game.pk, user=three, seat=3)  # not theirs to decide
    refused("no_handover", game_id=game.pk, user=one, seat=2)
    refused("not_seated", game_id=game.pk, user=make_user(), seat=3)
    game.refresh_from_db()
    assert game.version == version and game.bots == {} and game.handovers["3"]["votes"] == [1]
    game_handover_agree(game_id=game.pk, user=gm, seat=3)
    game_handover_agree(game_id=game.pk, user=two, seat=3)
    game.refresh_from_db()
    assert game.bots == {"3": "medium"} and game.has_bots
    last = Event.objects.filter(game=game).last()
    assert last.kind == "handover" and last.events[0]["type"] == "handed_to_bot"
    refused("no_handover", game_id=game.pk, user=one, seat=3)

    act(game.pk, gm, OPEN)  # round 2: the bot writes team 3's orders
    with pytest.raises(GameError) as info:
        act(game.pk, three, {"type": "lock"})
    assert info.value.code == "handed_over"
    for command in (endings.game_resign, endings.game_offer_draw, endings.game_abort):
        with pytest.raises(GameError) as info:  # the bot plays the seat to the end
            command(game_id=game.pk, user=three)
        assert info.value.code == "handed_over"
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    for _ in range(20):
        bots.play_due_bots()
        if 3 not in Game.objects.get(pk=game.pk).to_act:
            break
    assert 3 not in Game.objects.get(pk=game.pk).to_act
    assert Event.objects.filter(game=game, kind="act", seat=3).exists()
    for user, orders in ((one, SECRET), (two, PLAIN)):
        act(game.pk, user, {"type": "orders", "orders": orders})
        act(game.pk, user, {"type": "lock"})
    assert sweep_once() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    move = game.handovers["3"]["move"]
    assert game.result["handovers"] == [{"seat": 3, "move": move}]
    from games.selectors.frames import result_text

    assert f"Seat 4 was played by the bot from move {move}." in result_text(game.result)


def test_the_player_coming_back_withdraws_the_offer():
    game, (gm, _one, _two, three) = campaign_with_a_team_timed_out()
    act(game.pk, gm, OPEN)
    act(game.pk, three, {"type": "orders", "orders": PLAIN})
    game.refresh_from_db()
    assert game.handovers == {}


def test_a_malefiz_seat_that_times_out_waits_for_the_others_then_leaves():
    """Its pieces would go (RULES.md §3): the others are asked first
    (tests/games/test_leaver_handover.py); nobody deciding, it leaves."""
    users = [make_user() for _ in range(3)]
    game = lobby.table_create(host=users[0], ruleset="malefiz", seat_count=3, clock=DAY)
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    later = timezone.now() + timedelta(days=2)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert sweep_once() >= 1
    game.refresh_from_db()
    assert game.paused and not game.left_seats and len(game.handovers) == 1
    assert handover_offers_expire(now=later + timedelta(days=1)) == 1
    game.refresh_from_db()
    assert game.left_seats and game.handovers == {} and not game.paused
