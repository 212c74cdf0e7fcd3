"""A person's draw offer to a bot seat (issue 30): the bot answers at once,
accepting only when its evaluation says the game is dead."""

from __future__ import annotations

import pytest

from games.bots import accepts_draw
from games.models import Event, Game
from games.rules import get_ruleset
from games.services import endings
from lobby import services as lobby
from tests.factories import make_user
from tests.games.bots.test_daschax_bot import position

pytestmark = pytest.mark.django_db

DEAD = [(2, 2, "M", 0, "N"), (7, 7, "M", 1, "S")]  # one medium piece a side
DEAD_PAIRS = [(2, 2, "M", 0, "N"), (3, 2, "S", 0, "N"), (7, 7, "S", 1, "S"), (6, 7, "M", 1, "S")]
LIVE = [(2, 2, "L", 0, "N"), (3, 2, "M", 0, "N"), (7, 7, "M", 1, "S")]
UNEQUAL = [(2, 2, "L", 0, "N"), (3, 2, "S", 0, "N"), (7, 7, "M", 1, "S"), (6, 7, "M", 1, "S")]


def daschax_vs_bot(pieces: list) -> tuple[Game, object]:
    human = make_user()
    game = lobby.table_create(host=human, ruleset="daschax", host_seat=0, bot={"level": "strong"})
    game.state = get_ruleset("daschax").encode(position(pieces))
    game.save(update_fields=["state"])
    return game, human


def last_event(game: Game) -> Event:
    return Event.objects.filter(game=game).order_by("-version").first()


def test_the_bot_accepts_a_draw_in_a_dead_game():
    game, human = daschax_vs_bot(DEAD)
    version = endings.game_offer_draw(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["draw"] and game.result["reason"] == endings.REASON_DRAW_AGREED
    end = last_event(game)
    assert (end.version, end.kind, end.seat) == (version, Event.Kind.END, 1)
    assert Event.objects.get(game=game, version=version - 1).kind == Event.Kind.DRAW_OFFER


def test_the_bot_declines_while_the_game_is_alive():
    game, human = daschax_vs_bot(LIVE)
    version = endings.game_offer_draw(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.draw_offers == []
    declined = last_event(game)
    assert (declined.version, declined.kind, declined.seat) == (
        version,
        Event.Kind.DRAW_DECLINE,
        1,
    )
    assert declined.events == [{"type": "draw_declined", "seat": 1}]


def test_a_bot_without_a_judge_declines():
    human = make_user()
    game = lobby.table_create(host=human, ruleset="halma", host_seat=0, bot={"level": "easy"})
    endings.game_offer_draw(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.draw_offers == []
    assert last_event(game).kind == Event.Kind.DRAW_DECLINE


@pytest.mark.parametrize(
    ("pieces", "dead"), [(DEAD, True), (DEAD_PAIRS, True), (LIVE, False), (UNEQUAL, False)]
)
def test_daschax_judges_dead_games_for_either_seat(pieces: list, dead: bool) -> None:
    state = position(pieces)
    for level in ("easy", "medium", "strong"):
        assert [accepts_draw("daschax", level, state, seat) for seat in (0, 1)] == [dead, dead]
