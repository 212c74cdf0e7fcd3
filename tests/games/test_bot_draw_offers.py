"""Draw offers and bots (issues 30 and 50): a person's offer to a bot seat is
answered at once, accepted only when the bot's evaluation says the game is
dead (Daschax equal endings, Halma games the house rule can only draw); a bot
offers a draw itself in a dead game, once a game at most."""

from __future__ import annotations

import pytest

from games.bots import accepts_draw
from games.models import Event, Game
from games.rules import get_ruleset
from games.rules.halma import HalmaState
from games.services import bots, endings
from games.services.play import game_act
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
    game = lobby.table_create(host=human, ruleset="malefiz", host_seat=0, bot={"level": "easy"})
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


def halma_at(plies: int, home: int) -> HalmaState:
    """Both sides with ``home`` pieces still in their own house, the rest in
    the middle, ``plies`` half-moves played."""
    white_house = sorted((r, c) for r in range(10) for c in range(10) if r + c >= 14)
    black_house = sorted(((r, c) for r in range(10) for c in range(10) if r + c <= 4), reverse=True)
    white = white_house[-home:] + [(5, c) for c in range(15 - home)]
    black = black_house[-home:] + [(4, c) for c in range(15 - home)]

    def fields(cells: list) -> tuple:
        return tuple(sorted(r * 10 + c for r, c in cells))

    return HalmaState(pieces=(fields(white), fields(black)), plies=plies)


# Move 46, White to move: 6 pieces at home a side, 5 moves left each: the
# house rule can only end it drawn. The same board at move 11 is alive.
HALMA_DEAD = halma_at(90, 6)
HALMA_LIVE = halma_at(20, 6)


def halma_vs_bot(state: HalmaState, host_seat: int = 0, level: str = "easy") -> tuple[Game, object]:
    human = make_user()
    game = lobby.table_create(
        host=human, ruleset="halma", host_seat=host_seat, bot={"level": level}
    )
    game.state = get_ruleset("halma").encode(state)
    game.save(update_fields=["state"])
    return game, human


@pytest.mark.parametrize(("state", "dead"), [(HALMA_DEAD, True), (HALMA_LIVE, False)])
def test_halma_judges_the_house_rule_draw_for_either_seat(state: HalmaState, dead: bool) -> None:
    assert get_ruleset("halma").outcome(state) is None
    for level in ("easy", "medium", "strong"):
        assert [accepts_draw("halma", level, state, seat) for seat in (0, 1)] == [dead, dead]


def test_the_halma_bot_accepts_a_draw_the_house_rule_decides():
    game, human = halma_vs_bot(HALMA_DEAD)
    endings.game_offer_draw(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["draw"]
    assert last_event(game).kind == Event.Kind.END


def test_the_halma_bot_declines_in_a_live_game():
    game, human = halma_vs_bot(HALMA_LIVE)
    endings.game_offer_draw(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.draw_offers == []
    assert last_event(game).kind == Event.Kind.DRAW_DECLINE


def bot_offers(game: Game) -> int:
    return Event.objects.filter(game=game, seat=0, kind=Event.Kind.DRAW_OFFER).count()


def person_moves(game: Game, human: object) -> None:
    game.refresh_from_db()
    rs = get_ruleset("halma")
    action = rs.legal_actions(rs.decode(game.state), 1)[0]
    game_act(game_id=game.pk, user=human, version=game.version, action=action)


def test_a_bot_offers_a_draw_in_a_dead_game_once():
    game, human = halma_vs_bot(HALMA_DEAD, host_seat=1)  # the bot (seat 0) is to move
    assert bots.play_due_bots() == 1
    game.refresh_from_db()
    assert game.draw_offers == [0] and bot_offers(game) == 1
    offer = last_event(game)
    assert (offer.kind, offer.events) == (
        Event.Kind.DRAW_OFFER,
        [{"type": "draw_offered", "seat": 0, "offers": [0]}],
    )
    endings.game_decline_draw(game_id=game.pk, user=human)
    for _ in range(3):  # still dead, but it has offered once
        person_moves(game, human)
        assert bots.play_due_bots() == 1
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.draw_offers == []
    assert bot_offers(game) == 1


def test_a_person_accepts_the_bot_s_offer():
    game, human = halma_vs_bot(HALMA_DEAD, host_seat=1)
    bots.play_due_bots()
    endings.game_accept_draw(game_id=game.pk, user=human)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["draw"] and game.result["reason"] == endings.REASON_DRAW_AGREED


def test_a_bot_offers_nothing_in_a_live_game():
    game, _ = halma_vs_bot(HALMA_LIVE, host_seat=1)
    assert bots.play_due_bots() == 1
    game.refresh_from_db()
    assert game.draw_offers == [] and bot_offers(game) == 0


def test_two_bots_agree_a_draw_in_a_dead_ending():
    staff = make_user(staff=True)
    game = lobby.table_create(host=staff, ruleset="daschax", bot={"levels": ["easy", "strong"]})
    game.refresh_from_db()
    mover = game.to_act[0]  # the coin's pick; the stored seat to act stays it
    game.state = get_ruleset("daschax").encode(position(DEAD, to_move=mover))
    game.save(update_fields=["state"])
    bots.play_due_bots()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["draw"] and game.result["reason"] == endings.REASON_DRAW_AGREED
    kinds = list(Event.objects.filter(game=game).order_by("version").values_list("kind", "seat"))
    assert kinds[-3:] == [
        (Event.Kind.ACT, mover),
        (Event.Kind.DRAW_OFFER, mover),
        (Event.Kind.END, 1 - mover),
    ]
