"""Immutable game state: units, the pending combat decision, the whole state.

Everything is a frozen value; the engine builds new states with
``dataclasses.replace``. ``encode``/``decode`` map a state to plain JSON and
back exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Pos = tuple[int, int]

UNIT_TYPES = (
    "infantry",
    "archer",
    "slinger",
    "shieldwall",
    "cavalry",
    "chariot",
    "elephant",
    "civilian",
)
MOVE_KIND = {
    "infantry": "infantry",
    "archer": "infantry",
    "slinger": "infantry",
    "shieldwall": "infantry",
    "civilian": "infantry",
    "cavalry": "cavalry",
    "chariot": "chariot",
    "elephant": "chariot",
}
RANGED = frozenset(("archer", "slinger"))
TWO_ATTACKS = frozenset(("chariot", "elephant"))


@dataclass(frozen=True, slots=True)
class Unit:
    """One piece. ``at`` is None before set-up and after elimination."""

    id: str
    side: int  # 0 Robin, 1 Sheriff: whose unit it is
    type: str
    leader: bool = False
    name: str = ""
    at: Pos | None = None
    alive: bool = True
    facing: str | None = None  # shield walls only
    guard: str | None = None  # a prisoner's guard (a unit of the other side)
    moved: bool = False  # moved in this movement phase
    fights: int = 0  # fights in this combat phase

    @property
    def kind(self) -> str:
        return MOVE_KIND[self.type]

    @property
    def civilian(self) -> bool:
        return self.type == "civilian"

    @property
    def prisoner(self) -> bool:
        return self.guard is not None

    @property
    def on_board(self) -> bool:
        return self.alive and self.at is not None

    @property
    def combatant(self) -> bool:
        """On the map, free and able to fight (civilians never are)."""
        return self.alive and self.at is not None and self.guard is None and self.type != "civilian"

    @property
    def control(self) -> int:
        """The side the piece's presence counts for: a prisoner is its captor's."""
        return 1 - self.side if self.guard is not None else self.side


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision that interrupts the combat stage.

    kind "defend": ``unit`` (a shot's target) rolls or declines; ``other`` the shooter,
    ``capture`` whether the shooter takes a beaten leader prisoner.
    kind "retreat": ``unit`` (the loser) picks one of ``options``; ``other`` the
    winner ("" when there is none), ``melee`` says whether an advance may follow into
    ``field`` (the loser's field before the retreat).
    kind "advance": ``unit`` (the winner) may move into ``field``.
    kind "capture": ``other`` (a defender) beat the attacking leader ``unit`` (on
    ``field``) with 6+; its side takes it prisoner or eliminates it. ``melee`` says
    whether the prisoner joins ``other``'s field (a melee captor not beaten itself).
    """

    kind: str
    seat: int
    unit: str
    other: str = ""
    melee: bool = False
    field: Pos | None = None
    options: tuple[Pos, ...] = ()
    capture: bool = False


@dataclass(frozen=True, slots=True)
class State:
    map_key: str
    scenario: str
    seed: int
    rng: int  # the next draw's counter
    sandglass: int  # seconds per movement phase; 0 = no timer (correspondence)
    units: tuple[Unit, ...]
    phase: str  # choose | setup | move | grace | combat | marian
    active: int  # whose turn it is (choose/setup: who acts next)
    start_player: int
    turn: int = 0  # movement turns begun, 1 for the first
    home: tuple[str, str] = ("", "")
    zones: tuple[str, str] = ("", "")
    last_from: Pos | None = None  # the field being worked on (the last move's start)
    moved_any: bool = False  # this turn saw a move
    fought_any: bool = False  # this turn saw a fight
    quiet: int = 0  # turns in a row without movement or combat
    cseat: int = 0  # the side acting in the combat stage
    cstage: str = ""  # mover | opponent | cleanup
    obligations: tuple[tuple[str, str], ...] = ()  # (must attack, retreated unit)
    pending: Pending | None = None
    marian_killer: int = -1  # the side that eliminated Maid Marian
    last: tuple[dict[str, Any], ...] = ()  # the events of the latest action


def _pos(p: Any) -> Pos | None:
    return None if p is None else (int(p[0]), int(p[1]))


def encode_state(s: State) -> dict[str, Any]:
    return {
        "map": s.map_key,
        "scenario": s.scenario,
        "seed": s.seed,
        "rng": s.rng,
        "sandglass": s.sandglass,
        "units": [
            [
                u.id,
                u.side,
                u.type,
                u.leader,
                u.name,
                None if u.at is None else list(u.at),
                u.alive,
                u.facing,
                u.guard,
                u.moved,
                u.fights,
            ]
            for u in s.units
        ],
        "phase": s.phase,
        "active": s.active,
        "start_player": s.start_player,
        "turn": s.turn,
        "home": list(s.home),
        "zones": list(s.zones),
        "last_from": None if s.last_from is None else list(s.last_from),
        "moved_any": s.moved_any,
        "fought_any": s.fought_any,
        "quiet": s.quiet,
        "cseat": s.cseat,
        "cstage": s.cstage,
        "obligations": [list(o) for o in s.obligations],
        "pending": None
        if s.pending is None
        else {
            "kind": s.pending.kind,
            "seat": s.pending.seat,
            "unit": s.pending.unit,
            "other": s.pending.other,
            "melee": s.pending.melee,
            "field": None if s.pending.field is None else list(s.pending.field),
            "options": [list(o) for o in s.pending.options],
            "capture": s.pending.capture,
        },
        "marian_killer": s.marian_killer,
        "last": list(s.last),
    }


def decode_state(d: dict[str, Any]) -> State:
    p = d["pending"]
    return State(
        map_key=d["map"],
        scenario=d["scenario"],
        seed=d["seed"],
        rng=d["rng"],
        sandglass=d["sandglass"],
        units=tuple(
            Unit(
                id=u[0],
                side=u[1],
                type=u[2],
                leader=u[3],
                name=u[4],
                at=_pos(u[5]),
                alive=u[6],
                facing=u[7],
                guard=u[8],
                moved=u[9],
                fights=u[10],
            )
            for u in d["units"]
        ),
        phase=d["phase"],
        active=d["active"],
        start_player=d["start_player"],
        turn=d["turn"],
        home=(d["home"][0], d["home"][1]),
        zones=(d["zones"][0], d["zones"][1]),
        last_from=_pos(d["last_from"]),
        moved_any=d["moved_any"],
        fought_any=d["fought_any"],
        quiet=d["quiet"],
        cseat=d["cseat"],
        cstage=d["cstage"],
        obligations=tuple((o[0], o[1]) for o in d["obligations"]),
        pending=None
        if p is None
        else Pending(
            kind=p["kind"],
            seat=p["seat"],
            unit=p["unit"],
            other=p["other"],
            melee=p["melee"],
            field=_pos(p["field"]),
            options=tuple((o[0], o[1]) for o in p["options"]),
            capture=p.get("capture", False),  # absent in states stored before it existed
        ),
        marian_killer=d["marian_killer"],
        last=tuple(d["last"]),
    )
