"""The NDJSON streams in this process (the ASGI app, the in-memory layer):
refusals, the first lines, the caps, revocation, and no leak after 500
clients that connect and go away mid-stream."""

from __future__ import annotations

import asyncio
import gc
import json
from itertools import pairwise

import pytest
from channels.layers import get_channel_layer
from channels.testing import ApplicationCommunicator

from accounts import tokens
from config.asgi import application
from games.realtime import stream_base
from games.realtime.stream_events import EventStream
from games.services.endings import game_resign
from lobby import tournaments
from lobby.services import table_create, table_decline, table_join
from tests.db_threads import sync_to_async
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_counts():
    stream_base.forget()
    yield
    stream_base.forget()


def stream(path: str, secret: str | None, address: str = "198.51.100.4") -> ApplicationCommunicator:
    headers = [(b"host", b"testserver")]
    if secret is not None:
        headers.append((b"authorization", f"Bearer {secret}".encode()))
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "headers": headers,
        "client": (address, 40000),
        "server": ("testserver", 80),
    }
    return ApplicationCommunicator(application, scope)


async def opened(path: str, secret: str | None, **kw) -> tuple[ApplicationCommunicator, dict]:
    comm = stream(path, secret, **kw)
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await comm.receive_output(timeout=5)
    assert start["type"] == "http.response.start"
    return comm, start


async def body(comm: ApplicationCommunicator) -> dict:
    out = await comm.receive_output(timeout=5)
    assert out["type"] == "http.response.body", out
    return out


async def line(comm: ApplicationCommunicator) -> dict:
    """The next non-empty line (each line comes as a body message of its own)."""
    while True:
        out = await body(comm)
        if out["body"].strip():
            return json.loads(out["body"])


async def refusal(path: str, secret: str | None, **kw) -> tuple[int, dict]:
    comm, start = await opened(path, secret, **kw)
    answer = await body(comm)
    assert not answer.get("more_body")
    await comm.wait(timeout=5)
    return start["status"], json.loads(answer["body"])


def token_of(user, scopes=("read", "play", "challenge")) -> str:
    return tokens.token_create(user=user, name="t", scopes=list(scopes))[1]


async def test_refusals_are_clear_and_leave_nothing_open():
    user = await sync_to_async(make_user)()
    reader = await sync_to_async(token_of)(user, ["read"])
    player = await sync_to_async(token_of)(user, ["play"])
    status, error = await refusal("/api/stream/events/", None)
    assert (status, error["code"]) == (401, "login_required")
    status, error = await refusal("/api/stream/events/", "bsp_unknown")
    assert (status, error["code"]) == (401, "bad_token")
    status, error = await refusal("/api/stream/events/", player)
    assert (status, error["code"]) == (403, "scope")
    status, error = await refusal("/api/stream/games/999999/", reader)
    assert (status, error["code"]) == (404, "not_found")
    assert stream_base.open_streams() == 0


async def test_a_game_stream_starts_with_an_empty_line_then_the_full_state():
    white, black, other = [await sync_to_async(make_user)() for _ in range(3)]
    game = await sync_to_async(started_game)(players=[white, black])
    comm, start = await opened(
        f"/api/stream/games/{game.pk}/", await sync_to_async(token_of)(black)
    )
    assert start["status"] == 200
    assert (b"content-type", b"application/x-ndjson") in start["headers"]
    assert (await body(comm))["body"] == b"\n"
    full = await line(comm)
    assert full["type"] == "full" and full["seat"] == 1 and full["version"] == 1
    assert full["state"]["legal"] == []  # white moves first
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)
    # Someone without a seat: the spectators' state.
    comm, _ = await opened(f"/api/stream/games/{game.pk}/", await sync_to_async(token_of)(other))
    full = await line(comm)
    assert full["seat"] is None and full["state"]["legal"] == []
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


async def test_an_idle_stream_gets_one_keep_alive_line_a_period_not_two(settings):
    """Issue 54: an idle stream costs one empty line per keep-alive period
    (ticking at half the period wrote one every half period)."""
    settings.STREAM_KEEPALIVE_SECONDS = 1.0
    user = await sync_to_async(make_user)()
    _, secret = await sync_to_async(tokens.token_create)(user=user, name="t", scopes=["read"])
    comm, _ = await opened("/api/stream/events/", secret)
    assert (await body(comm))["body"] == b"\n"  # the first line, at once
    loop = asyncio.get_running_loop()
    seen = [loop.time()]
    for _ in range(3):
        assert (await body(comm))["body"] == b"\n"  # nothing but keep-alive lines
        seen.append(loop.time())
    gaps = [later - earlier for earlier, later in pairwise(seen)]
    assert min(gaps) >= 0.8, gaps  # one a period (a late tick only makes a gap longer)
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


async def test_a_revoked_tokens_stream_ends_at_once():
    user = await sync_to_async(make_user)()
    made, secret = await sync_to_async(tokens.token_create)(user=user, name="t", scopes=["read"])
    comm, _ = await opened("/api/stream/events/", secret)
    assert (await body(comm))["body"] == b"\n"
    await sync_to_async(tokens.token_revoke)(user=user, token_id=made.pk)
    last = await body(comm)
    assert last["body"] == b"" and not last["more_body"]
    await comm.wait(timeout=5)
    assert stream_base.open_streams() == 0


async def test_the_events_stream_tells_waiting_challenges_and_running_games():
    host, me = [await sync_to_async(make_user)() for _ in range(2)]
    table = await sync_to_async(table_create)(host=host, ruleset="halma", challenge=me.username)
    game = await sync_to_async(started_game)(players=[host, me])
    comm, _ = await opened("/api/stream/events/", await sync_to_async(token_of)(me))
    first, second = await line(comm), await line(comm)
    assert first["type"] == "challenge" and first["table"]["id"] == table.pk
    assert second == {"type": "game_start", "game": {"id": game.pk, "ruleset": "halma", "seat": 1}}
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


def others_play(players: list) -> None:
    """Lobby activity of other accounts: open tables, a challenge declined,
    games that start and end."""
    for a, b in zip(players[::2], players[1::2], strict=True):
        table_create(host=a, ruleset="halma")
        declined = table_create(host=a, ruleset="halma", challenge=b.username)
        table_decline(game_id=declined.pk, user=b)
        game = started_game(players=[a, b])
        game_resign(game_id=game.pk, user=b)


async def test_an_events_stream_wakes_only_for_its_own_accounts_events(monkeypatch):
    me, host, *others = [await sync_to_async(make_user)() for _ in range(12)]
    handled: list[dict] = []
    dispatch = EventStream.dispatch

    async def counting(self, message):
        if not message["type"].startswith("http."):
            handled.append(message)
        await dispatch(self, message)

    monkeypatch.setattr(EventStream, "dispatch", counting)
    comm, _ = await opened("/api/stream/events/", await sync_to_async(token_of)(me))
    assert (await body(comm))["body"] == b"\n"
    await sync_to_async(others_play)(others)
    mine = await sync_to_async(table_create)(
        host=host, ruleset="halma", challenge=me.username, auto_start=True
    )
    assert (await line(comm))["type"] == "challenge"
    # The layer delivers in order: anything of the others' would have come first.
    assert handled, "the own challenge was handled"
    for message in handled:
        payload = message.get("payload", {})
        about = (
            message.get("table", {}).get("id")
            or payload.get("game")
            or payload.get("notification", {}).get("game")
        )
        assert about == mine.pk, f"woken for someone else's {message['type']}"
    count = len(handled)
    await sync_to_async(table_join)(game_id=mine.pk, user=me)
    assert (await line(comm))["type"] == "game_start"
    await sync_to_async(game_resign)(game_id=mine.pk, user=host)
    assert (await line(comm))["type"] == "game_finish"
    assert len(handled) > count
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


def started_tournament(players: list) -> int:
    made = tournaments.tournament_create(
        creator=players[0], name="Nightly", ruleset="halma", system="round_robin"
    )
    for user in players:
        tournaments.tournament_join(tournament_id=made.pk, user=user)
    tournaments.tournament_start(tournament_id=made.pk, user=players[0])
    return made.pk


async def test_a_round_with_a_game_waiting_is_told_on_the_events_stream():
    players = [await sync_to_async(make_user)() for _ in range(4)]
    me = players[1]
    comm, _ = await opened("/api/stream/events/", await sync_to_async(token_of)(me))
    assert (await body(comm))["body"] == b"\n"
    tournament_id = await sync_to_async(started_tournament)(players)
    start = await line(comm)
    assert start["type"] == "game_start"
    told = await line(comm)
    assert told == {
        "type": "tournament_round",
        "tournament": {"id": tournament_id, "name": "Nightly", "round": 1, "rounds": 3},
        "game": start["game"],
    }
    # Its end pairs nothing yet (the other board plays on); the next round,
    # once every game of this one ended, is told again.
    await sync_to_async(game_resign)(game_id=start["game"]["id"], user=me)
    assert (await line(comm))["type"] == "game_finish"
    other = await sync_to_async(running_other)(tournament_id, start["game"]["id"])
    await sync_to_async(game_resign)(game_id=other.pk, user=other.seats.first().user)
    assert (await line(comm))["type"] == "game_start"
    told = await line(comm)
    assert told["type"] == "tournament_round" and told["tournament"]["round"] == 2
    await comm.send_input({"type": "http.disconnect"})
    await comm.wait(timeout=5)


def running_other(tournament_id: int, mine: int):
    from games.models import Game

    return (
        Game.objects.filter(tournament_pairing__tournament_id=tournament_id, status="active")
        .exclude(pk=mine)
        .prefetch_related("seats__user")
        .get()
    )


async def test_streams_per_account_and_per_address_are_capped(settings):
    settings.STREAMS_PER_ACCOUNT, settings.STREAMS_PER_ADDRESS = 2, 3
    one, two = [await sync_to_async(make_user)() for _ in range(2)]
    a, b = await sync_to_async(token_of)(one), await sync_to_async(token_of)(two)
    held = [(await opened("/api/stream/events/", a))[0] for _ in range(2)]
    status, error = await refusal("/api/stream/events/", a)
    assert (status, error["code"]) == (429, "too_many_streams")
    held.append((await opened("/api/stream/events/", b))[0])
    status, error = await refusal("/api/stream/events/", b)  # the address is full
    assert (status, error["code"]) == (429, "too_many_streams")
    ok, _ = await opened("/api/stream/events/", b, address="198.51.100.5")
    held.append(ok)
    for comm in held:
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(timeout=5)
    held = [(await opened("/api/stream/events/", a))[0] for _ in range(2)]  # places given back
    for comm in held:
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(timeout=5)


def memberships() -> int:
    layer = get_channel_layer()
    return sum(len(members) for members in layer.groups.values())


async def test_500_clients_gone_mid_stream_leak_nothing():
    # The in-memory layer is the process's: what earlier tests on this worker
    # left there expires while this test runs (60 s) and would change the count.
    await get_channel_layer().flush()
    white, black = [await sync_to_async(make_user)() for _ in range(2)]
    game = await sync_to_async(started_game)(players=[white, black])
    secret = await sync_to_async(token_of)(black)
    paths = ["/api/stream/events/", f"/api/stream/games/{game.pk}/"]
    # A first round starts what lives on (the keep-alive task, the counters).
    for path in paths:
        comm, _ = await opened(path, secret)
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(timeout=5)
    gc.collect()
    tasks, members = len(asyncio.all_tasks()), memberships()
    for i in range(500):
        comm, start = await opened(paths[i % 2], secret)
        assert start["status"] == 200
        await body(comm)  # the empty first line: it is streaming
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(timeout=5)
    gc.collect()
    assert stream_base.open_streams() == 0
    assert memberships() == members
    assert len(asyncio.all_tasks()) <= tasks
    store = stream_base.counts()
    assert sum(store.counts.values()) == 0
