"""A live Daphne for the API tests (no browser) and a reader of NDJSON streams."""

from __future__ import annotations

import json
import multiprocessing
import queue
import threading
from typing import Any

import requests
from channels.testing import ChannelsLiveServerTestCase

from accounts import tokens
from accounts.bot_upgrade import bot_upgrade
from tests.factories import make_user
from tests.live_env import restore_env, server_database_env, set_env

# As tests/browser/helpers.py says: the server process starts fresh, inheriting nothing.
multiprocessing.set_start_method("spawn", force=True)

WAIT = 20  # seconds any one line may take at most (a busy machine)


class LiveApiTestCase(ChannelsLiveServerTestCase):
    """Daphne in a subprocess on the SQLite test file; the bot worker moves at once."""

    serve_static = False
    SERVER_ENV = {
        "BOT_DELAY_MIN": "0",
        "BOT_DELAY_MAX": "0",
        "BOT_POLL_SECONDS": "0.05",
        "STREAM_KEEPALIVE_SECONDS": "2",
    }

    @classmethod
    def setUpClass(cls) -> None:
        cls.saved_env = set_env({**server_database_env(), **cls.SERVER_ENV})
        super().setUpClass()

    @classmethod
    def tearDownClass(cls) -> None:
        try:
            super().tearDownClass()
        finally:
            restore_env(cls.saved_env)

    def setUp(self) -> None:
        super().setUp()
        self.streams: list[Stream] = []
        self.addCleanup(lambda: [s.close() for s in self.streams])

    def person(self, name: str, scopes=("read", "play", "challenge"), bot: bool = False):
        user = make_user(name)
        if bot:
            user = bot_upgrade(user=user)
        return user, tokens.token_create(user=user, name="test", scopes=list(scopes))[1]

    def api(self, secret: str) -> requests.Session:
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {secret}"
        self.addCleanup(session.close)
        return session

    def post(self, secret: str, path: str, body: dict | None = None) -> dict:
        answer = self.api(secret).post(self.live_server_url + path, json=body or {}, timeout=WAIT)
        assert answer.status_code < 300, (path, answer.status_code, answer.text)
        return answer.json() if answer.content else {}

    def stream(self, secret: str, path: str) -> Stream:
        found = Stream(self.live_server_url + path, secret)
        self.streams.append(found)
        return found


class Stream:
    """A stream read in a thread of its own: each line (the raw text) in a queue."""

    END = None

    def __init__(self, url: str, secret: str) -> None:
        self.response = requests.get(
            url, headers={"Authorization": f"Bearer {secret}"}, stream=True, timeout=(5, WAIT)
        )
        self.status = self.response.status_code
        self.response.encoding = "utf-8"  # NDJSON names no charset; it is UTF-8
        self.raw: list[str] = []  # every line read, keep-alive lines too
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        try:
            for line in self.response.iter_lines(chunk_size=None, decode_unicode=True):
                self.raw.append(line)
                self.lines.put(line)
        except (requests.RequestException, AttributeError, ValueError):
            pass  # closed by the test
        finally:
            self.lines.put(self.END)

    def next_line(self) -> str | None:
        """The next line, empty ones included; None once the server ended the stream."""
        return self.lines.get(timeout=WAIT)

    def next(self) -> dict[str, Any] | None:
        """The next JSON line (keep-alive lines skipped); None at the end."""
        while True:
            line = self.next_line()
            if line is None:
                return None
            if line.strip():
                return json.loads(line)

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            found = self.next()
            assert found is not None, f"the stream ended before a {kind} line"
            if found["type"] == kind:
                return found

    def close(self) -> None:
        self.response.close()
