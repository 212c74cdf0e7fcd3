"""Booster refunds with openskill's own arithmetic: every opponent's loss to
the marked account is given back, once, on top of what they did since."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from games.models import Rating
from games.selectors.ratings import BASE_MU, BASE_SIGMA, shown
from games.services.endings import game_resign
from moderation.models import Refund
from tests.factories import client_for, every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db


def play(winner, loser) -> None:
    """A rated Halma game (correspondence) that ``loser`` resigns."""
    game = every_seat_moves(started_game(players=[winner, loser]))
    game_resign(game_id=game.pk, user=loser)


def mu(user) -> float:
    return Rating.objects.get(user=user).mu


def test_losses_to_a_booster_are_refunded_once_on_top_of_later_games():
    booster, victim, winner_against, stranger = (make_user(n) for n in ("boo", "vic", "win", "str"))
    play(booster, victim)  # victim loses to the booster
    play(victim, stranger)  # then wins elsewhere
    play(winner_against, booster)  # someone beats the booster: nothing to refund

    # openskill's own figures: the victim's mu after each game.
    model = PlackettLuce(mu=BASE_MU, sigma=BASE_SIGMA)
    [_, [victim_after_loss]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    [[victim_now], _] = model.rate([[victim_after_loss], [model.rating()]], ranks=[1, 2])
    assert mu(victim) == pytest.approx(victim_now.mu)
    lost = BASE_MU - victim_after_loss.mu
    assert lost > 0
    before_winner = mu(winner_against)

    mod = make_user("mod", moderator=True)
    client = client_for(mod)
    answer = client.post(
        "/api/moderation/users/boo/", {"action": "booster", "note": "farm"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert mu(victim) == pytest.approx(victim_now.mu + lost)
    assert Rating.objects.get(user=victim).display == shown(victim_now.mu + lost)
    assert mu(winner_against) == before_winner  # won against the booster: no refund
    assert mu(booster) != BASE_MU  # the booster keeps their own figure
    [refund] = answer.json()["detail"]["refunded"]
    assert refund["user"] == victim.pk and refund["points"] > 0

    again = client.post(
        "/api/moderation/users/boo/", {"action": "booster", "note": "again"}, format="json"
    )
    assert again.status_code == 200 and again.json()["detail"] == {"refunded": [], "already": True}
    assert mu(victim) == pytest.approx(victim_now.mu + lost)
    assert Refund.objects.count() == 1
