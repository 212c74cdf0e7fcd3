"""Offers cannot flood the opponent (issue "Hold against strangers", item 6):
the same offer to the same person notifies once per game, and a declined
draw offer waits for the offerer's next move."""

from __future__ import annotations

import pytest

from games.errors import GameError
from games.models import Game, Notification, OutgoingMail, OutgoingPush, PushSubscription
from games.services.endings import game_decline_draw, game_offer_draw, game_resign
from games.services.play import game_act
from games.services.rematch import rematch_decline, rematch_offer
from tests.factories import (
    BLACK_MOVE,
    FIRST_MOVE,
    client_for,
    every_seat_moves,
    make_user,
    started_game,
)

pytestmark = pytest.mark.django_db

CYCLES = 40


def reachable(user):
    """A person who wants every notice: by e-mail and on a device."""
    user.email, user.email_notifications = f"{user.username}@example.org", True
    user.save()
    PushSubscription.objects.create(
        user=user, endpoint=f"https://fcm.googleapis.com/fcm/send/{user.pk}", p256dh="k", auth="a"
    )
    return user


def told(user, kind: str) -> tuple[int, int, int]:
    """Notifications of ``kind``, their e-mails and web pushes for ``user``
    (turn notices are not offers)."""
    notes = Notification.objects.filter(user=user, kind=kind)
    return (
        notes.count(),
        OutgoingMail.objects.filter(notification__in=notes).count(),
        OutgoingPush.objects.filter(notification__in=notes).count(),
    )


def test_rematch_offers_withdrawn_and_made_again_tell_the_opponent_once():
    white, black = make_user(), reachable(make_user())
    game = every_seat_moves(started_game(players=[white, black]))  # else aborted: no rematch
    game_resign(game_id=game.pk, user=black)
    before = told(black, Notification.Kind.CHALLENGE)
    for _ in range(CYCLES):
        rematch_offer(game_id=game.pk, user=white)
        rematch_decline(game_id=game.pk, user=white)  # withdrawn
    rematch_offer(game_id=game.pk, user=white)
    after = told(black, Notification.Kind.CHALLENGE)
    assert tuple(a - b for a, b in zip(after, before, strict=True)) == (1, 1, 1)
    offer = Notification.objects.filter(user=black, kind=Notification.Kind.CHALLENGE).get()
    assert offer.params["rematch"] is True and offer.read is False


def test_a_renewed_offer_is_unread_again_and_the_new_game_is_still_told():
    white, black = make_user(), reachable(make_user())
    game = every_seat_moves(started_game(players=[white, black]))  # else aborted: no rematch
    game_resign(game_id=game.pk, user=black)
    rematch_offer(game_id=game.pk, user=white)
    Notification.objects.filter(user=black).update(read=True)
    rematch_decline(game_id=game.pk, user=white)
    rematch_offer(game_id=game.pk, user=white)
    assert Notification.objects.filter(user=black, read=False).count() == 1
    rematch_offer(game_id=game.pk, user=black)  # accepted: the new game begins
    assert Notification.objects.filter(user=white, params__rematch_of=game.pk).count() == 1


def test_a_declined_draw_offer_waits_for_the_offerers_next_move():
    white, black = make_user(), reachable(make_user())
    game = started_game(players=[white, black])
    game_offer_draw(game_id=game.pk, user=white)
    game_decline_draw(game_id=game.pk, user=black)
    with pytest.raises(GameError) as refused:
        game_offer_draw(game_id=game.pk, user=white)
    assert refused.value.code == "offer_too_soon"
    assert Game.objects.get(pk=game.pk).draw_offers == []  # nothing changed
    version = Game.objects.get(pk=game.pk).version
    version = game_act(game_id=game.pk, user=white, version=version, action=FIRST_MOVE)
    game_offer_draw(game_id=game.pk, user=white)  # after a move of its own
    game_decline_draw(game_id=game.pk, user=black)
    game_offer_draw(game_id=game.pk, user=black)  # the other seat's first offer
    game_decline_draw(game_id=game.pk, user=white)
    assert told(black, Notification.Kind.DRAW_OFFER)[0] == 1  # white's two offers: one notification


def test_draw_offers_over_a_game_tell_the_opponent_once():
    white, black = make_user(), reachable(make_user())
    game = started_game(players=[white, black])
    before = told(black, Notification.Kind.DRAW_OFFER)
    moves = [FIRST_MOVE, BLACK_MOVE]
    for _ in range(4):
        game_offer_draw(game_id=game.pk, user=white)
        version = game_decline_draw(game_id=game.pk, user=black)
        version = game_act(game_id=game.pk, user=white, version=version, action=moves[0])
        version = game_act(game_id=game.pk, user=black, version=version, action=moves[1])
        moves = [reversed_move(m) for m in moves]
    after = told(black, Notification.Kind.DRAW_OFFER)
    assert tuple(a - b for a, b in zip(after, before, strict=True)) == (1, 1, 1)


def reversed_move(move):
    return {"type": "move", "path": list(reversed(move["path"]))}


def test_over_the_api_a_repeated_draw_offer_is_a_clear_400():
    game = started_game()
    white, black = (client_for(game.seats.get(index=i).user) for i in (0, 1))
    assert white.post(f"/api/games/{game.pk}/draw/offer/").status_code == 200
    assert black.post(f"/api/games/{game.pk}/draw/decline/").status_code == 200
    again = white.post(f"/api/games/{game.pk}/draw/offer/")
    assert again.status_code == 400 and again.json()["code"] == "offer_too_soon"
    assert "next move" in again.json()["message"]
