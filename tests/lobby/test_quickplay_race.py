"""Quick play at the same instant: seekers of one kind end in pairs.

Real threads on a real database (the test command runs tests/lobby on
SQLite and again on PostgreSQL): without one transaction per find-or-create,
two seekers each find no seek and each leave one, side by side.
"""

from __future__ import annotations

import threading
from functools import partial

import pytest

from games.models import Game, Seat
from lobby import services as lobby
from tests.factories import make_user
from tests.together import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def seek_at_once(users: list, **kind) -> list:
    return at_once([partial(lobby.table_quickplay, user=user, **kind) for user in users])


def open_seeks(ruleset: str = "halma") -> int:
    return Game.objects.filter(ruleset=ruleset, is_quickplay=True, status=Game.Status.OPEN).count()


@pytest.mark.parametrize("attempt", range(3))
def test_simultaneous_seekers_end_in_pairs(attempt):
    users = [make_user() for _ in range(6)]
    results = seek_at_once(users, ruleset="halma")
    assert all(isinstance(r, Game) for r in results), results
    assert open_seeks() == 0
    started = Game.objects.filter(is_quickplay=True, status=Game.Status.ACTIVE)
    assert started.count() == 3
    for user in users:
        assert Seat.objects.filter(user=user).count() == 1, user


def test_an_odd_seeker_leaves_one_seek_and_other_kinds_do_not_pair():
    users = [make_user() for _ in range(5)]
    results = seek_at_once(users, ruleset="halma")
    assert all(isinstance(r, Game) for r in results), results
    assert open_seeks() == 1
    # Another clock is another kind of seek: no pairing across kinds.
    other = make_user()
    lobby.table_quickplay(user=other, ruleset="halma", clock={"kind": "realtime", "minutes": 5})
    assert open_seeks() == 2


def test_one_user_seeking_twice_at_once_leaves_one_seek():
    user = make_user()
    results = seek_at_once([user, user, user], ruleset="halma")
    assert all(isinstance(r, Game) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert open_seeks() == 1


def test_seekers_of_another_kind_do_not_wait():
    """The lock is per kind of seek: a seeker of a 5-minute game passes while a
    transaction holds the lock of the default clock's seeks."""
    from django.db import connection, connections, transaction

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises every writer; only PostgreSQL locks per kind")
    held, release = threading.Event(), threading.Event()

    def hold_default_kind() -> None:
        try:
            with transaction.atomic():
                lobby._serialise_seeks("halma", 2, {}, {"kind": "correspondence", "days": 3})
                held.set()
                release.wait(30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_default_kind)
    holder.start()
    assert held.wait(30)
    try:
        other = threading.Thread(
            target=seek_at_once,
            args=([make_user()],),
            kwargs={"ruleset": "halma", "clock": {"kind": "realtime", "minutes": 5}},
        )
        other.start()
        other.join(20)
        assert not other.is_alive(), "a seeker of another kind waited for the lock"
    finally:
        release.set()
        holder.join(30)
    assert open_seeks() == 1
