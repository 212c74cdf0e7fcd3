"""A Malefiz leaver's seat (3-4 seats) offered to a bot before the rules' leave.

The game pauses with the offer; all remaining players agree: the medium bot
plays the seat (its pieces stay); a decline or the limit running out: the
leave applies as RULES.md §3 says (pieces removed, turns skipped).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.errors import GameError
from games.models import Event, Game
from games.realtime.sweeper import sweep_once
from games.rules import get_ruleset
from games.services import bots, handover
from games.services.endings import game_resign
from games.services.handover import game_handover_agree, game_handover_decline
from lobby import services as lobby
from tests.factories import every_seat_moves, make_user

from .test_hexenhalma_platform import act

pytestmark = pytest.mark.django_db

BLITZ = {"kind": "realtime", "minutes": 5, "increment": 0}


def malefiz(seats: int = 3, clock=None):
    users = [make_user() for _ in range(seats)]
    game = lobby.table_create(
        host=users[0], ruleset="malefiz", seat_count=seats, clock=clock or BLITZ
    )
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    return Game.objects.get(pk=game.pk), users


def state_of(game: Game):
    return get_ruleset("malefiz").decode(game.state)


def refused(code: str, call, **kwargs) -> None:
    with pytest.raises(GameError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.code


def test_resign_pauses_with_an_offer_all_agree_and_the_bot_plays_the_seat():
    game, users = malefiz()
    leaver = game.to_act[0]
    game_resign(game_id=game.pk, user=users[leaver])
    game.refresh_from_db()
    offer = game.handovers[str(leaver)]
    assert game.paused and game.deadline is None and game.left_seats == []
    assert offer["votes"] == [] and offer["move"] is None and offer["leave"]["reason"]
    items = Event.objects.filter(game=game).last().events
    assert [i["type"] for i in items] == ["resigned", "handover_offered"]
    # The leaver can neither vote nor act for the seat.
    refused("not_seated", game_handover_agree, game_id=game.pk, user=users[leaver], seat=leaver)
    refused("not_seated", act, game_id=game.pk, user=users[leaver], action={"type": "roll"})
    others = [s for s in range(3) if s != leaver]
    game_handover_agree(game_id=game.pk, user=users[others[0]], seat=leaver)
    refused(
        "already_agreed", game_handover_agree, game_id=game.pk, user=users[others[0]], seat=leaver
    )
    assert Game.objects.get(pk=game.pk).paused
    game_handover_agree(game_id=game.pk, user=users[others[1]], seat=leaver)
    game.refresh_from_db()
    assert not game.paused and game.deadline is not None
    assert game.bots == {str(leaver): "medium"} and leaver not in state_of(game).left
    assert state_of(game).home[leaver] == 5  # its pieces stay
    refused("no_handover", game_handover_agree, game_id=game.pk, user=users[others[0]], seat=leaver)
    refused("not_seated", act, game_id=game.pk, user=users[leaver], action={"type": "roll"})
    for _ in range(5):
        bots.play_due_bots()
        if Event.objects.filter(game=game, kind="act", seat=leaver).exists():
            break
    assert Event.objects.filter(game=game, kind="act", seat=leaver).exists()


def test_a_decline_applies_the_leave_and_removes_the_pieces():
    game, users = malefiz(4)
    leaver = game.to_act[0]
    game_resign(game_id=game.pk, user=users[leaver])
    others = [s for s in range(4) if s != leaver]
    game_handover_agree(game_id=game.pk, user=users[others[0]], seat=leaver)
    game_handover_decline(game_id=game.pk, user=users[others[1]], seat=leaver)
    game.refresh_from_db()
    assert not game.paused and game.deadline is not None and game.handovers == {}
    assert game.left_seats == [leaver] and game.bots == {}
    state = state_of(game)
    assert leaver in state.left and state.pieces[leaver] == 0 and state.home[leaver] == 0
    assert leaver not in game.to_act
    types = [i["type"] for i in Event.objects.filter(game=game).last().events]
    assert types[:3] == ["handover_declined", "resigned", "left"]
    refused(
        "no_handover", game_handover_decline, game_id=game.pk, user=users[others[2]], seat=leaver
    )


def test_an_offer_nobody_decides_expires_in_the_sweeper():
    game, users = malefiz()
    leaver = game.to_act[0]
    game_resign(game_id=game.pk, user=users[leaver])
    until = datetime.fromisoformat(
        Game.objects.get(pk=game.pk).handovers[str(leaver)]["leave"]["until"]
    )
    assert timedelta(seconds=110) < until - timezone.now() <= timedelta(seconds=120)
    assert handover.handover_offers_expire(now=until - timedelta(seconds=1)) == 0
    assert handover.handover_offers_expire(now=until) == 1
    assert handover.handover_offers_expire(now=until) == 0
    game.refresh_from_db()
    assert game.left_seats == [leaver] and not game.paused and game.handovers == {}
    assert Event.objects.filter(game=game).last().events[0]["type"] == "handover_expired"


def test_a_timeout_is_offered_and_the_bot_gets_time_to_play():
    game, users = malefiz(clock={"kind": "correspondence", "days": 1})
    seat = game.to_act[0]
    later = timezone.now() + timedelta(days=2)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert sweep_once() == 1
    game.refresh_from_db()
    assert game.paused and game.handovers[str(seat)]["leave"]["reason"]
    assert sweep_once() == 0  # paused: the clock stops, nothing is due
    for s in range(3):
        if s != seat:
            game_handover_agree(game_id=game.pk, user=users[s], seat=seat)
    game.refresh_from_db()
    assert game.bots == {str(seat): "medium"} and game.deadline > timezone.now()


def test_with_only_bots_left_no_offer_the_game_ends():
    """Nobody would be left to decide or to play with: no offer, the game ends
    (aborted, as nobody moved; tests/games/test_ratings_hold.py plays it on)."""
    game, users = malefiz()
    leaver = game.to_act[0]
    Game.objects.filter(pk=game.pk).update(
        bots={str(s): "easy" for s in range(3) if s != leaver}, has_bots=True
    )
    game_resign(game_id=game.pk, user=users[leaver])
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.handovers == {}
    assert [i["type"] for i in Event.objects.filter(game=game).last().events] == ["resigned"]


def test_a_two_seat_game_and_a_third_to_last_leaver_are_unaffected():
    game, users = malefiz(2)
    every_seat_moves(game)
    game_resign(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.handovers == {}
    game, users = malefiz(3)
    every_seat_moves(game)
    game_resign(game_id=game.pk, user=users[0])
    game_handover_decline(game_id=game.pk, user=users[1], seat=0)
    game_resign(game_id=game.pk, user=users[1])  # one would remain: no offer
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [2]


def test_api_bad_input():
    game, users = malefiz()
    leaver = game.to_act[0]
    other = next(s for s in range(3) if s != leaver)
    url = f"/api/games/{game.pk}/handover/"
    client = APIClient()
    client.force_authenticate(users[other])
    assert client.post(url, {"seat": leaver}, format="json").json()["code"] == "no_handover"
    game_resign(game_id=game.pk, user=users[leaver])
    version = Game.objects.get(pk=game.pk).version
    assert client.post(url, {"seat": leaver, "agree": "no"}, format="json").status_code == 400
    stranger = APIClient()
    stranger.force_authenticate(make_user())
    answer = stranger.post(url, {"seat": leaver, "agree": False}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"
    assert client.post(url, {"seat": leaver}, format="json").status_code == 200
    twice = client.post(url, {"seat": leaver, "agree": False}, format="json")
    assert twice.status_code == 400 and twice.json()["code"] == "already_agreed"
    assert Game.objects.get(pk=game.pk).version == version + 1


def test_seats_still_leaving_are_no_winners_when_the_last_person_resigns():
    """Malefiz A, B, C (people) and a bot D: A and B resign (offers pending),
    then C; the game ends for want of people and only the bot wins."""
    game, users = malefiz(4)
    game = every_seat_moves(game)
    Game.objects.filter(pk=game.pk).update(bots={"3": "easy"}, has_bots=True)
    for seat in (0, 1):
        game_resign(game_id=game.pk, user=users[seat])
    assert sorted(Game.objects.get(pk=game.pk).handovers) == ["0", "1"]
    game_resign(game_id=game.pk, user=users[2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [3]
    assert game.handovers == {} and not game.paused
    refused("game_over", game_handover_agree, game_id=game.pk, user=users[2], seat=0)
