"""games.services: the only code that changes a game."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.errors import GameError
from games.models import Event, Game
from games.rules import get_ruleset
from games.services.endings import game_resign
from games.services.play import game_act
from tests.factories import BLACK_MOVE, FIRST_MOVE, every_seat_moves, make_user, started_game

pytestmark = pytest.mark.django_db


def seat_user(game: Game, index: int):
    return game.seats.get(index=index).user


def test_start_creates_version_one():
    game = started_game()
    assert game.status == Game.Status.ACTIVE
    assert game.version == 1
    assert game.to_act == [0]
    assert list(game.events.values_list("version", "kind")) == [(1, "start")]


def test_act_stores_state_and_event():
    game = started_game()
    version = game_act(game_id=game.pk, user=seat_user(game, 0), version=1, action=FIRST_MOVE)
    game.refresh_from_db()
    assert version == 2 == game.version
    assert game.to_act == [1]
    event = game.events.get(version=2)
    assert event.seat == 0 and event.kind == "act" and event.action == FIRST_MOVE
    assert event.events[0]["type"] == "moved"


@pytest.mark.parametrize(
    ("who", "version", "action", "code"),
    [
        ("black", 1, FIRST_MOVE, "not_your_turn"),
        ("stranger", 1, FIRST_MOVE, "not_seated"),
        ("anon", 1, FIRST_MOVE, "login_required"),
        ("white", 0, FIRST_MOVE, "stale_version"),
        ("white", 7, FIRST_MOVE, "stale_version"),
        ("white", "1", FIRST_MOVE, "bad_request"),
        ("white", 1, "move", "bad_request"),
        ("white", 1, {"type": "move", "path": [[5, 9], [2, 9]]}, "illegal"),
        ("white", 1, {"type": "jump"}, "illegal"),
        ("white", 1, {}, "illegal"),
    ],
)
def test_refusals_change_nothing(who, version, action, code):
    game = started_game()
    users = {
        "white": seat_user(game, 0),
        "black": seat_user(game, 1),
        "stranger": make_user(),
        "anon": AnonymousUser(),
    }
    before = (game.version, game.state)
    with pytest.raises(GameError) as info:
        game_act(game_id=game.pk, user=users[who], version=version, action=action)
    assert info.value.code == code
    assert info.value.message
    game.refresh_from_db()
    assert (game.version, game.state) == before
    assert game.events.count() == 1


def test_unknown_game():
    with pytest.raises(GameError) as info:
        game_act(game_id=999999, user=make_user(), version=1, action=FIRST_MOVE)
    assert info.value.code == "not_found" and info.value.status == 404


def test_acting_in_a_finished_game_is_refused():
    game = started_game()
    game_resign(game_id=game.pk, user=seat_user(game, 1))
    with pytest.raises(GameError) as info:
        game_act(game_id=game.pk, user=seat_user(game, 0), version=2, action=FIRST_MOVE)
    assert info.value.code == "game_over"
    with pytest.raises(GameError):
        game_resign(game_id=game.pk, user=seat_user(game, 0))


def test_resign_ends_two_seat_game():
    game = every_seat_moves(started_game())  # before that, an abort (test_ratings_hold.py)
    game_resign(game_id=game.pk, user=seat_user(game, 0))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] == [1]
    assert game.to_act == []


def test_replaying_events_from_the_seed_equals_stored_state():
    game = started_game()
    moves = [FIRST_MOVE, BLACK_MOVE, {"type": "move", "path": [[6, 8], [5, 8]]}]
    for i, move in enumerate(moves):
        game_act(
            game_id=game.pk, user=seat_user(game, i % 2), version=game.version + i, action=move
        )
    game.refresh_from_db()
    rs = get_ruleset(game.ruleset)
    state = rs.setup(game.options, game.seat_count, game.seed)
    for event in Event.objects.filter(game=game, kind="act").order_by("version"):
        state, _ = rs.apply(state, event.seat, event.action)
    assert rs.encode(state) == game.state


def test_duplicate_send_is_harmless():
    game = started_game()
    white = seat_user(game, 0)
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    with pytest.raises(GameError) as info:
        game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert info.value.code in {"stale_version", "not_your_turn"}
    assert info.value.version == 2
    assert Event.objects.filter(game=game).count() == 2


def test_a_hello_never_lists_events_ahead_of_its_state():
    # The hello reads the game, then its events: a move committed in between
    # must not appear as an event without its state (the page would hold an
    # old position under a newer version, and wait for nothing).
    from games.selectors.frames import events_since

    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    read_before_the_move = Game.objects.get(pk=game.pk)
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert [e["version"] for e in events_since(read_before_the_move, 0, None)] == [1]
    assert [e["version"] for e in events_since(Game.objects.get(pk=game.pk), 0, None)] == [1, 2]
