"""config/openings.py: socket handshakes in turn; a page that left is not
opened; one that waited too long is refused before any work. Driven through
the outermost app with Daphne's own shape of a connection (an asyncio queue
per socket), with an app that stands in for the site and records what it
was asked to open."""

from __future__ import annotations

import asyncio

import pytest

from config.openings import Openings


class Site:
    """Accepts each socket after ``work`` seconds, then waits for its end."""

    def __init__(self, work: float) -> None:
        self.work = work
        self.opened: list[str] = []
        self.running = 0
        self.most = 0

    async def __call__(self, scope, receive, send):
        message = await receive()
        assert message["type"] == "websocket.connect"
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(self.work)  # the handshake's reads
        self.running -= 1
        self.opened.append(scope["path"])
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass


class Page:
    def __init__(self, path: str) -> None:
        self.path = path
        self.queue: asyncio.Queue = asyncio.Queue()
        self.sent: list[dict] = []
        self.queue.put_nowait({"type": "websocket.connect"})

    async def send(self, message):
        self.sent.append(message)

    def leave(self) -> None:
        self.queue.put_nowait({"type": "websocket.disconnect", "code": 1001})

    @property
    def outcome(self) -> str:
        return self.sent[0]["type"] if self.sent else "nothing"


def run(gate: Openings, site: Site, page: Page) -> asyncio.Task:
    scope = {"type": "websocket", "path": page.path}
    return asyncio.ensure_future(gate(site, scope, page.queue.get, page.send))


@pytest.fixture
def limits(settings):
    settings.SOCKET_OPENINGS = 2
    settings.SOCKET_OPEN_WAIT_SECONDS = 0.25
    return settings


async def test_handshakes_run_in_turn_and_each_leaves_the_turn_once_accepted(limits):
    gate, site = Openings(), Site(work=0.02)
    pages = [Page(f"/ws/{i}/") for i in range(6)]
    tasks = [run(gate, site, p) for p in pages]
    while len(site.opened) < 6:
        await asyncio.sleep(0.01)
    assert site.most == 2  # never more than SOCKET_OPENINGS at once
    assert site.opened == [p.path for p in pages]  # in their order of arrival
    assert all(p.outcome == "websocket.accept" for p in pages)
    # Open sockets hold no turn: a seventh opens while all six stay open.
    late = Page("/ws/late/")
    tasks.append(run(gate, site, late))
    while late.outcome == "nothing":
        await asyncio.sleep(0.01)
    assert late.outcome == "websocket.accept"
    for p in [*pages, late]:
        p.leave()
    await asyncio.gather(*tasks)


async def test_a_page_that_left_while_waiting_is_not_opened(limits):
    gate, site = Openings(), Site(work=0.1)
    first, second, gone = Page("/ws/1/"), Page("/ws/2/"), Page("/ws/gone/")
    tasks = [run(gate, site, p) for p in (first, second, gone)]
    await asyncio.sleep(0.02)
    gone.leave()  # given up while the two before it are opened
    await asyncio.wait_for(tasks[2], 2)
    assert gone.outcome == "nothing" and "/ws/gone/" not in site.opened
    assert gate.dropped == 1
    first.leave()
    second.leave()
    await asyncio.gather(*tasks[:2])


async def test_an_opening_that_waited_too_long_is_refused_before_any_work(limits):
    gate, site = Openings(), Site(work=0.4)  # longer than SOCKET_OPEN_WAIT_SECONDS
    pages = [Page(f"/ws/{i}/") for i in range(3)]
    tasks = [run(gate, site, p) for p in pages]
    await asyncio.wait_for(tasks[2], 2)
    # The third waited 0.4 s for a turn: refused (Daphne answers 403).
    assert pages[2].outcome == "websocket.close" and "/ws/2/" not in site.opened
    assert gate.refused == 1
    for p in pages[:2]:
        while p.outcome == "nothing":
            await asyncio.sleep(0.01)
        assert p.outcome == "websocket.accept"
        p.leave()
    await asyncio.gather(*tasks[:2])
