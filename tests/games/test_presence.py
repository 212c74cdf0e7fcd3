"""Who has a game open (games/store/presence.py): people, not tabs; in process
memory on the embedded default, in Redis across processes."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser

from games.models import Notification
from games.services import play
from games.store import presence
from games.store.presence import MemoryPresence, RedisPresence, person_key
from tests.db_threads import sync_to_async
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game

from .test_consumers import connect, receive


class Person:
    """A logged-in user as far as presence cares."""

    is_authenticated = True

    def __init__(self, pk: int) -> None:
        self.pk = pk


ANN, BOB, CARL = (person_key(Person(i), None, "-") for i in (1, 2, 3))


@pytest.fixture
def redis_prefix(redis_url):
    """A key prefix of this test's own in the shared Redis; its keys go at the end."""
    prefix = f"test-presence-{uuid.uuid4().hex[:10]}"
    yield redis_url, prefix
    import redis

    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)
    client.close()


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def store(request):
    if request.param == "memory":
        yield MemoryPresence()
        return
    url, prefix = request.getfixturevalue("redis_prefix")
    found = RedisPresence(url, prefix=prefix)
    yield found
    await found.aclose()


def test_person_is_the_user_else_the_session_else_the_socket():
    assert person_key(Person(7), "sess-key-123", "sock") == "u7"
    anon = person_key(AnonymousUser(), "sess-key-123", "sock")
    assert anon == person_key(None, "sess-key-123", "other-sock")
    assert "sess-key-123" not in anon  # a session key is a credential
    assert person_key(AnonymousUser(), None, "sock") != person_key(None, None, "other-sock")


async def test_two_tabs_of_one_spectator_count_once(store):
    assert await store.join(1, "tab-1", ANN, None) == 1
    assert await store.join(1, "tab-2", ANN, None) == 1
    assert await store.join(1, "tab-3", BOB, None) == 2
    assert store.spectators(1) == 2
    assert store.spectators(2) == 0  # another game
    assert await store.leave(1, "tab-1") == 2  # Ann still has a tab open
    assert await store.leave(1, "tab-2") == 1
    assert await store.leave(1, "tab-3") == 0
    assert await store.leave(1, "tab-3") == 0  # twice: nothing to forget
    assert store.spectators(1) == 0


async def test_many_games_are_counted_at_once(store):
    await store.join(1, "tab-1", ANN, None)
    await store.join(1, "tab-2", BOB, None)
    await store.join(2, "tab-3", ANN, 0)
    await store.join(3, "tab-4", BOB, None)
    assert store.spectators_of([1, 2, 3, 4]) == {1: 2, 2: 0, 3: 1, 4: 0}
    assert store.spectators_of([]) == {}
    for game, tab in [(1, "tab-1"), (1, "tab-2"), (2, "tab-3"), (3, "tab-4")]:
        await store.leave(game, tab)


async def test_the_most_watched_come_from_the_counts_not_from_every_game(store):
    """The lobby's ranking is written where counts are made (the batched
    ``count``) and read as a top few, whatever else is stored."""
    for game, tabs in [(1, [ANN]), (2, [ANN, BOB, CARL]), (3, [ANN, BOB]), (4, [])]:
        for n, person in enumerate(tabs):
            await store.join(game, f"tab-{game}-{n}", person, None)
        await store.count(game)
    assert store.most_watched(2) == [(2, 3), (3, 2)]
    assert store.most_watched(10) == [(2, 3), (3, 2), (1, 1)]
    await store.leave(2, "tab-2-0")
    await store.leave(2, "tab-2-1")
    await store.leave(2, "tab-2-2")
    await store.count(2)  # nobody left: out of the ranking
    assert store.most_watched(10) == [(3, 2), (1, 1)]


@pytest.mark.redis
async def test_a_dead_process_s_ranking_runs_out(redis_prefix):
    """An entry nobody renewed (its process died) is dropped by the next read."""
    import redis

    url, prefix = redis_prefix
    dead, alive = RedisPresence(url, prefix=prefix), RedisPresence(url, prefix=prefix)
    await dead.join(5, "tab", ANN, None)
    await dead.count(5)
    await alive.join(6, "tab", BOB, None)
    await alive.count(6)
    assert alive.most_watched(5) == [(6, 1), (5, 1)]
    client = redis.Redis.from_url(url)
    client.zadd(dead.watched_keys[1], {"5": time.time() - 1})  # its time ran out
    assert alive.most_watched(5) == [(6, 1)]
    assert client.zscore(dead.watched_keys[0], "5") is None
    client.close()
    await dead.aclose()
    await alive.aclose()


async def test_a_seated_player_is_no_spectator(store):
    assert await store.join(1, "ann-board", ANN, 0) == 0
    assert await store.join(1, "bob-watching", BOB, None) == 1
    # Ann's second tab is hers too: she holds a seat, so she watches no more than before.
    assert await store.join(1, "ann-second", ANN, None) == 1
    # Bob takes a seat: the socket says so again with its new seat.
    assert await store.join(1, "bob-watching", BOB, 1) == 0
    assert await store.leave(1, "ann-board") == 1  # Ann's remaining tab has no seat
    assert await store.leave(1, "ann-second") == 0


async def test_watching_names_the_users_with_the_page_open(store):
    await store.join(5, "ann", ANN, 0)
    await store.join(5, "bob", BOB, None)
    await store.join(6, "carl", CARL, None)
    assert store.watching(5, [1, 2, 3]) == {1, 2}
    assert store.watching(5, []) == set()
    await store.leave(5, "ann")
    assert store.watching(5, [1, 2, 3]) == {2}


async def wait_for(check, deadline: float, what: str) -> None:
    """Poll ``check`` until it holds, or fail after ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


@pytest.mark.redis
async def test_processes_add_up_and_a_dead_one_expires(redis_prefix):
    url, prefix = redis_prefix
    alive = RedisPresence(url, prefix=prefix, ttl=2, refresh_seconds=0.2, process_id="alive")
    dying = RedisPresence(url, prefix=prefix, ttl=2, process_id="dying")
    try:
        assert await alive.join(9, "a1", ANN, None) == 1
        assert await dying.join(9, "d1", BOB, None) == 2
        assert await dying.join(9, "d2", ANN, None) == 2  # Ann in both processes: once
        assert await alive.join(9, "a2", CARL, 1) == 2  # a player
        assert dying.watching(9, [1, 2, 3]) == {1, 2, 3}
        refresher = asyncio.create_task(alive.refresh_forever())
        try:
            # ``dying`` stops here (no refresh, no leave): its entries run out,
            # ``alive``'s are renewed.
            await wait_for(lambda: alive.spectators(9) == 1, 10, "the dead process's expiry")
            # By now ``alive``'s own writes are older than their expiry too:
            # wait for a refresh to renew them past this moment.
            now = time.time()
            procs = alive.procs_key(9)
            await wait_for(
                lambda: (alive.redis.sync.zscore(procs, "alive") or 0) > now + 1.5,
                10,
                "a refresh",
            )
            assert alive.redis.sync.ttl(alive.own(9, "w")) > 0
            assert alive.spectators(9) == 1, "the refresh keeps a live process's entries"
            assert alive.watching(9, [1, 2, 3]) == {1, 3}
        finally:
            refresher.cancel()
    finally:
        await alive.aclose()
        await dying.aclose()


@pytest.mark.redis
async def test_the_refresh_writes_again_what_redis_lost_or_kept(redis_prefix):
    url, prefix = redis_prefix
    one = RedisPresence(url, prefix=prefix, process_id="one")
    try:
        await one.join(3, "a", ANN, None)
        await one.join(3, "b", BOB, 0)
        one.redis.sync.delete(*one.redis.sync.keys(f"{prefix}:*"))  # a restarted Redis
        assert one.spectators(3) == 0
        await one.refresh()
        assert one.spectators(3) == 1
        assert one.watching(3, [1, 2]) == {1, 2}
        one.redis.sync.sadd(one.own(3, "w"), CARL)  # a leave whose write was lost
        assert one.spectators(3) == 2
        await one.refresh()
        assert one.spectators(3) == 1
        assert one.watching(3, [1, 2, 3]) == {1, 2}
    finally:
        await one.aclose()


# -- through the sockets ------------------------------------------------------

sockets = pytest.mark.django_db(transaction=True)


async def count_reaches(comm, count: int) -> None:
    """Watcher counts come batched (games/realtime/watchers.py): the frames
    until one says ``count``."""
    while (await receive(comm, "watchers", timeout=5))["count"] != count:
        pass


@sockets
async def test_the_page_counts_people_not_tabs(settings):
    settings.WATCHERS_BATCH_SECONDS = 0.05

    def build():
        white, black, fan = make_user(), make_user(), make_user()
        return started_game(players=[white, black]), white, fan

    game, white, fan = await sync_to_async(build)()
    path = f"/ws/game/{game.pk}/"
    board = await connect(path, white)
    assert (await receive(board, "hello"))["watchers"] == 0  # a player is no spectator
    await count_reaches(board, 0)  # its own arrival, told to all
    tab1 = await connect(path, fan)
    assert (await receive(tab1, "hello"))["watchers"] == 1
    await count_reaches(board, 1)
    tab2 = await connect(path, fan)
    assert (await receive(tab2, "hello"))["watchers"] == 1  # the same person again
    stranger = await connect(path)  # no login, no session: the socket is the person
    assert (await receive(stranger, "hello"))["watchers"] == 2
    await count_reaches(board, 2)
    await stranger.disconnect()
    await count_reaches(board, 1)
    await tab1.disconnect()
    assert presence.spectators(game.pk) == 1  # the other tab stays
    await tab2.disconnect()
    await count_reaches(board, 0)
    await board.disconnect()
    assert presence.spectators(game.pk) == 0


@sockets
async def test_no_turn_notice_for_a_player_with_the_game_open():
    def build():
        white, black = make_user(), make_user()
        return started_game(players=[white, black]), white, black  # correspondence

    game, white, black = await sync_to_async(build)()
    turns = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN, game=game)
    await sync_to_async(play.game_act)(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert await sync_to_async(list)(turns.values_list("user_id", flat=True)) == [black.pk]
    board = await connect(f"/ws/game/{game.pk}/", white)
    await receive(board, "hello")
    await sync_to_async(play.game_act)(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert await sync_to_async(turns.filter(user=white).count)() == 0
    await board.disconnect()
    # The page closed: the next turn is told again.
    await sync_to_async(play.game_act)(
        game_id=game.pk, user=white, version=3, action={"type": "move", "path": [[4, 9], [3, 9]]}
    )
    await sync_to_async(play.game_act)(
        game_id=game.pk, user=black, version=4, action={"type": "move", "path": [[5, 0], [6, 0]]}
    )
    assert await sync_to_async(turns.filter(user=white).count)() == 1


@pytest.mark.redis
async def test_a_join_a_leave_and_a_batched_count_are_one_round_trip_each(
    redis_prefix, settings, monkeypatch
):
    """Issue 53: a socket's opening and its close each wrote and counted in
    two round trips, and the batched watcher count took three more (the
    window's claim, the count, the ranking). Each is one script now."""
    import redis.asyncio

    url, prefix = redis_prefix
    settings.REDIS_PREFIX = prefix  # the window's key too goes with the test's keys
    store = RedisPresence(url, prefix=prefix)
    await store.join(9, "warm", CARL, None)  # the script is loaded once per server
    trips: list[str] = []
    command = redis.asyncio.Redis.execute_command
    pipeline = redis.asyncio.client.Pipeline.execute

    async def counted_command(self, *args, **options):
        if not isinstance(self, redis.asyncio.client.Pipeline):
            trips.append(str(args[0]))
        return await command(self, *args, **options)

    async def counted_pipeline(self, *args, **options):
        trips.append("pipeline")
        return await pipeline(self, *args, **options)

    monkeypatch.setattr(redis.asyncio.Redis, "execute_command", counted_command)
    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", counted_pipeline)
    assert await store.join(1, "tab-1", ANN, None) == 1
    assert await store.join(1, "tab-2", BOB, 0) == 1
    assert len(trips) == 2
    assert await store.count_on_turn(1, "watchers:1", 5.0) == (0.0, 1)  # the turn: counted
    wait, count = await store.count_on_turn(1, "watchers:1", 5.0)  # within the window
    assert 4.0 < wait <= 5.0 and count is None
    assert store.most_watched(5) == [(1, 1)]  # ranked with the count (the sync client)
    assert len(trips) == 4
    assert await store.leave(1, "tab-1") == 0
    assert len(trips) == 5
    await store.aclose()
