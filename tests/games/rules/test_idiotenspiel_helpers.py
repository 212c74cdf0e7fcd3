"""Shared builders for the Idiotenspiel tests (no tests here): positions on the probe map.

The probe map (12 x 8, y = 0 at the top)::

       0123456789AB
    0  ............
    1  ..hh..ff....
    2  ..hh..ff..r.
    3  ==========o~
    4  ...ss.FF..~.
    5  ...ss.FF..~.
    6  ......cc..o.
    7  ..........~.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.rules.base import draw
from games.rules.idiotenspiel import IdiotenspielRuleset
from games.rules.idiotenspiel.state import State, Unit

RS = IdiotenspielRuleset()
SEED = 7


def unit(uid: str, side: int, type_: str, at: tuple[int, int] | None, **kw: Any) -> Unit:
    return Unit(id=uid, side=side, type=type_, at=at, **kw)


def position(
    units: list[Unit],
    *,
    phase: str = "move",
    active: int = 0,
    home: tuple[str, str] = ("W", "E"),
    scenario: str = "grundspiel",
    map_key: str = "probe",
    sandglass: int = 30,
    rng: int = 0,
    leaders: bool = True,
    **kw: Any,
) -> State:
    """A position built directly; adds a far-away leader per side (rL at (0, 7), sL at
    (11, 7)) unless one is given or ``leaders`` is False."""
    sides_with_leader = {u.side for u in units if u.leader} if leaders else {0, 1}
    extra = []
    if 0 not in sides_with_leader:
        extra.append(unit("rL", 0, "infantry", (0, 7), leader=True, name="Robin Hood"))
    if 1 not in sides_with_leader:
        extra.append(unit("sL", 1, "infantry", (11, 7), leader=True, name="Sheriff"))
    return State(
        map_key=map_key,
        scenario=scenario,
        seed=SEED,
        rng=rng,
        sandglass=sandglass,
        units=tuple(units + extra),
        phase=phase,
        active=active,
        start_player=active,
        turn=1,
        home=home,
        zones=("edge", "edge"),
        **kw,
    )


def rigged(state: State, dice: list[int]) -> State:
    """The same state with the RNG counter moved to where the next dice are ``dice``."""
    c = 0
    while True:
        if all(draw(state.seed, c + k, 6) + 1 == d for k, d in enumerate(dice)):
            return replace(state, rng=c)
        c += 1


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    return RS.apply(state, seat, action)


def combat(state: State) -> State:
    """End the movement phase of the side to move; returns the combat state."""
    return act(state, state.active, {"type": "end_movement"})[0]


def at(state: State, uid: str) -> tuple[int, int] | None:
    return next(u.at for u in state.units if u.id == uid)


def get(state: State, uid: str) -> Unit:
    return next(u for u in state.units if u.id == uid)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
