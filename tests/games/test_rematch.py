"""Rematch: offer, accept, decline; seats rotate; bots accept at once; bad input."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services.relations import user_block
from games.errors import GameError
from games.models import Game, Notification, Rematch, Seat
from games.selectors.frames import hello_frame
from games.selectors.notifications import as_dict
from games.services.endings import game_abort, game_resign
from games.services.play import game_act
from games.services.rematch import _seat_rotation, rematch_decline, rematch_offer
from lobby import services as lobby
from tests.factories import FIRST_MOVE, client_for, every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db


def finished_game(players=None, clock=None):
    game = every_seat_moves(started_game(players=players, clock=clock))  # else an abort
    white = Seat.objects.get(game=game, index=0).user
    game_resign(game_id=game.pk, user=white)
    game.refresh_from_db()
    return game


def seat_users(game_id: int) -> list[int]:
    return list(
        Seat.objects.filter(game_id=game_id).order_by("index").values_list("user_id", flat=True)
    )


def test_both_accept_and_a_new_game_opens_with_colours_swapped():
    white, black = make_user(), make_user()
    clock = {"kind": "realtime", "initial": 300, "increment": 2}
    game = finished_game([white, black], clock=clock)
    offered = rematch_offer(game_id=game.pk, user=black)
    assert offered == {
        "game": game.pk,
        "status": "pending",
        "accepted": [1],
        "declined_by": None,
        "new_game": None,
    }
    # The offer waits in white's notifications, as a challenge naming the rematch.
    note = Notification.objects.get(user=white, kind=Notification.Kind.CHALLENGE)
    assert note.game_id == game.pk and note.params["rematch"] is True
    done = rematch_offer(game_id=game.pk, user=white)
    assert done["status"] == "accepted"
    new = Game.objects.get(pk=done["new_game"])
    assert new.status == Game.Status.ACTIVE and new.version == 1
    assert (new.ruleset, new.options, new.clock, new.rated) == (
        game.ruleset,
        game.options,
        game.clock,
        game.rated,
    )
    assert seat_users(new.pk) == [black.pk, white.pk]
    # Black, who offered and may have left the page, finds the new game in the bell.
    begun = Notification.objects.get(user=black, game=new)
    assert as_dict(begun)["text"] == (
        f"{white.username} accepted the rematch: game #{new.pk} (Halma) has begun."
    )
    offer_text = as_dict(note)["text"]
    assert offer_text.startswith(f"{black.username} offers a rematch of game #{game.pk}")
    assert not Notification.objects.filter(user=white, game=new).exists()
    # Asking again only answers the same new game.
    assert rematch_offer(game_id=game.pk, user=black)["new_game"] == new.pk
    assert Game.objects.count() == 2


def test_a_page_of_the_finished_game_sees_the_offer():
    white, black = make_user(), make_user()
    game = finished_game([white, black])
    assert hello_frame(game.pk, white)["rematch"] is None
    rematch_offer(game_id=game.pk, user=white)
    assert hello_frame(game.pk, black)["rematch"]["accepted"] == [0]


def test_three_seats_rotate_by_one():
    players = [make_user() for _ in range(3)]
    game = lobby.table_create(host=players[0], ruleset="malefiz", seat_count=3)
    for user in players[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=players[0])
    every_seat_moves(game)
    for user in players:  # every seat resigns in turn until the game ends
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        game_resign(game_id=game.pk, user=user)
    for user in players:
        summary = rematch_offer(game_id=game.pk, user=user)
    new_id = summary["new_game"]
    assert seat_users(new_id) == [players[2].pk, players[0].pk, players[1].pk]


def test_decline_and_withdraw_end_the_offer_and_a_new_offer_starts_over():
    white, black = make_user(), make_user()
    game = finished_game([white, black])
    rematch_offer(game_id=game.pk, user=white)
    declined = rematch_decline(game_id=game.pk, user=black)
    assert declined["status"] == "declined" and declined["declined_by"] == 1
    with pytest.raises(GameError) as err:
        rematch_decline(game_id=game.pk, user=black)
    assert err.value.code == "no_rematch"
    again = rematch_offer(game_id=game.pk, user=black)
    assert again["status"] == "pending" and again["accepted"] == [1]
    withdrawn = rematch_decline(game_id=game.pk, user=black)
    assert withdrawn["declined_by"] == 1 and withdrawn["accepted"] == []
    assert Game.objects.count() == 1


def test_against_a_bot_the_bot_accepts_at_once():
    human = make_user()
    game = lobby.table_create(host=human, ruleset="halma", bot={"level": "easy"})
    game_act(game_id=game.pk, user=human, version=1, action=FIRST_MOVE)  # else an abort
    game_resign(game_id=game.pk, user=human)
    done = rematch_offer(game_id=game.pk, user=human)
    assert done["status"] == "accepted"
    new = Game.objects.get(pk=done["new_game"])
    assert new.bots == {"0": "easy"} and new.has_bots
    assert Seat.objects.get(game=new, index=1).user_id == human.pk


@pytest.mark.parametrize("case", ["running", "aborted", "foreign", "anonymous", "missing"])
def test_bad_rematches_are_refused_and_change_nothing(case):
    from django.contrib.auth.models import AnonymousUser

    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    user, game_id, code = white, game.pk, "not_finished"
    if case == "aborted":
        game_abort(game_id=game.pk, user=white)
        code = "aborted"
    elif case == "foreign":
        game_resign(game_id=game.pk, user=white)
        user, code = make_user(), "not_seated"
    elif case == "anonymous":
        user, code = AnonymousUser(), "login_required"
    elif case == "missing":
        game_id, code = game.pk + 1000, "not_found"
    with pytest.raises(GameError) as err:
        rematch_offer(game_id=game_id, user=user)
    assert err.value.code == code
    assert not Rematch.objects.exists() and Game.objects.count() == 1


def test_a_blocked_player_cannot_offer_a_rematch():
    white, black = make_user(), make_user()
    game = finished_game([white, black])
    user_block(user=black, name=white.username)
    with pytest.raises(GameError) as err:
        rematch_offer(game_id=game.pk, user=white)
    assert err.value.code == "blocked"
    assert not Notification.objects.filter(user=black, kind="challenge").exists()


def test_a_suspended_or_play_banned_player_cannot_start_a_rematch():
    from datetime import timedelta

    from django.utils import timezone

    from moderation.models import PlayBan, Standing

    realtime = {"kind": "realtime", "minutes": 5}
    white, black = make_user(), make_user()
    game = finished_game([white, black], clock=realtime)
    now = timezone.now()
    PlayBan.objects.create(
        user=white, minutes=15, reason="leave", until=now + timedelta(minutes=15)
    )
    with pytest.raises(GameError) as err:
        rematch_offer(game_id=game.pk, user=white)
    assert err.value.code == "playban"
    Standing.objects.create(user=black, suspended_until=now + timedelta(days=2))
    with pytest.raises(GameError) as err:
        rematch_offer(game_id=game.pk, user=black)
    assert err.value.code == "suspended"
    assert list(Rematch.objects.filter(game=game).values_list("accepted", flat=True)) in ([], [[]])
    assert Game.objects.count() == 1


def test_the_api_offers_accepts_declines_and_refuses():
    white, black, stranger = make_user(), make_user(), make_user()
    game = finished_game([white, black])
    url = f"/api/games/{game.pk}/rematch/"
    assert client_for(stranger).post(url).status_code == 403
    assert APIClient().post(url).status_code in (401, 403)
    assert client_for(white).delete(url).json()["code"] == "no_rematch"
    assert client_for(white).post(url).json()["status"] == "pending"
    answer = client_for(black).post(url)
    assert answer.status_code == 200 and answer.json()["new_game"]
    running = started_game()
    refused = client_for(Seat.objects.get(game=running, index=0).user).post(
        f"/api/games/{running.pk}/rematch/"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_finished"
    assert "over" in refused.json()["message"]


def test_a_referee_seat_keeps_its_player_and_the_teams_rotate():
    assert _seat_rotation("halma", 2) == {0: 1, 1: 0}
    assert _seat_rotation("malefiz", 4) == {0: 1, 1: 2, 2: 3, 3: 0}
    assert _seat_rotation("hexenhalma", 4) == {0: 0, 1: 2, 2: 3, 3: 1}  # seat 0: game master
