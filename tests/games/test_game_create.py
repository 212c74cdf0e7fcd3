"""The game factory's own contract (games/services/creating.py): holders and
bots per seat, the start once full, the link in the creating transaction,
bad seats refused with nothing stored."""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts.services.internal import bot_accounts
from games.errors import GameError
from games.models import Event, Game, Seat
from games.services.creating import game_create
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_holders_and_bots_per_seat_and_the_start_once_full():
    person = make_user()
    with transaction.atomic():
        game = game_create(
            ruleset="malefiz", holders=[person.pk, None, None], bots={2: "easy"}, auto_start=True
        )
    game.refresh_from_db()
    bot = bot_accounts.bot_user("malefiz", "easy")
    seats = list(Seat.objects.filter(game=game).order_by("index").values_list("user_id", flat=True))
    assert seats == [person.pk, None, bot.pk]
    assert game.bots == {"2": "easy"} and game.has_bots and game.status == Game.Status.OPEN
    with transaction.atomic():
        full = game_create(
            ruleset="halma", holders=[person.pk, None], bots={1: "strong"}, auto_start=True
        )
    full.refresh_from_db()
    assert full.status == Game.Status.ACTIVE and full.version == 1
    assert Event.objects.filter(game=full, kind=Event.Kind.START).count() == 1


def test_the_link_runs_in_the_creating_transaction_before_the_start():
    a, b = make_user(), make_user()
    seen = []

    def link(game: Game) -> None:
        seen.append((game.pk, game.status))
        raise RuntimeError("the source could not be linked")

    with pytest.raises(RuntimeError), transaction.atomic():
        game_create(ruleset="halma", holders=[a.pk, b.pk], auto_start=True, link=link)
    ((pk, status),) = seen
    assert status == Game.Status.OPEN and not Game.objects.filter(pk=pk).exists()


@pytest.mark.parametrize(
    ("holders", "bots"),
    [
        ([], {}),  # no seat
        ([None, None], {2: "easy"}),  # a bot beyond the table
        ([None, None, None], {0: "easy", 1: "easy"}),  # one bot twice
    ],
)
def test_bad_seats_are_refused_and_nothing_is_stored(holders, bots):
    before = Game.objects.count()
    with pytest.raises(GameError), transaction.atomic():
        game_create(ruleset="malefiz", holders=holders, bots=bots)
    assert Game.objects.count() == before
