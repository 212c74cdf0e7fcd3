"""At most SOCKETS_PER_ADDRESS open sockets per client address, whichever
socket (game, lobby, notifications), logged in or not; a socket over the cap
is closed with 4429 and a reason in its language. Before, one address opened
as many as it liked."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.realtime.socket_cap import TOO_MANY_SOCKETS
from tests.db_threads import sync_to_async
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")


def socket(path: str, address: str, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=[ORIGIN, *headers])
    comm.scope["client"] = (address, 40000)
    return comm


async def opened(path: str, address: str, *headers: tuple[bytes, bytes]):
    comm = socket(path, address, *headers)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=3)  # the first frame: it is really open
    return comm


async def refused(path: str, address: str, *headers: tuple[bytes, bytes]) -> dict:
    comm = socket(path, address, *headers)
    connected, _ = await comm.connect()
    assert connected  # accepted, to say why it closes
    told = json.loads(await comm.receive_from(timeout=3))
    assert told["type"] == "error" and told["code"] == "too_many_sockets", told
    closed = await comm.receive_output(timeout=3)
    assert closed["type"] == "websocket.close", closed
    assert closed["reason"] == told["message"]
    return closed


async def test_one_address_opens_at_most_the_cap(settings):
    settings.SOCKETS_PER_ADDRESS = 3
    game = await sync_to_async(lambda: started_game(players=[make_user(), make_user()]))()
    paths = ["/ws/lobby/", f"/ws/game/{game.pk}/", "/ws/lobby/"]
    socks = [await opened(path, "203.0.113.7") for path in paths]
    closed = await refused(f"/ws/game/{game.pk}/", "203.0.113.7")
    assert closed["code"] == TOO_MANY_SOCKETS
    assert closed["reason"] == "Too many open connections from your address; close some pages."
    # Another address is not affected; one socket closing frees its place.
    other = await opened("/ws/lobby/", "203.0.113.8")
    await socks[0].disconnect()
    socks[0] = await opened("/ws/lobby/", "203.0.113.7")
    for comm in [*socks, other]:
        await comm.disconnect()


async def test_the_refusal_is_in_the_pages_language(settings):
    settings.SOCKETS_PER_ADDRESS = 1
    first = await opened("/ws/lobby/", "203.0.113.9")
    closed = await refused("/ws/lobby/", "203.0.113.9", (b"accept-language", b"de"))
    assert closed == {
        "type": "websocket.close",
        "code": TOO_MANY_SOCKETS,
        "reason": "Zu viele offene Verbindungen von deiner Adresse; schließe einige Seiten.",
    }
    await first.disconnect()


async def test_sockets_refused_by_the_consumer_give_their_place_back(settings):
    """A socket its consumer refuses (an unknown game) is no longer counted."""
    settings.SOCKETS_PER_ADDRESS = 1
    for _ in range(3):
        comm = socket("/ws/game/99999/", "203.0.113.10")
        connected, code = await comm.connect()
        assert (connected, code) == (False, 4404)
    last = await opened("/ws/lobby/", "203.0.113.10")
    await last.disconnect()


async def test_behind_the_proxy_the_address_is_the_proxys_entry(settings):
    settings.SOCKETS_PER_ADDRESS = 1
    settings.TRUSTED_PROXY_COUNT = 1
    forwarded = (b"x-forwarded-for", b"10.0.0.1, 198.51.100.4")
    first = await opened("/ws/lobby/", "127.0.0.1", forwarded)
    forged = (b"x-forwarded-for", b"10.0.0.2, 198.51.100.4")  # the client's own entry differs
    assert (await refused("/ws/lobby/", "127.0.0.1", forged))["code"] == TOO_MANY_SOCKETS
    await (
        await opened("/ws/lobby/", "127.0.0.1", (b"x-forwarded-for", b"198.51.100.5"))
    ).disconnect()
    await first.disconnect()


async def test_without_a_proxy_a_forged_forwarded_for_changes_nothing(settings):
    settings.SOCKETS_PER_ADDRESS = 1
    first = await opened("/ws/lobby/", "203.0.113.11")
    forged = (b"x-forwarded-for", b"198.51.100.99")
    assert (await refused("/ws/lobby/", "203.0.113.11", forged))["code"] == TOO_MANY_SOCKETS
    await first.disconnect()
