"""Tables before the game: create, join, leave, start, invites, challenges, quick play."""

from __future__ import annotations

import pytest

from games.errors import GameError
from games.models import Game
from lobby import services as lobby
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def seated(game: Game) -> list:
    return [s.user.username if s.user else None for s in game.seats.order_by("index")]


def test_create_join_start():
    host, guest = make_user("host"), make_user("guest")
    game = lobby.table_create(host=host, ruleset="halma")
    assert game.status == Game.Status.OPEN and seated(game) == ["host", None]
    with pytest.raises(GameError, match="every seat"):
        lobby.table_start(game_id=game.pk, user=host)
    lobby.table_join(game_id=game.pk, user=guest)
    with pytest.raises(GameError) as info:
        lobby.table_start(game_id=game.pk, user=guest)
    assert info.value.code == "forbidden"
    lobby.table_start(game_id=game.pk, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == 1


def test_full_table_and_double_join_are_refused():
    host, guest, third = make_user(), make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma")
    with pytest.raises(GameError) as info:
        lobby.table_join(game_id=game.pk, user=host)
    assert info.value.code == "already_seated"
    lobby.table_join(game_id=game.pk, user=guest)
    with pytest.raises(GameError) as info:
        lobby.table_join(game_id=game.pk, user=third)
    assert info.value.code == "table_full"


def test_leave_frees_seat_and_host_leaving_closes():
    host, guest = make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma")
    lobby.table_join(game_id=game.pk, user=guest)
    lobby.table_leave(game_id=game.pk, user=guest)
    assert seated(game)[1] is None
    lobby.table_leave(game_id=game.pk, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_host_seat_choice_and_bad_input():
    host = make_user()
    game = lobby.table_create(host=host, ruleset="halma", host_seat=1)
    assert seated(game) == [None, host.username]
    for kwargs, code in [
        ({"ruleset": "chess"}, "bad_request"),
        ({"ruleset": "halma", "seat_count": 3}, "bad_request"),
        ({"ruleset": "halma", "host_seat": 5}, "bad_request"),
        ({"ruleset": "halma", "options": {"nope": 1}}, "bad_options"),
        ({"ruleset": "halma", "challenge": "nobody-here"}, "no_such_user"),
        ({"ruleset": "halma", "challenge": host.username}, "bad_request"),
    ]:
        with pytest.raises(GameError) as info:
            lobby.table_create(host=host, **kwargs)
        assert info.value.code == code, kwargs


def test_invite_link_seats_directly():
    host, friend = make_user(), make_user()
    game = lobby.table_create(host=host, ruleset="halma")
    lobby.table_join_by_invite(code=game.invite_code, user=friend)
    assert seated(game) == [host.username, friend.username]
    # A second join through the same link is harmless.
    lobby.table_join_by_invite(code=game.invite_code, user=friend)
    with pytest.raises(GameError):
        lobby.table_join_by_invite(code="nope", user=friend)
    # Once the game runs, the link seats nobody else.
    lobby.table_start(game_id=game.pk, user=host)
    with pytest.raises(GameError) as info:
        lobby.table_join_by_invite(code=game.invite_code, user=make_user())
    assert info.value.code == "not_open"
    assert lobby.table_join_by_invite(code=game.invite_code, user=friend).pk == game.pk


def test_challenge_reserves_the_table():
    host, rival, other = make_user(), make_user("rival"), make_user()
    game = lobby.table_create(host=host, ruleset="halma", challenge="RIVAL")
    assert game.challenged == rival
    with pytest.raises(GameError) as info:
        lobby.table_join(game_id=game.pk, user=other)
    assert info.value.code == "reserved"
    with pytest.raises(GameError):
        lobby.table_decline(game_id=game.pk, user=other)
    lobby.table_decline(game_id=game.pk, user=rival)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_quickplay_pairs_two_players_and_starts():
    a, b, c = make_user(), make_user(), make_user()
    first = lobby.table_quickplay(user=a, ruleset="halma")
    assert first.status == Game.Status.OPEN and first.is_quickplay
    assert lobby.table_quickplay(user=a, ruleset="halma").pk == first.pk  # no second seek
    paired = lobby.table_quickplay(user=b, ruleset="halma")
    assert paired.pk == first.pk
    paired.refresh_from_db()
    assert paired.status == Game.Status.ACTIVE
    third = lobby.table_quickplay(user=c, ruleset="halma")
    assert third.pk != first.pk and third.status == Game.Status.OPEN


def test_anonymous_cannot_create():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(GameError) as info:
        lobby.table_create(host=AnonymousUser(), ruleset="halma")
    assert info.value.status == 403


def test_auto_start_when_the_last_seat_is_taken():
    host, b, c = make_user(), make_user(), make_user()
    from games.rules import RULESETS
    from games.rules.malefiz import MalefizRuleset

    RULESETS.setdefault("malefiz", MalefizRuleset())
    game = lobby.table_create(host=host, ruleset="malefiz", seat_count=3, auto_start=True)
    lobby.table_join(game_id=game.pk, user=b)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    lobby.table_join(game_id=game.pk, user=c)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == 1
