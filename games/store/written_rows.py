"""The game rows this event loop wrote last, to decide the next move from.

Measured (bench/move_probe.py): of a paced move's time on the server, the
lock's round trip was the largest step left (1.1-1.3 ms at the median, of
5-7 ms), and at saturation the lock was half of a batch's statements. In a
game whose moves come to one process, the row the lock would read is the
one this loop has just written. So each loop keeps, per game, the values it
committed with the row's new ``xmin`` and the seats' holders it read; the
next move at that version is decided from a copy of them and written with a
guard (``rows.guarded_statement``): the write happens only if the row, its
seats and the mover's sanctions are still what the decision assumed, and
the move goes to the lock otherwise. One round trip instead of two.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from ..models import Game
from . import rows

_ATTNAMES = [f.attname for f in rows.GAME_FIELDS]
# The state is replaced by every event, never changed in place: shared, not copied.
_SHARED = {"state", "options", "clock"}
_COPIED = [index for index, name in enumerate(_ATTNAMES) if name not in _SHARED]


@dataclass(frozen=True)
class WrittenRow:
    """A game row as this loop committed it."""

    values: list[Any]  # rows.GAME_FIELDS' values
    holders: dict[int, int | None]
    xmin: str

    @property
    def version(self) -> int:
        return self.values[_VERSION]

    def game(self) -> Game:
        """A Game of these values, which become its own (a decision changes
        them in place): for a row taken out of ``WrittenRows`` only."""
        return Game.from_db(DEFAULT_DB_ALIAS, _ATTNAMES, self.values)


_VERSION = _ATTNAMES.index("version")


def _copied(values: list[Any]) -> list[Any]:
    """The values with their lists and dicts copied (clocks change in place)."""
    values = list(values)
    for index in _COPIED:
        if isinstance(values[index], list | dict):
            values[index] = _json_copy(values[index])
    return values


def _json_copy(value: Any) -> Any:
    """A copy of a JSON document (half of ``copy.deepcopy``'s time: no memo)."""
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    return value


class WrittenRows:
    """One event loop's last written rows, the newest ``LIMIT`` games."""

    LIMIT = 2_000  # a Halma row holds some 7 kB: about 14 MB at most

    def __init__(self) -> None:
        self._rows: OrderedDict[int, WrittenRow] = OrderedDict()

    def remember(self, game: Game, holders: dict[int, int | None], xmin: str) -> None:
        """``game`` as just committed (copied now: the change's side effects
        and frames go on reading it)."""
        if game.status != Game.Status.ACTIVE:
            self._rows.pop(game.pk, None)
            return
        values = _copied([getattr(game, name) for name in _ATTNAMES])
        self._rows[game.pk] = WrittenRow(values, dict(holders), xmin)
        self._rows.move_to_end(game.pk)
        if len(self._rows) > self.LIMIT:
            self._rows.popitem(last=False)

    def take(self, game_id: int, version: int) -> WrittenRow | None:
        """The row of ``game_id`` if it was written at ``version``, taken out
        (the move's commit puts back what it writes)."""
        row = self._rows.get(game_id)
        if row is None or row.version != version:
            return None
        return self._rows.pop(game_id)

    def __len__(self) -> int:
        return len(self._rows)
