"""What this process knows is current, so that an idle ping costs no query.

Pages ping every 10 s to learn whether they missed anything. The answer comes
from here: kept current by the group messages the process receives anyway
(every move, table change and notification is pushed to it), and checked
against the database in one batched query, at most every ``PING_REFRESH_SECONDS``,
for everything the process's sockets watch: the safety net for a push lost
on its way (a Redis restart). N idle sockets cost N tiny pongs, not N queries.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings

from ..selectors.frames import dumps, ping_states
from ..selectors.notifications import newest_ids
from ..selectors.tables import lobby_snapshot
from ..threads import closing_connections

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


# A restarted Redis forgets a socket's groups: each socket joins them again
# this often, on a ping (joining is idempotent), never on every ping.
REJOIN_SECONDS = 60.0


def rejoin_due(joined: float) -> bool:
    return time.monotonic() - joined >= REJOIN_SECONDS


def refresh_seconds() -> float:
    return float(settings.PING_REFRESH_SECONDS)


class OneRead:
    """One read at a time: callers that ask while one runs wait for it."""

    def __init__(self, read: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.read = read
        self.task: asyncio.Future[None] | None = None

    async def __call__(self) -> None:
        task = self.task
        # Tests run an event loop each: a read of another loop is no read.
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            task = self.task = asyncio.ensure_future(self.read())
        await asyncio.shield(task)


class Ledger(Generic[K, V]):
    """Per process: a value for each key that sockets here watch.

    Pushes update it (``saw``); ``current`` answers from memory and, when the
    last check is older than ``refresh_seconds()``, first reads every watched
    key again in one call of ``load`` (one at a time: concurrent pings wait
    for the same read).
    """

    def __init__(
        self, load: Callable[[list[K]], dict[K, V]], merge: Callable[[V | None, V], V]
    ) -> None:
        self.load, self.merge = load, merge
        self.watchers: Counter[K] = Counter()
        self.values: dict[K, V] = {}
        self.checked = float("-inf")
        self.check = OneRead(self._read)

    def watch(self, key: K) -> None:
        self.watchers[key] += 1

    def unwatch(self, key: K) -> None:
        self.watchers[key] -= 1
        if self.watchers[key] <= 0:
            del self.watchers[key]
            self.values.pop(key, None)

    def saw(self, key: K, value: V) -> None:
        if key in self.watchers:
            self.values[key] = self.merge(self.values.get(key), value)

    async def current(self, key: K) -> V | None:
        if time.monotonic() - self.checked >= refresh_seconds() or key not in self.values:
            await self.check()
        return self.values.get(key)

    async def _read(self) -> None:
        keys = list(self.watchers)
        started = time.monotonic()
        found = await sync_to_async(closing_connections(self.load), thread_sensitive=False)(keys)
        for key in keys:
            if key in found and key in self.watchers:
                self.values[key] = self.merge(self.values.get(key), found[key])
        self.checked = started


def _newer_game(known: dict[str, Any] | None, seen: dict[str, Any]) -> dict[str, Any]:
    """A game's version, status and seats taken: the newer version wins (a
    read that started before a push must not undo it); at equal versions the
    later word (seats change without a version)."""
    if known is None or seen["version"] >= known["version"]:
        return {**(known or {}), **seen}
    return known


def _larger(known: int | None, seen: int) -> int:
    return seen if known is None else max(known, seen)


games: Ledger[int, dict[str, Any]] = Ledger(ping_states, _newer_game)
newest_notifications: Ledger[int, int] = Ledger(newest_ids, _larger)


class LobbyState:
    """The lobby as this process last knew it, and a token naming that state.

    The token is this process's id and a counter: a page that sends the token
    it holds gets a tiny pong when nothing changed since, the snapshot when
    it comes from another process or is behind.
    """

    def __init__(self) -> None:
        self.process = uuid.uuid4().hex[:8]
        self.changes = 0
        self.snapshot: dict[str, Any] | None = None
        self.known_counts: dict[str, int] = {}
        self.tables: dict[int, dict[str, Any]] = {}
        self.seen: dict[str, str] = {}  # change id -> the token after it
        self.checked = float("-inf")
        self.check = OneRead(self._read)

    @property
    def token(self) -> str:
        return f"{self.process}.{self.changes}"

    def apply(self, change: str, table: dict[str, Any], counts: dict[str, int] | None) -> str:
        """One table's change pushed to every lobby socket: applied and
        serialised once per process however many sockets hear it; returns
        the frame to send (with the token after the change). The counts come
        with it, so the next check finds nothing new and no page is sent a
        snapshot for a change it was pushed."""
        if change in self.seen:
            return self.seen[change]
        if table["status"] in ("open", "active"):
            self.tables[table["id"]] = table
        else:
            self.tables.pop(table["id"], None)
        if counts is not None:
            self.known_counts = counts
        self.changes += 1
        frame = {
            "type": "table",
            "table": table,
            "counts": self.frame_counts(),
            "lobby": self.token,
        }
        self.seen[change] = dumps(frame)
        if len(self.seen) > 1000:
            self.seen.pop(next(iter(self.seen)))
        return self.seen[change]

    async def current(self, max_age: float | None = None) -> str:
        """The token of the lobby as known now, read again when older than
        ``max_age`` (default: ``refresh_seconds()``)."""
        age = refresh_seconds() if max_age is None else max_age
        if time.monotonic() - self.checked >= age or self.snapshot is None:
            await self.check()
        return self.token

    async def _read(self) -> None:
        started = time.monotonic()
        listed = [i for i, t in self.tables.items() if t["status"] == "active"]
        read = sync_to_async(closing_connections(lobby_snapshot), thread_sensitive=False)
        fresh = await read(listed)
        tables = {table["id"]: table for table in fresh["tables"]}
        if self.snapshot is None or self.differs(tables, fresh):
            self.changes += 1
        self.tables, self.snapshot, self.checked = tables, fresh, started
        self.known_counts = fresh["counts"]

    def differs(self, tables: dict[int, dict[str, Any]], fresh: dict[str, Any]) -> bool:
        """Whether pages holding the current token miss something: another
        open table or count, or a live game they list that is over. Which
        live games are the most watched changes all the time; that alone
        sends no page a new snapshot (new pages get the new ranking)."""
        if fresh["counts"] != self.counts():
            return True
        if {i: t for i, t in tables.items() if t["status"] == "open"} != {
            i: t for i, t in self.tables.items() if t["status"] == "open"
        }:
            return True
        live = set(fresh["live_ids"])
        return any(t["status"] == "active" and i not in live for i, t in self.tables.items())

    def counts(self) -> dict[str, int]:
        """The counts last read, or pushed with a change."""
        return self.known_counts

    def frame_counts(self) -> dict[str, int]:
        """The counts, never fewer than the tables listed (a push can
        overtake the read that counted them)."""
        tables = self.tables.values()
        return {
            **self.counts(),  # and whether each count reached the cap
            "open": max(self.counts().get("open", 0), sum(t["status"] == "open" for t in tables)),
            "live": max(self.counts().get("live", 0), sum(t["status"] == "active" for t in tables)),
        }

    def frame(self) -> dict[str, Any]:
        tables = list(self.tables.values())
        return {
            "type": "tables",
            "tables": tables,
            "counts": self.frame_counts(),
            "lobby": self.token,
        }


lobby = LobbyState()


def forget() -> None:
    """Forget everything this process knew: the test suite runs many
    databases, one after another, in one process."""
    global games, newest_notifications, lobby
    games = Ledger(ping_states, _newer_game)
    newest_notifications = Ledger(newest_ids, _larger)
    lobby = LobbyState()
