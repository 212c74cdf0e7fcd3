"""Walking a game's action log from its seed: the state after every version.

A game is fully reproducible from its options, seed and stored actions; the
same walk serves replays, the remis evidence and proves an import genuine.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.translation import gettext_noop

from ..models import Event, Game
from ..rules import IllegalAction, Ruleset
from ..rules.base import LongWork, implements, opening_state

REPLAYED_KINDS = {Event.Kind.ACT, Event.Kind.TIMEOUT, Event.Kind.LEAVE, Event.Kind.WORK}


# A stored replay keeps the state at least this often, after all long work and
# after every CHECKPOINT_CPU_SECONDS of stepping: a replay page walks at most
# that far (in versions and in CPU) before its first frame.
CHECKPOINT_EVERY = 25


CHECKPOINT_CPU_SECONDS = 0.01


def checkpoint_due(kind: str, version: int, last: int, spent: float = 0.0) -> bool:
    """Whether the state after ``version`` is kept (``last``: the latest one kept,
    ``spent``: the CPU seconds stepping took since)."""
    return (
        kind == Event.Kind.WORK
        or version - last >= CHECKPOINT_EVERY
        or spent >= CHECKPOINT_CPU_SECONDS
    )


def step(rs: Ruleset, state: Any, kind: str, seat: int | None, action: Any) -> Any:
    """The state after one logged event (platform-only events change nothing)."""
    return step_full(rs, state, kind, seat, action)[0]


def step_full(
    rs: Ruleset, state: Any, kind: str, seat: int | None, action: Any
) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """One logged event: the new state, the ruleset's events and long work's records."""
    if kind in (Event.Kind.ACT, Event.Kind.TIMEOUT, Event.Kind.LEAVE):
        if seat is None:
            raise IllegalAction(gettext_noop("This event names no seat."))
        if kind == Event.Kind.LEAVE:
            return (*rs.leave(state, seat), [])
        return (*rs.apply(state, seat, action), [])
    if kind == Event.Kind.WORK:
        if not implements(rs, LongWork):
            raise IllegalAction(gettext_noop("There is nothing to resolve."))
        return rs.do_work(state)
    return state, [], []


def opening(rs: Ruleset, game: Game) -> Any:
    """The game's state at version 1: its set-up, or the position it was
    continued from (``Game.opening``) with dice of its own seed."""
    return opening_state(rs, game.options, game.seat_count, game.seed, position_of(game))


def position_of(game: Game) -> dict[str, Any] | None:
    return game.opening["state"] if game.opening else None


def walk(
    rs: Ruleset,
    options: dict,
    seats: int,
    seed: int,
    log: Iterable,
    position: dict[str, Any] | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Yield (entry, state after it) for every entry (kind, seat, action) of a log
    (from the set-up, or from ``position``: see ``opening``)."""
    state = opening_state(rs, options, seats, seed, position)
    for entry in log:
        state = step(rs, state, entry[0], entry[1], entry[2])
        yield entry, state
