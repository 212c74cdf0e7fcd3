"""The combat phase: pairings, fights, retreats, advances and prisoners.

All functions act on a :class:`Work` copy. A combat phase runs in stages: the
mover's ("mover"), then the opponent's unfought units ("opponent"), then
"cleanup" stages for a side that still owes a fight (a re-attack on a unit
that retreated next to it; for the mover also a shot). A stage cannot end
while its side has a mandatory fight; a stage ends by itself when its side
has no fight left to choose.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .maps import TERRAIN_NAMES, TERRAIN_TABLE, melee_terrain_bonus
from .movement import fits
from .sight import in_front, line_of_sight
from .state import RANGED, TWO_ATTACKS, Pending, Pos, Unit
from .work import Work

RANGE = 3  # ranged units reach 3 fields, counted like a move but ignoring terrain
ELIMINATE_AT = 6  # a result of 6 or more eliminates the opponent
COUNTS_FROM = 4  # in a shot, results of 1-3 count as 0

Attack = tuple[Unit, Unit, bool]  # attacker, target, melee


def cheb(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def can_attack(u: Unit) -> bool:
    return u.combatant and u.fights < (2 if u.type in TWO_ATTACKS else 1)


def unit_ref(u: Unit) -> dict[str, Any]:
    return {"unit": u.id, "side": u.side, "type": u.type, "leader": u.leader, "name": u.name}


# -- who must and who may fight ------------------------------------------------


def obliged(w: Work, seat: int) -> set[str]:
    """The seat's units that must still fight: melee and re-attack duties, and for
    the side that just moved also its shots (RULES.md §5)."""
    out = melee_duties(w, seat)
    if seat == w.active:
        out |= shot_duties(w, seat)
    return out


def melee_duties(w: Work, seat: int) -> set[str]:
    """Unfought units next to (or with) an unfought enemy, and units owing a
    re-attack on a unit that retreated next to them."""
    out: set[str] = set()
    for u in w.units:
        if u.side != seat or u.fights or not u.combatant:
            continue
        assert u.at is not None
        for v in w.around(u.at):
            if v.side != seat and v.fights == 0 and v.combatant:
                out.add(u.id)
                break
    for e, r in w.obl:
        eu, ru = w.unit(e), w.unit(r)
        if (
            eu.side == seat
            and eu.fights == 0
            and eu.combatant
            and ru.combatant
            and cheb(eu.at, ru.at) <= 1  # type: ignore[arg-type]
        ):
            out.add(e)
    return out


def shot_duties(w: Work, seat: int) -> set[str]:
    """Unfought ranged units with a target in range and sight that has not defended
    (a target that declined a roll has not: it stays a target)."""
    shooters = {
        u.id
        for u in w.units
        if u.side == seat and u.type in RANGED and u.fights == 0 and u.combatant
    }
    if not shooters:
        return set()
    return {a.id for a, _, is_melee in attack_options(w, seat, shooters) if not is_melee}


def sight_blockers(w: Work) -> set[Pos]:
    """Fields holding units other than civilians (they block a line of sight)."""
    return {u.at for u in w.units if u.on_board and u.type != "civilian"}  # type: ignore[misc]


def attack_options(w: Work, seat: int, only: set[str] | None = None) -> list[Attack]:
    """Every legal (attacker, target, melee) of a seat, optionally only some attackers."""
    out: list[Attack] = []
    owed = set(w.obl)
    blockers: set[Pos] | None = None
    md = w.md
    for u in w.units:
        if u.side != seat or not can_attack(u) or (only is not None and u.id not in only):
            continue
        assert u.at is not None
        pressed = False
        for v in w.around(u.at):
            if v.side == seat or not v.on_board or v.guard is not None:
                continue
            if v.type != "civilian":
                pressed = True
            if v.fights == 0 or (u.id, v.id) in owed:
                out.append((u, v, True))
        if u.type not in RANGED or pressed:
            continue
        ux, uy = u.at
        for y in range(max(0, uy - RANGE), min(md.height, uy + RANGE + 1)):
            for x in range(max(0, ux - RANGE), min(md.width, ux + RANGE + 1)):
                if max(abs(x - ux), abs(y - uy)) < 2:
                    continue
                for v in w.here(y * md.width + x):
                    if v.side == seat or v.fights or not v.combatant:
                        continue
                    if blockers is None:
                        blockers = sight_blockers(w)
                    if line_of_sight(md, u.at, (x, y), blockers):
                        out.append((u, v, False))
    return out


def stage_only(w: Work) -> set[str] | None:
    return obliged(w, w.cseat) if w.cstage == "cleanup" else None


# -- bonuses and dice -------------------------------------------------------------


def bonuses(w: Work, u: Unit, foe: Unit, melee: bool, defending: bool) -> list[dict[str, Any]]:
    """The modifiers of one side of a fight, each with its source."""
    assert u.at is not None and foe.at is not None
    out: list[dict[str, Any]] = []
    if melee:
        own = w.md.at(*u.at)
        other = w.md.at(*foe.at)
        entry = TERRAIN_TABLE[u.kind][own]
        base = entry[1] if entry else 0
        if base:
            out.append({"source": "terrain", "terrain": TERRAIN_NAMES[own], "value": base})
        extra = melee_terrain_bonus(u.kind, own, other) - base
        if extra:
            out.append({"source": "hill", "foe_terrain": TERRAIN_NAMES[other], "value": extra})
    if u.leader:
        out.append({"source": "leader", "unit": u.id, "value": 1})
    else:
        aura = w.aura(u.side)
        if aura is not None and u.at in aura[1]:
            out.append({"source": "aura", "leader": aura[0], "value": 1})
    if defending and u.type == "shieldwall" and u.facing and in_front(u.facing, foe.at, u.at):
        out.append({"source": "shieldwall", "facing": u.facing, "value": 1})
    return out


def _roll_side(w: Work, u: Unit, foe: Unit, melee: bool, defending: bool) -> dict[str, Any]:
    die = w.roll()
    bon = bonuses(w, u, foe, melee, defending)
    total = die + sum(b["value"] for b in bon)
    side = unit_ref(u)
    side.update(at=list(u.at), die=die, bonuses=bon, total=total)  # type: ignore[arg-type]
    return side


# -- resolving fights ---------------------------------------------------------------


def melee(w: Work, a: Unit, d: Unit, capture: bool) -> None:
    """One melee: both roll (a civilian does not); 6+ eliminates, else the lower retreats."""
    w.fought_any = True
    att = _roll_side(w, a, d, True, False)
    if d.type == "civilian":
        dfd = unit_ref(d)
        dfd.update(at=list(d.at), die=None, bonuses=[], total=None)  # type: ignore[arg-type]
        a_total, d_total = att["total"], None
    else:
        dfd = _roll_side(w, d, a, True, True)
        a_total, d_total = att["total"], dfd["total"]
    _spend(w, a, d, True)
    a, d = w.unit(a.id), w.unit(d.id)
    result: dict[str, Any] = {"eliminated": [], "captured": [], "retreat": None}
    w.events.append(
        {"type": "fight", "kind": "melee", "attacker": att, "defender": dfd, "result": result}
    )
    a_beaten = d_total is not None and d_total >= ELIMINATE_AT
    d_beaten = a_total >= ELIMINATE_AT
    if a_beaten or d_beaten:
        _beaten(w, a, d, (a_beaten, d_beaten), capture, True, result)
        return
    if d_total is None or a_total > d_total:
        result["retreat"] = d.id
        start_retreat(w, d, a, True, None)
    elif d_total > a_total:
        result["retreat"] = a.id
        start_retreat(w, a, d, True, None)


def shot(w: Work, a: Unit, d: Unit, rolls: bool, capture: bool = False) -> None:
    """One shot: results 1-3 (or a declined roll) count 0; 6+ eliminates (or captures a
    leader); else the lower retreats away from the other, the shooter too; equal
    results (0 against 0 included) have no effect."""
    w.fought_any = True
    att = _roll_side(w, a, d, False, False)
    att["counted"] = att["total"] if att["total"] >= COUNTS_FROM else 0
    if rolls:
        dfd = _roll_side(w, d, a, False, True)
        dfd["counted"] = dfd["total"] if dfd["total"] >= COUNTS_FROM else 0
    else:
        dfd = unit_ref(d)
        dfd.update(at=list(d.at), die=None, bonuses=[], total=None, counted=0)  # type: ignore[arg-type]
    dfd["declined"] = not rolls
    _spend(w, a, d, rolls)
    a, d = w.unit(a.id), w.unit(d.id)
    result: dict[str, Any] = {"eliminated": [], "captured": [], "retreat": None}
    w.events.append(
        {"type": "fight", "kind": "ranged", "attacker": att, "defender": dfd, "result": result}
    )
    ac, dc = att["counted"], dfd["counted"]
    d_beaten, a_beaten = ac >= ELIMINATE_AT, dc >= ELIMINATE_AT
    if a_beaten or d_beaten:
        _beaten(w, a, d, (a_beaten, d_beaten), capture, False, result)
        return
    if ac == dc:
        return
    if ac > dc:
        result["retreat"] = d.id
        start_retreat(w, d, a, False, a.at)
    else:
        result["retreat"] = a.id
        start_retreat(w, a, d, False, d.at)


def _spend(w: Work, a: Unit, d: Unit, defended: bool) -> None:
    """Count the fight for both (a declined shot does not count for the target);
    any attack settles the attacker's re-attack duties."""
    w.put(replace(a, fights=a.fights + 1))
    if defended:
        w.put(replace(d, fights=d.fights + 1))
    w.obl = [o for o in w.obl if o[0] != a.id]


def _eliminate(w: Work, u: Unit, by_side: int, reason: str) -> None:
    w.events.append(
        {"type": "eliminated", "unit": u.id, "side": u.side, "at": list(u.at), "reason": reason}  # type: ignore[arg-type]
    )
    w.put(replace(u, alive=False, at=None, guard=None))
    if u.type == "civilian" and w.state.scenario == "marian":
        w.marian_killer = by_side
    settle(w)


def _beaten(
    w: Work,
    a: Unit,
    d: Unit,
    beaten: tuple[bool, bool],
    capture: bool,
    is_melee: bool,
    result: dict[str, Any],
) -> None:
    """Settle a fight with a result of 6+: each beaten unit is eliminated or taken.

    The attacker chose to capture with its attack; a defender that beat an
    attacking leader chooses now (a pending decision). A captor beaten in the
    same fight cannot hold its prisoner, and only a melee captor takes the
    prisoner into its own field (RULES.md §5).
    """
    a_beaten, d_beaten = beaten
    d_taken = d_beaten and capture and (d.leader or d.type == "civilian")
    a_asks = a_beaten and a.leader
    if d_beaten and not d_taken:
        _eliminate(w, d, a.side, "fight")
        result["eliminated"].append(d.id)
    if a_beaten and not a_asks:
        _eliminate(w, a, d.side, "fight")
        result["eliminated"].append(a.id)
    if d_taken:
        take_prisoner(w, d.id, a.id, joins=is_melee and not a_beaten)
        result["captured"].append(d.id)
    if a_asks:
        result["beaten"] = [a.id]
        w.pending = Pending(
            kind="capture",
            seat=d.side,
            unit=a.id,
            other=d.id,
            melee=is_melee and not d_beaten,
            field=a.at,
        )


def decide_capture(w: Work, p: Pending, yes: bool) -> None:
    """The defender's side takes the leader it beat prisoner, or eliminates it."""
    leader = w.unit(p.unit)
    if yes:
        take_prisoner(w, p.unit, p.other, joins=p.melee)
    else:
        _eliminate(w, leader, 1 - leader.side, "fight")


def take_prisoner(w: Work, prisoner_id: str, captor_id: str, joins: bool) -> None:
    """A beaten leader (or civilian) is taken. With ``joins`` it follows its captor
    into the captor's field; otherwise it stays, guarded by a unit of the captor's
    side in its field, or free at once when there is none (a shooter's capture, a
    captor beaten in the same fight)."""
    p, captor = w.unit(prisoner_id), w.unit(captor_id)
    if joins:
        assert captor.at is not None, "a captor stands on the map"
        w.put(replace(p, at=captor.at, guard=captor.id))
        w.events.append(
            {
                "type": "captured",
                "unit": p.id,
                "by": captor.id,
                "at": list(captor.at),
                "how": "fight",
            }
        )
        settle(w)
        return
    assert p.at is not None
    w.events.append(
        {"type": "captured", "unit": p.id, "by": captor.id, "at": list(p.at), "how": "fight"}
    )
    keepers = [
        v for v in w.here(w.fi(p.at)) if v.side != p.side and v.combatant and v.id != captor.id
    ]
    if keepers:
        w.put(replace(p, guard=keepers[0].id))
        w.events.append({"type": "guard", "unit": p.id, "by": keepers[0].id})
    else:
        w.events.append({"type": "freed", "unit": p.id, "at": list(p.at)})
    settle(w)


# -- retreat and advance ----------------------------------------------------------------


def retreat_options(w: Work, u: Unit, away: Pos | None) -> list[Pos]:
    """Fields a beaten unit may retreat to: neighbours it may enter, free of the
    enemy, with room in its side's stack; after a shot, farther from the shooter."""
    assert u.at is not None
    md = w.md
    cur = w.fi(u.at)
    ranges = md.ranges[u.kind]
    out: list[Pos] = []
    for n in md.neigh[cur]:
        if not ranges[n]:
            continue
        if any(v.control != u.side for v in w.here(n)):
            continue
        if u.type != "civilian" and not fits(w.counts(n, u.side), u.kind):
            continue
        p = w.fpos(n)
        if away is not None and _d2(p, away) <= _d2(u.at, away):
            continue
        out.append(p)
    return out


def _d2(a: Pos, b: Pos) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def start_retreat(w: Work, loser: Unit, winner: Unit, is_melee: bool, away: Pos | None) -> None:
    """Retreat the loser: eliminated without a field, moved when there is one
    choice, else its owner chooses (a pending decision)."""
    origin = loser.at
    assert origin is not None
    opts = retreat_options(w, loser, away)
    if not opts:
        _eliminate(w, loser, winner.side, "no retreat")
        offer_advance(w, winner.id, origin, is_melee)
    elif len(opts) == 1:
        do_retreat(w, loser, opts[0])
        offer_advance(w, winner.id, origin, is_melee)
    else:
        w.pending = Pending(
            kind="retreat",
            seat=loser.side,
            unit=loser.id,
            other=winner.id,
            melee=is_melee,
            field=origin,
            options=tuple(opts),
        )


def do_retreat(w: Work, u: Unit, to: Pos) -> None:
    """Move a retreating unit (it leaves its prisoners behind, who may go free) and
    note who must attack it again: every unfought enemy next to its new field."""
    frm = u.at
    w.put(replace(u, at=to))
    w.events.append({"type": "retreated", "unit": u.id, "from": list(frm), "to": list(to)})  # type: ignore[arg-type]
    settle(w)  # free the prisoners left behind first: a freed leader may owe the re-attack
    if u.type != "civilian":
        for v in w.around(to):
            if v.side != u.side and v.combatant and v.fights == 0:
                w.obl.append((v.id, u.id))


def offer_advance(w: Work, winner_id: str, field: Pos, is_melee: bool) -> None:
    """After a melee retreat the winner may move into the loser's field."""
    if not is_melee:
        return
    win = w.unit(winner_id)
    if not win.combatant or win.at == field:
        return
    i = w.fi(field)
    if not w.md.ranges[win.kind][i] or not fits(w.counts(i, win.side), win.kind):
        return
    w.pending = Pending(kind="advance", seat=win.side, unit=win.id, field=field)


def do_advance(w: Work, u: Unit, to: Pos) -> None:
    frm = u.at
    w.put(replace(u, at=to))
    carried = carry_prisoners(w, u.id, to)
    w.events.append(
        {"type": "advanced", "unit": u.id, "from": list(frm), "to": list(to), "with": carried}  # type: ignore[arg-type]
    )
    settle(w)


def carry_prisoners(w: Work, guard: str, to: Pos) -> list[str]:
    moved = []
    for p in w.units:
        if p.guard == guard and p.alive:
            w.put(replace(p, at=to))
            moved.append(p.id)
    return moved


# -- prisoners and civilians ------------------------------------------------------------------


def settle(w: Work) -> None:
    """Keep prisoners with a guard and take unaccompanied civilians.

    A prisoner whose guard is gone passes to another captor unit in its field,
    else it is free at once; a free civilian alone with enemy units in its
    field is captured by one of them.
    """
    if not w.followers:
        return
    for k in range(len(w.units)):
        u = w.units[k]
        if not u.alive or u.at is None:
            continue
        if u.guard is not None:
            g = w.unit(u.guard)
            if g.combatant and g.at == u.at:
                continue
            keepers = [v for v in w.here(w.fi(u.at)) if v.side != u.side and v.combatant]
            if keepers:
                w.put(replace(u, guard=keepers[0].id))
                w.events.append({"type": "guard", "unit": u.id, "by": keepers[0].id})
            else:
                w.put(replace(u, guard=None))
                w.events.append({"type": "freed", "unit": u.id, "at": list(u.at)})
        elif u.type == "civilian":
            here = w.here(w.fi(u.at))
            if any(v.side == u.side and v.combatant for v in here):
                continue
            foes = [v for v in here if v.side != u.side and v.combatant]
            if foes:
                w.put(replace(u, guard=foes[0].id))
                w.events.append(
                    {
                        "type": "captured",
                        "unit": u.id,
                        "by": foes[0].id,
                        "at": list(u.at),
                        "how": "unaccompanied",
                    }
                )
