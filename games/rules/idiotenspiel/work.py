"""The scratch copy of a state that one ``apply`` works on.

``apply`` never touches its input: it copies the unit tuple into a list, keeps
a field index -> unit slots table in step with it, records events, and
freezes the result into a new :class:`State` at the end.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base import draw
from .maps import MAPS, MapData
from .movement import fits, reachable
from .state import Pending, Pos, State, Unit


class Work:
    """Mutable working copy of a state (never shared, never stored)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.md: MapData = MAPS[state.map_key]
        self.units: list[Unit] = list(state.units)
        self.idx: dict[str, int] = {u.id: k for k, u in enumerate(self.units)}
        self.cells: dict[int, list[int]] = {}
        w = self.md.width
        for k, u in enumerate(self.units):
            if u.alive and u.at is not None:
                self.cells.setdefault(u.at[1] * w + u.at[0], []).append(k)
        self.events: list[dict[str, Any]] = []
        self.rng = state.rng
        self.phase = state.phase
        self.active = state.active
        self.turn = state.turn
        self.home = state.home
        self.zones = state.zones
        self.last_from = state.last_from
        self.moved_any = state.moved_any
        self.fought_any = state.fought_any
        self.quiet = state.quiet
        self.cseat = state.cseat
        self.cstage = state.cstage
        self.obl: list[tuple[str, str]] = list(state.obligations)
        self.pending: Pending | None = state.pending
        self.marian_killer = state.marian_killer
        self.followers = any(u.guard is not None or u.type == "civilian" for u in self.units)

    # -- units and fields ----------------------------------------------------
    def unit(self, uid: str) -> Unit:
        return self.units[self.idx[uid]]

    def put(self, new: Unit) -> None:
        """Replace a unit, keeping the field index in step."""
        k = self.idx[new.id]
        old = self.units[k]
        if old.at != new.at or old.alive != new.alive:
            w = self.md.width
            if old.alive and old.at is not None:
                cell = self.cells[old.at[1] * w + old.at[0]]
                cell.remove(k)
            if new.alive and new.at is not None:
                self.cells.setdefault(new.at[1] * w + new.at[0], []).append(k)
        self.units[k] = new
        if new.guard is not None or new.type == "civilian":
            self.followers = True

    def fi(self, p: Pos) -> int:
        return p[1] * self.md.width + p[0]

    def fpos(self, i: int) -> Pos:
        return (i % self.md.width, i // self.md.width)

    def here(self, i: int) -> list[Unit]:
        units = self.units
        return [units[k] for k in self.cells.get(i, ())]

    def around(self, p: Pos) -> list[Unit]:
        """Units in a field and its 8 neighbours."""
        i = self.fi(p)
        units, cells = self.units, self.cells
        out = [units[k] for k in cells.get(i, ())]
        for n in self.md.neigh[i]:
            ks = cells.get(n)
            if ks:
                out.extend(units[k] for k in ks)
        return out

    def counts(self, i: int, side: int, skip: str = "") -> tuple[int, int, int]:
        """One side's infantry/cavalry/chariot count in field ``i`` (combatants only)."""
        inf = cav = cha = 0
        for k in self.cells.get(i, ()):
            u = self.units[k]
            if u.side != side or u.guard is not None or u.type == "civilian" or u.id == skip:
                continue
            kind = u.kind
            if kind == "infantry":
                inf += 1
            elif kind == "cavalry":
                cav += 1
            else:
                cha += 1
        return inf, cav, cha

    def enemy_fields(self, side: int) -> list[Pos]:
        """Fields holding combatants of the other side (they block and threaten)."""
        out: set[Pos] = set()
        for u in self.units:
            if u.side != side and u.combatant:
                out.add(u.at)  # type: ignore[arg-type]
        return list(out)

    def full_fields(self, side: int, kind: str, skip: str) -> list[Pos]:
        """Fields a unit of ``kind`` may not enter because its side's stack is full."""
        out: list[Pos] = []
        for i in self.cells:
            if not fits(self.counts(i, side, skip), kind):
                out.append(self.fpos(i))
        return out

    def targets(self, u: Unit) -> list[Pos]:
        """Where a unit may move now (the public ``reachable`` helper decides)."""
        assert u.at is not None
        found = reachable(
            self.md,
            u.kind,
            u.at,
            self.enemy_fields(u.side),
            self.full_fields(u.side, u.kind, u.id),
            home=self.home[u.side] or None,
        )
        return [(p[0], p[1]) for p in found]

    def leader(self, side: int) -> Unit | None:
        for u in self.units:
            if u.side == side and u.leader:
                return u
        return None

    def aura(self, side: int) -> tuple[str, set[Pos]] | None:
        """The leader's id and the fields its +1 reaches: its own and every field
        it could reach with a legal move of at most 3 fields (stacking aside)."""
        lead = self.leader(side)
        if lead is None or not lead.combatant:
            return None
        assert lead.at is not None
        found = reachable(
            self.md, lead.kind, lead.at, self.enemy_fields(side), (), home=self.home[side] or None
        )
        fields = {(p[0], p[1]) for p in found}
        fields.add(lead.at)
        return lead.id, fields

    def roll(self) -> int:
        value = draw(self.state.seed, self.rng, 6) + 1
        self.rng += 1
        return value

    def freeze(self) -> State:
        return replace(
            self.state,
            rng=self.rng,
            units=tuple(self.units),
            phase=self.phase,
            active=self.active,
            turn=self.turn,
            home=self.home,
            zones=self.zones,
            last_from=self.last_from,
            moved_any=self.moved_any,
            fought_any=self.fought_any,
            quiet=self.quiet,
            cseat=self.cseat,
            cstage=self.cstage,
            obligations=tuple(sorted(set(self.obl))),
            pending=self.pending,
            marian_killer=self.marian_killer,
            last=tuple(self.events),
        )
