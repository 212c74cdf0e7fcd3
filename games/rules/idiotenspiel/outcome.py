"""The end of the game, computed from the position (never stored)."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Outcome, gettext_noop
from .maps import MapData
from .scenarios import MARIAN_ID, ROBIN, SHERIFF, inner_forest, island_castle, lower_castle
from .state import Unit

QUIET_TURNS = 2  # two turns in a row without movement and combat: a draw

REASON_QUIET = gettext_noop("two turns in a row passed without movement or combat")
REASON_BOTH_LEADERS = gettext_noop("both leaders were lost in the same combat phase")
REASON_LEADER = (
    gettext_noop("Robin Hood was eliminated or captured"),
    gettext_noop("the Sheriff was eliminated or captured"),
)
REASON_ALL = (
    gettext_noop("all of Robin Hood's units were eliminated"),
    gettext_noop("all of the Sheriff's units were eliminated"),
)
REASON_MARIAN_CASTLE = gettext_noop("the Sheriff brought Maid Marian into his castle")
REASON_MARIAN_ISLAND = gettext_noop("Maid Marian reached the island castle")
REASON_MARIAN_FOREST = gettext_noop("Maid Marian reached the inside of the great forest")
REASON_MARIAN_KILLED = (
    gettext_noop("Robin Hood's side killed Maid Marian and loses"),
    gettext_noop("the Sheriff's side killed Maid Marian and loses"),
)

SETUP_PHASES = ("choose", "setup")


def _win(seat: int, reason: str) -> Outcome:
    return {"winners": [seat], "draw": False, "reason": reason}


def outcome_of(
    scenario: str,
    md: MapData,
    units: Sequence[Unit],
    quiet: int,
    marian_killer: int,
    phase: str,
    deciding: bool = False,
) -> Outcome | None:
    """The result, or None while the game goes on. ``deciding``: a side is choosing
    whether to capture a leader it beat, so that fight's result is not known yet."""
    if phase in SETUP_PHASES or deciding:
        return None
    if scenario == "marian":
        found = _marian(md, units, marian_killer)
        if found is not None:
            return found
    else:
        found = _grundspiel(units)
        if found is not None:
            return found
    if quiet >= QUIET_TURNS:
        return {"winners": [], "draw": True, "reason": REASON_QUIET}
    return None


def _grundspiel(units: Sequence[Unit]) -> Outcome | None:
    lost = [False, False]
    alive = [False, False]
    for u in units:
        if u.leader and (not u.alive or u.guard is not None):
            lost[u.side] = True
        if u.alive and u.guard is None:
            alive[u.side] = True
    if lost[0] and lost[1]:
        return {"winners": [], "draw": True, "reason": REASON_BOTH_LEADERS}
    for side in (ROBIN, SHERIFF):
        if lost[side]:
            return _win(1 - side, REASON_LEADER[side])
        if not alive[side]:
            return _win(1 - side, REASON_ALL[side])
    return None


def _marian(md: MapData, units: Sequence[Unit], killer: int) -> Outcome | None:
    if killer >= 0:
        return _win(1 - killer, REASON_MARIAN_KILLED[killer])
    m = next((u for u in units if u.id == MARIAN_ID), None)
    if m is None or not m.alive or m.at is None:
        return None
    i = m.at[1] * md.width + m.at[0]
    if m.guard is not None:
        if i in lower_castle(md):
            return _win(SHERIFF, REASON_MARIAN_CASTLE)
        return None
    if i in island_castle(md):
        return _win(ROBIN, REASON_MARIAN_ISLAND)
    if i in inner_forest(md):
        return _win(ROBIN, REASON_MARIAN_FOREST)
    return None
