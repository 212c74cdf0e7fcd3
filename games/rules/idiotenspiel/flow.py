"""Phase flow: set-up, movement, the combat stages, the end of a turn.

Functions act on a :class:`Work`; they assume the action was already
checked by the ruleset and only move the game on.
"""

from __future__ import annotations

from dataclasses import replace

from .combat import attack_options, obliged, settle, stage_only
from .maps import MapData
from .movement import fits, reach_fields
from .outcome import outcome_of
from .scenarios import MARIAN_ID, ROBIN, SHERIFF, distance_to, near_fortress, setup_zone
from .state import Pos, Unit
from .work import Work

MARIAN_STEPS = 3  # Robin moves an unguarded Maid Marian up to 3 fields


def over(w: Work) -> bool:
    deciding = w.pending is not None and w.pending.kind == "capture"
    return (
        outcome_of(w.state.scenario, w.md, w.units, w.quiet, w.marian_killer, w.phase, deciding)
        is not None
    )


# -- set-up -------------------------------------------------------------------------


def placer(u: Unit, scenario: str) -> int:
    """Who places a unit: its owner, except the Sheriff places his prisoner Marian."""
    return SHERIFF if scenario == "marian" and u.id == MARIAN_ID else u.side


def unplaced(w: Work, seat: int) -> list[Unit]:
    scen = w.state.scenario
    return [u for u in w.units if u.alive and u.at is None and placer(u, scen) == seat]


def place_fields(w: Work, seat: int, u: Unit) -> list[int]:
    """Field indices where ``seat`` may place ``u`` now.

    In its zone, on terrain it may enter, away from enemy units, within its
    side's stacking. Near a fortress at least 2/3 of the units must stand
    inside it: while fewer stand there, a unit that can stand inside must go
    inside (the player picks which units by the order of placing), and a
    unit that cannot (cavalry, chariots, or the fortress is full) goes to the
    nearest field it may take whenever the units still to place could no
    longer fill the quota.
    """
    md = w.md
    scen = w.state.scenario
    if scen == "marian" and u.id == MARIAN_ID:
        zone = setup_zone(md, scen, SHERIFF, w.home[SHERIFF], w.zones[SHERIFF])
        return sorted(i for i in zone if any(v.side == SHERIFF and v.combatant for v in w.here(i)))
    zone = setup_zone(md, scen, seat, w.home[seat], w.zones[seat])
    ranges = md.ranges[u.kind]
    cands = sorted(
        i
        for i in zone
        if ranges[i]
        and not any(v.control != seat for v in w.here(i))
        and fits(w.counts(i, seat), u.kind)
    )
    if w.zones[seat] != "fortress" or not cands:
        return cands
    forts = near_fortress(md, w.home[seat])
    mine = [v for v in w.units if placer(v, scen) == seat]
    quota = (2 * len(mine) + 2) // 3
    inside = sum(1 for v in mine if v.at is not None and w.fi(v.at) in forts)
    if inside >= quota:
        return cands
    into = [i for i in cands if i in forts]
    if into:
        return into
    others = [v for v in mine if v.alive and v.at is None and v.id != u.id]
    able = sum(1 for v in others if any(md.ranges[v.kind][i] for i in forts))
    room = sum(3 - w.counts(i, seat)[0] for i in forts if fits(w.counts(i, seat), "infantry"))
    if inside + min(able, room) >= quota:
        return cands
    best = min(distance_to(md, i, forts) for i in cands)
    return [i for i in cands if distance_to(md, i, forts) == best]


def after_placement(w: Work, seat: int) -> None:
    other = 1 - seat
    if unplaced(w, other):
        w.active = other
    elif unplaced(w, seat):
        w.active = seat
    else:
        w.events.append({"type": "setup_over"})
        w.active = w.state.start_player
        w.turn = 0
        next_turn(w, first=True)


# -- movement ------------------------------------------------------------------------


def movable(w: Work, seat: int) -> list[Unit]:
    """Units of ``seat`` that may still move in this movement phase."""
    out = []
    for u in w.units:
        if u.side != seat or u.moved or not u.combatant:
            continue
        if w.phase == "grace" and u.at != w.last_from:
            continue
        out.append(u)
    return out


def takeable(w: Work, mover: Unit) -> list[Unit]:
    """Followers a unit may take along: its side's prisoners and own free civilians
    in its field that have not moved yet (its own prisoners always come)."""
    out = []
    assert mover.at is not None
    for v in w.here(w.fi(mover.at)):
        if v.moved or v.guard == mover.id:
            continue
        if (v.guard is not None and v.side != mover.side) or (
            v.guard is None and v.type == "civilian" and v.side == mover.side
        ):
            out.append(v)
    return out


def do_move(w: Work, u: Unit, to: Pos, facing: str | None, with_: list[str]) -> None:
    frm = u.at
    assert frm is not None
    new = replace(u, at=to, moved=True, facing=facing if facing is not None else u.facing)
    w.put(new)
    carried: list[str] = []
    for v in list(w.units):
        if not v.alive or v.at != frm:
            continue
        if v.guard == u.id or v.id in with_:
            guard = u.id if v.guard is not None else None
            w.put(replace(v, at=to, moved=True, guard=guard))
            carried.append(v.id)
    w.last_from = frm
    w.moved_any = True
    w.events.append(
        {
            "type": "moved",
            "seat": u.side,
            "unit": u.id,
            "from": list(frm),
            "to": list(to),
            "facing": new.facing,
            "with": carried,
        }
    )
    settle(w)


def end_movement(w: Work, reason: str) -> None:
    w.events.append({"type": "movement_over", "seat": w.active, "reason": reason})
    begin_combat(w)


def sandglass(w: Work) -> None:
    """The sandglass ran out: moves sent count; the units that started in the field
    being worked on may still move (a short grace phase), then the phase ends."""
    if (
        w.phase == "move"
        and w.last_from is not None
        and any(u.at == w.last_from for u in movable(w, w.active))
    ):
        w.phase = "grace"
        w.events.append({"type": "sandglass", "seat": w.active, "field": list(w.last_from)})
        return
    end_movement(w, "sandglass" if w.phase == "move" else "grace_over")


# -- combat stages ----------------------------------------------------------------------


def begin_combat(w: Work) -> None:
    w.phase = "combat"
    w.cstage = "mover"
    w.cseat = w.active
    w.obl = []
    w.pending = None
    w.events.append({"type": "combat", "seat": w.active})
    settle_stage(w)


def settle_stage(w: Work) -> None:
    """Move the combat phase on until a side has a fight to choose (or it ends)."""
    while w.phase == "combat" and w.pending is None and not over(w):
        if attack_options(w, w.cseat, stage_only(w)):
            return
        stage_done(w)


def stage_done(w: Work) -> None:
    """The acting side is done: the opponent's unfought units may attack after the
    mover; then whoever still owes a fight (a re-attack, the mover's shots); then
    the phase ends."""
    y = 1 - w.cseat
    if w.cstage == "mover":
        if attack_options(w, y):
            _stage(w, "opponent", y)
            return
    elif obliged(w, y):
        _stage(w, "cleanup", y)
        return
    w.events.append({"type": "combat_over", "seat": w.active})
    w.cstage = ""
    w.obl = []
    end_turn(w)


def _stage(w: Work, stage: str, seat: int) -> None:
    w.cstage, w.cseat = stage, seat
    w.events.append({"type": "combat_stage", "seat": seat, "stage": stage})


# -- end of turn -----------------------------------------------------------------------


def marian(w: Work) -> Unit | None:
    if w.state.scenario != "marian" or MARIAN_ID not in w.idx:
        return None
    return w.unit(MARIAN_ID)


def marian_fields(w: Work) -> list[Pos]:
    """Where Robin may move an unguarded Marian: up to 3 fields over ground
    infantry may enter, never into or past the Sheriff's units; her own field
    (staying) included."""
    m = marian(w)
    assert m is not None and m.at is not None
    md: MapData = w.md
    ranges = [MARIAN_STEPS if r else 0 for r in md.ranges["infantry"]]
    enemies = {w.fi(p) for p in w.enemy_fields(m.side)}
    found = reach_fields(md, ranges, w.fi(m.at), enemies, set(), w.home[m.side] or None)
    return [m.at] + [w.fpos(i) for i in sorted(found)]


def end_turn(w: Work) -> None:
    m = marian(w)
    if m is not None and w.active == SHERIFF and m.on_board and m.guard is None and not over(w):
        w.phase = "marian"
        w.events.append({"type": "marian_turn", "seat": ROBIN})
        return
    next_turn(w)


def next_turn(w: Work, first: bool = False) -> None:
    """Start the next player's movement phase (after set-up: the start player's)."""
    if not first:
        w.quiet = 0 if (w.moved_any or w.fought_any) else w.quiet + 1
        w.active = 1 - w.active
    for u in w.units:
        if u.moved or u.fights:
            w.put(replace(u, moved=False, fights=0))
    w.turn += 1
    w.phase = "move"
    w.last_from = None
    w.moved_any = w.fought_any = False
    w.cstage = ""
    w.obl = []
    w.pending = None
    if over(w):
        return
    w.events.append({"type": "turn", "seat": w.active, "turn": w.turn})
    if not movable(w, w.active):
        end_movement(w, "no_units")
