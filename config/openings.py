"""Socket handshakes in turn, and none for a page that has left.

A page whose process restarts or dies comes back with every other page of
that process within a second or two (games/realtime/draining.py's retry
hints). Each opening costs its process about 12 ms of CPU (session and user,
the hello's reads, presence and the watcher count in Redis). Taken all at
once on a busy machine, they progress together and all of them slowly: past
the page's 6 s (socket.js ``CONNECT_MS``; 5 s for bench/rolling.py's pages)
every one is given up and tried afresh, while the process still does the
work of the ones given up. Measured with 200 games behind nginx at a load of
13-26: 18,536 handshakes given up (nginx's 499) in one roll, and sockets
back after up to 122 s.

So, in the outermost app (config/drain.py's ``Gate``), before the session
and the user are read:

- at most ``SOCKET_OPENINGS`` (8) handshakes of a process run at once, the
  rest wait in their order of arrival (the first pages are back soon,
  instead of all of them late);
- an opening whose page closed while it waited is dropped without any work
  (Daphne put its ``websocket.disconnect`` behind the ``websocket.connect``);
- an opening that waited longer than ``SOCKET_OPEN_WAIT_SECONDS`` (4: the
  page is about to give it up) is refused at once (403 before the
  handshake: nothing read), and the page tries again after its backoff.

A handshake leaves the turn when it is accepted or refused; what the socket
does after that is not held back.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.conf import settings


class Openings:
    """One process's turn for socket handshakes (one per event loop)."""

    def __init__(self) -> None:
        self._gate: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0  # pages gone while waiting
        self.refused = 0  # waited too long

    def gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._gate is None or self._loop is not loop:  # tests run a loop each
            self._gate = asyncio.Semaphore(max(1, int(settings.SOCKET_OPENINGS)))
            self._loop = loop
        return self._gate

    async def __call__(self, app: Any, scope: dict[str, Any], receive: Any, send: Any) -> None:
        loop = asyncio.get_running_loop()
        arrived = loop.time()
        gate = self.gate()
        await gate.acquire()
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                gate.release()

        try:
            waited = loop.time() - arrived
            first = await receive()  # websocket.connect, there from the start
            queued = [first]
            if first["type"] == "websocket.connect":
                left = await _already_there(receive)
                if left is not None:
                    queued.append(left)
                    if left["type"] == "websocket.disconnect":
                        self.dropped += 1
                        return  # the page is gone: nothing to open, nothing to close
            if waited > float(settings.SOCKET_OPEN_WAIT_SECONDS):
                self.refused += 1
                await send({"type": "websocket.close"})  # before the handshake: 403
                return

            async def replayed() -> Any:
                return queued.pop(0) if queued else await receive()

            async def sending(message: dict[str, Any]) -> None:
                if message["type"] in ("websocket.accept", "websocket.close"):
                    release()
                await send(message)

            await app(scope, replayed, sending)
        finally:
            release()


async def _already_there(receive: Any) -> dict[str, Any] | None:
    """The next message if it has already come (a page that left), else None;
    nothing is lost when there is none (an asyncio queue's get is cancelled
    cleanly)."""
    task = asyncio.ensure_future(receive())
    await asyncio.sleep(0)  # one turn of the loop: a waiting message is taken now
    if task.done():
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return None


openings = Openings()
