"""A small TCP proxy a test controls, for dropping a browser's connections for real.

``page.context.set_offline(True)`` leaves open websockets alone, so a reconnect
test built on it proves nothing. Put this proxy between one browser and the
live server instead, and call :meth:`TcpProxy.drop`: every open connection is
closed (the browser sees its websocket close) and, while ``refusing`` is on,
new connections are accepted and closed straight away. :meth:`TcpProxy.stall`
is a network gone silent instead: nothing is closed, nothing gets through.

Threads, not asyncio: the sync Playwright API already owns an event loop in
the test thread, and a handful of connections need nothing cleverer.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, listen_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server((listen_host, 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._refuse_until = 0.0
        self._refusing = False
        self._stopped = threading.Event()
        self.accepted = 0  # connections forwarded
        self.refused = 0  # connections closed at once while refusing
        self.turned_away = threading.Event()  # set by the first refused connection
        self.dropped = 0  # connections closed by drop()
        self._stalled = threading.Event()
        self._held: list[socket.socket] = []  # connections accepted while stalled
        self.first_swallowed: float | None = None  # when the page's text frame first went nowhere
        self.last_text_out: float | None = None  # when the page last sent a text frame at all
        self._thread = threading.Thread(target=self._accept_loop, name="tcp-proxy", daemon=True)
        self._thread.start()

    # -- control ---------------------------------------------------------------
    @property
    def refusing(self) -> bool:
        return self._refusing or time.monotonic() < self._refuse_until

    def drop(self, refuse_for: float = 0.0, refuse: bool = False) -> int:
        """Close every open connection; refuse new ones for ``refuse_for`` seconds
        (or until :meth:`allow` when ``refuse`` is true). Returns how many were closed."""
        with self._lock:
            if refuse:
                self._refusing = True
            if refuse_for:
                self._refuse_until = time.monotonic() + refuse_for
            victims = list(self._open)
            self._open.clear()
        for sock in victims:
            _kill(sock)
        self.dropped += len(victims)
        return len(victims)

    def stall(self) -> None:
        """Forward nothing, close nothing: bytes either way are swallowed and new
        connections hang (the way a dead network looks to both ends)."""
        self.first_swallowed = None
        self._stalled.set()

    def resume(self) -> None:
        """Forward again; the stalled connections lost bytes, so they are closed."""
        self._stalled.clear()
        with self._lock:
            held, self._held = self._held, []
        for sock in held:
            _kill(sock)
        self.drop()

    def allow(self) -> None:
        """Accept and forward new connections again."""
        with self._lock:
            self._refusing = False
            self._refuse_until = 0.0

    def close(self) -> None:
        self._stopped.set()
        self.resume()
        with contextlib.suppress(OSError):
            self._listener.close()
        self._thread.join(timeout=2)

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ----------------------------------------------------------------
    def _accept_loop(self) -> None:
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            if self._stalled.is_set():
                with self._lock:
                    self._held.append(client)
                continue
            if self.refusing:
                self.refused += 1
                self.turned_away.set()
                _kill(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _kill(client)
                continue
            with self._lock:
                self._open.update((client, upstream))
            self.accepted += 1
            for src, dst, outbound in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self._pump, args=(src, dst, outbound), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, outbound: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                # The page's own frames only (websocket opcode 1, text): not the
                # browser's pong to the server's protocol-level ping.
                page_frame = outbound and data[0] & 0x0F == 0x1
                if page_frame:
                    self.last_text_out = time.monotonic()
                if self._stalled.is_set():
                    if page_frame and self.first_swallowed is None:
                        self.first_swallowed = time.monotonic()
                    continue
                dst.sendall(data)
        except OSError:
            pass
        finally:
            # One side ended: end both, the way a dropped link looks to each end.
            with self._lock:
                self._open.discard(src)
                self._open.discard(dst)
            _kill(src)
            _kill(dst)


def _kill(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
