"""A tiny sixth game, for the tests only: take-away (one heap, take 1 to 3 stones,
whoever takes the last stone wins). It is data plus functions: the platform
plays it through the ruleset contract alone, and ``registered`` adds it to
``RULESETS`` for one test and takes it away again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.rules import RULESETS
from games.rules.base import (
    Action,
    Event,
    IllegalAction,
    OptionField,
    Options,
    Outcome,
    Ruleset,
    gettext_noop,
)

MAX_TAKE = 3


@dataclass(frozen=True)
class NimState:
    heap: int
    to_move: int = 0
    last: int | None = None  # the seat that took the last stones


class NimRuleset(Ruleset[NimState]):
    slug: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    views_are_public: ClassVar[bool] = True
    perfect_information: ClassVar[bool] = True
    action_keys: ClassVar[dict[str, frozenset[str]]] = {"take": frozenset({"type", "count"})}

    def option_fields(self) -> list[OptionField]:
        return [
            {"name": "heap", "kind": "int", "label": "Stones", "default": 7, "min": 1, "max": 30}
        ]

    def setup(self, options: Options, seats: int, seed: int) -> NimState:
        return NimState(heap=options.get("heap", 7))

    def to_act(self, state: NimState) -> list[int]:
        return [] if state.heap == 0 else [state.to_move]

    def legal_actions(self, state: NimState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "count": n} for n in range(1, min(MAX_TAKE, state.heap) + 1)]

    def apply(self, state: NimState, seat: int, action: Action) -> tuple[NimState, list[Event]]:
        if seat not in self.to_act(state):
            raise IllegalAction(gettext_noop("It is not your turn."))
        if not isinstance(action, dict) or action not in self.legal_actions(state, seat):
            raise IllegalAction(gettext_noop("Take 1 to 3 stones, at most what is left."))
        count = action["count"]
        new = replace(state, heap=state.heap - count, to_move=1 - seat, last=seat)
        return new, [{"type": "took", "seat": seat, "count": count, "heap": new.heap}]

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        return {"phase": "play", "heap": state.heap, "to_move": state.to_move}

    def outcome(self, state: NimState) -> Outcome | None:
        if state.heap or state.last is None:
            return None
        return {"winners": [state.last], "draw": False, "reason": "took the last stone"}

    def encode(self, state: NimState) -> dict[str, Any]:
        return {"heap": state.heap, "to_move": state.to_move, "last": state.last}

    def decode(self, data: dict[str, Any]) -> NimState:
        return NimState(heap=data["heap"], to_move=data["to_move"], last=data["last"])


@contextmanager
def registered() -> Iterator[NimRuleset]:
    """Nim in ``RULESETS`` for the ``with`` block only (every module reads the one dict)."""
    rs = NimRuleset()
    assert rs.slug not in RULESETS
    RULESETS[rs.slug] = rs
    try:
        yield rs
    finally:
        del RULESETS[rs.slug]
