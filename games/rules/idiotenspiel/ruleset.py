"""Das Idiotenspiel: Robin Hood vs. the Sheriff (RULES.md §5).

Seat 0 plays Robin Hood, seat 1 the Sheriff of Nottingham. Actions, views
and events are documented in docs/rules/idiotenspiel.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from ..base import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    OptionField,
    Options,
    Outcome,
    PhaseTimer,
    Ruleset,
    draw,
    gettext_noop,
)
from . import combat as cb
from . import flow
from .action_fields import as_list, facing_field, opt_bool_field, pos_field, unit_field
from .maps import MAPS, TERRAIN_NAMES
from .movement import fits
from .outcome import outcome_of
from .scenarios import (
    FORCES,
    MARIAN_ID,
    MARIAN_NAME,
    OPPOSITE,
    ROBIN,
    SCENARIOS,
    SHERIFF,
    near_fortress,
    setup_zone,
    short_sides,
)
from .sight import FACINGS, facing_towards
from .state import Pending, Pos, State, Unit, decode_state, encode_state
from .work import Work

GRACE_SECONDS = 10  # Decision: the field being worked on gets at most 10 s more
SEAT_NAMES = (gettext_noop("Robin Hood"), gettext_noop("Sheriff of Nottingham"))
PHASE_ACTIONS = {
    "choose": ("choose_setup",),
    "setup": ("place",),
    "move": ("move", "end_movement", "sandglass"),
    "grace": ("move", "end_movement", "sandglass"),
    "combat": ("attack", "end_combat"),
    "marian": ("move_marian",),
}
PENDING_ACTIONS = {
    "defend": ("roll", "decline"),
    "retreat": ("retreat",),
    "advance": ("advance",),
    "capture": ("capture",),
}


class IdiotenspielRuleset(Ruleset[State], PhaseTimer[State]):
    slug: ClassVar[str] = "idiotenspiel"
    title: ClassVar[str] = gettext_noop("Das Idiotenspiel: Robin Hood vs. the Sheriff")
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        kind: frozenset({"type", *keys})
        for kind, keys in {
            "choose_setup": ("side", "zone"),
            "place": ("unit", "at", "facing"),
            "move": ("unit", "to", "with", "facing"),
            "end_movement": (),
            "sandglass": (),
            "attack": ("unit", "target", "kind", "capture"),
            "end_combat": (),
            "roll": (),
            "decline": (),
            "retreat": ("to",),
            "advance": ("yes",),
            "move_marian": ("to",),
        }.items()
    }

    # -- options ------------------------------------------------------------------------
    def option_fields(self) -> list[OptionField]:
        return [
            {
                "name": "scenario",
                "kind": "choice",
                "label": gettext_noop("Scenario"),
                "default": "grundspiel",
                "choices": [
                    ["grundspiel", gettext_noop("Grundspiel (general brawl)")],
                    ["marian", gettext_noop("Rettet Maid Marian! (save Maid Marian)")],
                ],
            },
            {
                "name": "map",
                "kind": "choice",
                "label": gettext_noop("Map"),
                "default": "die_burg",
                "help": gettext_noop("Rettet Maid Marian! is always played on Die Burg."),
                "choices": [
                    ["die_burg", gettext_noop("Die Burg")],
                    ["die_huegelkette", gettext_noop("Die Hügelkette")],
                ],
            },
            {
                "name": "sandglass",
                "kind": "int",
                "label": gettext_noop("Sandglass: seconds per movement phase (0: no timer)"),
                "default": 30,
                "min": 0,
                "max": 600,
            },
        ]

    def validate_options(self, options: Options) -> Options:
        clean = super().validate_options(options)
        if clean["scenario"] == "marian" and clean["map"] != "die_burg":
            raise InvalidOptions(gettext_noop("Rettet Maid Marian! is played on Die Burg."))
        return clean

    def seat_names(self, seats: int) -> list[str]:
        return list(SEAT_NAMES[:seats])

    # -- the game -----------------------------------------------------------------------
    def setup(self, options: Options, seats: int, seed: int) -> State:
        opts = self.validate_options(options)
        if seats != 2:
            raise InvalidOptions(gettext_noop("Das Idiotenspiel is played by two."))
        scenario = opts["scenario"]
        robin, sheriff = FORCES[scenario]
        units = [Unit(id=i, side=ROBIN, type=t, leader=ld, name=n) for i, t, ld, n in robin]
        units += [Unit(id=i, side=SHERIFF, type=t, leader=ld, name=n) for i, t, ld, n in sheriff]
        if scenario == "marian":
            units.append(Unit(id=MARIAN_ID, side=ROBIN, type="civilian", name=MARIAN_NAME))
            return State(
                map_key="die_burg",
                scenario=scenario,
                seed=seed,
                rng=0,
                sandglass=opts["sandglass"],
                units=tuple(units),
                phase="setup",
                active=SHERIFF,
                start_player=SHERIFF,
                home=("S", "N"),
                zones=("forest", "camp"),
            )
        start = draw(seed, 0, 2)
        return State(
            map_key=opts["map"],
            scenario=scenario,
            seed=seed,
            rng=1,
            sandglass=opts["sandglass"],
            units=tuple(units),
            phase="choose",
            active=start,
            start_player=start,
        )

    def single_action_turns(self, state: State) -> bool:
        # Only the set-up places one unit a turn; movement and combat are many
        # actions, and fights draw dice.
        return state.phase == "setup"

    def to_act(self, state: State) -> list[int]:
        if self.outcome(state) is not None:
            return []
        if state.phase == "combat":
            return [state.pending.seat if state.pending is not None else state.cseat]
        if state.phase == "marian":
            return [ROBIN]
        return [state.active]

    def outcome(self, state: State) -> Outcome | None:
        return outcome_of(
            state.scenario,
            MAPS[state.map_key],
            state.units,
            state.quiet,
            state.marian_killer,
            state.phase,
            deciding=state.pending is not None and state.pending.kind == "capture",
        )

    # -- applying actions ------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("An action must be a JSON object."))
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalAction(gettext_noop("An action needs a type."))
        if self.outcome(state) is not None:
            raise IllegalAction(gettext_noop("The game is over."))
        if seat not in self.to_act(state):
            raise IllegalAction(gettext_noop("It is not your turn."))
        allowed = (
            PENDING_ACTIONS[state.pending.kind]
            if state.phase == "combat" and state.pending is not None
            else PHASE_ACTIONS[state.phase]
        )
        if kind not in allowed:
            raise IllegalAction(
                gettext_noop("%(type)s is not possible now; allowed: %(allowed)s."),
                type=kind[:40],
                allowed=", ".join(allowed),
            )
        w = Work(state)
        getattr(self, "_do_" + kind)(w, seat, action)
        new = w.freeze()
        events = list(new.last)
        result = self.outcome(new)
        if result is not None:
            events.append({"type": "game_over", **result})
            new = replace(new, last=tuple(events))
        return new, events

    def _do_choose_setup(self, w: Work, seat: int, action: Action) -> None:
        zone = action.get("zone")
        if zone not in ("edge", "fortress"):
            raise IllegalAction(gettext_noop('zone must be "edge" or "fortress".'))
        sides = short_sides(w.md)
        first = w.home[seat] == ""
        side = action.get("side")
        if first:
            if side not in sides:
                raise IllegalAction(
                    gettext_noop("Choose one of the short map sides: %(sides)s."),
                    sides=", ".join(sides),
                )
        elif side is not None and side != w.home[seat]:
            raise IllegalAction(
                gettext_noop("Your side is the opposite one: %(side)s."), side=w.home[seat]
            )
        else:
            side = w.home[seat]
        if zone == "fortress" and not near_fortress(w.md, side):
            raise IllegalAction(
                gettext_noop("There is no fortress near the %(side)s edge."), side=side
            )
        if first:
            homes = [OPPOSITE[side], OPPOSITE[side]]
            homes[seat] = side
            w.home = (homes[0], homes[1])
        zones = list(w.zones)
        zones[seat] = zone
        w.events.append({"type": "setup_chosen", "seat": seat, "side": side, "zone": zone})
        other = 1 - seat
        if not zones[other]:
            if near_fortress(w.md, w.home[other]):
                w.zones = (zones[0], zones[1])
                w.active = other
                return
            zones[other] = "edge"
            w.events.append(
                {"type": "setup_chosen", "seat": other, "side": w.home[other], "zone": "edge"}
            )
        w.zones = (zones[0], zones[1])
        w.phase = "setup"
        w.active = w.state.start_player

    def _do_place(self, w: Work, seat: int, action: Action) -> None:
        u = unit_field(action, "unit", w)
        if not u.alive or u.at is not None or flow.placer(u, w.state.scenario) != seat:
            raise IllegalAction(gettext_noop("That unit is not one of yours waiting to be placed."))
        at = pos_field(action, "at", w)
        facing = facing_field(action, u, True)
        i = w.fi(at)
        if i not in flow.place_fields(w, seat, u):
            raise self._place_reason(w, seat, u, i)
        guard = None
        if u.side != seat:  # Maid Marian, the Sheriff's prisoner, joins a guard in the camp
            guard = next(v.id for v in w.here(i) if v.side == seat and v.combatant)
        w.put(replace(u, at=at, facing=facing, guard=guard))
        w.events.append(
            {"type": "placed", "seat": seat, "unit": u.id, "at": list(at), "facing": facing}
        )
        flow.after_placement(w, seat)

    @staticmethod
    def _place_reason(w: Work, seat: int, u: Unit, i: int) -> IllegalAction:
        md = w.md
        if u.side != seat:
            return IllegalAction(
                gettext_noop(
                    "Maid Marian is placed in a camp field with one of your units, her guard."
                )
            )
        if i not in setup_zone(md, w.state.scenario, seat, w.home[seat], w.zones[seat]):
            return IllegalAction(gettext_noop("That field lies outside your set-up zone."))
        if not md.ranges[u.kind][i]:
            return IllegalAction(gettext_noop("That unit may not enter that terrain."))
        if any(v.control != seat for v in w.here(i)):
            return IllegalAction(gettext_noop("That field holds enemy units."))
        if not fits(w.counts(i, seat), u.kind):
            return IllegalAction(
                gettext_noop(
                    "Stacking: at most 3 infantry, 2 cavalry, 1 cavalry + 1 infantry or 1 chariot per field."
                )
            )
        return IllegalAction(
            gettext_noop(
                "Set-up by a fortress: at least 2/3 of your units go inside it, or as close as possible if they do not fit."
            )
        )

    def _do_move(self, w: Work, seat: int, action: Action) -> None:
        u = unit_field(action, "unit", w)
        if u.side != seat:
            raise IllegalAction(gettext_noop("That is not your unit."))
        if u.type == "civilian":
            raise IllegalAction(
                gettext_noop(
                    'A civilian moves only with an escort: add it to the escort\'s "with".'
                )
            )
        if not u.combatant:
            raise IllegalAction(
                gettext_noop("That unit cannot move: it is not on the map or is a prisoner.")
            )
        if u.moved:
            raise IllegalAction(gettext_noop("Each unit moves once per movement phase."))
        if w.phase == "grace" and u.at != w.last_from:
            raise IllegalAction(
                gettext_noop(
                    "The sandglass has run out: only units from the field being worked on may still move."
                )
            )
        to = pos_field(action, "to", w)
        facing = facing_field(action, u, False)
        with_ = action.get("with", [])
        if not isinstance(with_, list) or not all(isinstance(x, str) for x in with_):
            raise IllegalAction(gettext_noop("with must be a list of unit ids."))
        if to == u.at:
            if u.type != "shieldwall" or facing is None:
                raise IllegalAction(
                    gettext_noop(
                        "A unit must move to another field; only a shield wall may turn in place."
                    )
                )
        elif to not in w.targets(u):
            raise self._move_reason(w, u, to)
        may = {v.id for v in flow.takeable(w, u)}
        for x in with_:
            if x not in w.idx:
                raise IllegalAction(gettext_noop("There is no unit %(unit)s."), unit=x[:40])
            if x not in may and w.unit(x).guard != u.id:
                raise IllegalAction(
                    gettext_noop("%(unit)s cannot go along with this unit."), unit=x
                )
        flow.do_move(w, u, to, facing, with_)

    @staticmethod
    def _move_reason(w: Work, u: Unit, to: Pos) -> IllegalAction:
        md = w.md
        i = w.fi(to)
        terrain = TERRAIN_NAMES[md.terrain[i]]
        if not md.ranges[u.kind][i]:
            return IllegalAction(
                gettext_noop("This unit may not enter %(terrain)s."), terrain=terrain
            )
        if to in w.enemy_fields(u.side):
            return IllegalAction(
                gettext_noop("Normal movement never enters a field held by the enemy.")
            )
        if not fits(w.counts(i, u.side), u.kind):
            return IllegalAction(gettext_noop("Stacking: that field has no room for this unit."))
        return IllegalAction(
            gettext_noop(
                "This unit cannot reach that field: its range is the smallest range of the fields it enters, it must stop next to an enemy, may not pass full or enemy fields, and leaves an enemy's field only towards its home edge."
            )
        )

    def _do_end_movement(self, w: Work, seat: int, action: Action) -> None:
        flow.end_movement(w, "player")

    def _do_sandglass(self, w: Work, seat: int, action: Action) -> None:
        flow.sandglass(w)

    def _do_attack(self, w: Work, seat: int, action: Action) -> None:
        u = unit_field(action, "unit", w)
        t = unit_field(action, "target", w)
        kind = action.get("kind")
        if kind is not None and kind not in ("melee", "ranged"):
            raise IllegalAction(gettext_noop('kind must be "melee" or "ranged".'))
        capture = opt_bool_field(action, "capture")
        found = None
        for a, d, is_melee in cb.attack_options(w, seat, cb.stage_only(w)):
            if a.id == u.id and d.id == t.id:
                found = is_melee
                break
        if found is None:
            raise self._attack_reason(w, seat, u, t)
        if kind is not None and (kind == "melee") != found:
            raise IllegalAction(
                gettext_noop("That target can only be attacked in %(kind)s."),
                kind="melee" if found else "ranged",
            )
        if capture is None:
            capture = t.type == "civilian"
        elif capture and not (t.leader or t.type == "civilian"):
            raise IllegalAction(gettext_noop("Only a leader or a civilian can be taken prisoner."))
        if found:
            cb.melee(w, u, t, capture)
        else:
            w.pending = Pending(kind="defend", seat=t.side, unit=t.id, other=u.id, capture=capture)
            w.events.append({"type": "shot", "attacker": u.id, "target": t.id})
        if w.pending is None:
            flow.settle_stage(w)

    @staticmethod
    def _attack_reason(w: Work, seat: int, u: Unit, t: Unit) -> IllegalAction:
        if u.side != seat:
            return IllegalAction(gettext_noop("That is not your unit."))
        if not u.combatant:
            return IllegalAction(
                gettext_noop(
                    "That unit cannot fight: it is not on the map, a prisoner or a civilian."
                )
            )
        if not cb.can_attack(u):
            return IllegalAction(
                gettext_noop(
                    "That unit has already fought in this combat phase (chariots and elephants twice)."
                )
            )
        only = cb.stage_only(w)
        if only is not None and u.id not in only:
            return IllegalAction(
                gettext_noop(
                    "Only units that must still fight (a re-attack on a retreated unit, or after moving a shot) may attack now."
                )
            )
        if t.side == seat or not t.on_board or t.guard is not None:
            return IllegalAction(gettext_noop("The target must be a free enemy unit on the map."))
        assert u.at is not None and t.at is not None
        dist = cb.cheb(u.at, t.at)
        if t.fights:
            return IllegalAction(
                gettext_noop("That enemy has already fought in this combat phase.")
            )
        if dist <= 1:
            return IllegalAction(gettext_noop("That attack is not possible."))
        if u.type not in ("archer", "slinger"):
            return IllegalAction(
                gettext_noop(
                    "Only archers and slingers attack from a distance; melee needs a neighbouring field."
                )
            )
        if t.type == "civilian":
            return IllegalAction(gettext_noop("Civilians can only be attacked in melee."))
        if any(v.side != seat and v.combatant for v in w.around(u.at)):
            return IllegalAction(
                gettext_noop("A ranged unit with an enemy next to it or in its field cannot shoot.")
            )
        if dist > cb.RANGE:
            return IllegalAction(gettext_noop("The target is out of range (3 fields)."))
        return IllegalAction(gettext_noop("There is no line of sight to the target."))

    def _do_roll(self, w: Work, seat: int, action: Action) -> None:
        self._defend(w, True)

    def _do_decline(self, w: Work, seat: int, action: Action) -> None:
        self._defend(w, False)

    @staticmethod
    def _defend(w: Work, rolls: bool) -> None:
        p = w.pending
        assert p is not None
        w.pending = None
        cb.shot(w, w.unit(p.other), w.unit(p.unit), rolls, p.capture)
        if w.pending is None:
            flow.settle_stage(w)

    def _do_retreat(self, w: Work, seat: int, action: Action) -> None:
        p = w.pending
        assert p is not None
        to = pos_field(action, "to", w)
        if to not in p.options:
            raise IllegalAction(
                gettext_noop("Retreat to one of: %(fields)s."),
                fields=", ".join(f"[{x}, {y}]" for x, y in p.options),
            )
        w.pending = None
        cb.do_retreat(w, w.unit(p.unit), to)
        if p.other and p.field is not None:
            cb.offer_advance(w, p.other, p.field, p.melee)
        if w.pending is None:
            flow.settle_stage(w)

    def _do_advance(self, w: Work, seat: int, action: Action) -> None:
        p = w.pending
        assert p is not None and p.field is not None
        yes = opt_bool_field(action, "yes")
        if yes is None:
            raise IllegalAction(gettext_noop("advance needs yes: true or false."))
        w.pending = None
        if yes:
            cb.do_advance(w, w.unit(p.unit), p.field)
        else:
            w.events.append({"type": "stayed", "unit": p.unit})
        flow.settle_stage(w)

    def _do_capture(self, w: Work, seat: int, action: Action) -> None:
        p = w.pending
        assert p is not None
        yes = opt_bool_field(action, "yes")
        if yes is None:
            raise IllegalAction(gettext_noop("capture needs yes: true or false."))
        w.pending = None
        cb.decide_capture(w, p, yes)
        flow.settle_stage(w)

    def _do_end_combat(self, w: Work, seat: int, action: Action) -> None:
        must = cb.melee_duties(w, seat)
        if must:
            raise IllegalAction(
                gettext_noop(
                    "Opposing units next to each other must fight: %(units)s still must attack."
                ),
                units=", ".join(sorted(must)),
            )
        shots = cb.obliged(w, seat)
        if shots:
            raise IllegalAction(
                gettext_noop(
                    "After moving, archers and slingers must shoot at a target in range and sight that has not defended: %(units)s still must shoot."
                ),
                units=", ".join(sorted(shots)),
            )
        flow.stage_done(w)
        flow.settle_stage(w)

    def _do_move_marian(self, w: Work, seat: int, action: Action) -> None:
        to = pos_field(action, "to", w)
        if to not in flow.marian_fields(w):
            raise IllegalAction(
                gettext_noop(
                    "Maid Marian moves up to 3 fields over ground infantry may enter, never into the Sheriff's fields, and stops next to them."
                )
            )
        m = w.unit(MARIAN_ID)
        if to != m.at:
            w.put(replace(m, at=to))
            w.moved_any = True
            w.events.append({"type": "marian_moved", "from": as_list(m.at), "to": list(to)})
        else:
            w.events.append({"type": "marian_stayed", "at": list(to)})
        flow.next_turn(w)

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        w = Work(state)
        phase = state.phase
        if phase == "choose":
            return self._legal_choose(w, seat)
        if phase == "setup":
            return self._legal_place(w, seat)
        if phase in ("move", "grace"):
            return self._legal_moves(w, seat)
        if phase == "combat":
            return self._legal_combat(w, seat)
        return [{"type": "move_marian", "to": list(p)} for p in flow.marian_fields(w)]

    @staticmethod
    def _legal_choose(w: Work, seat: int) -> list[Action]:
        if w.home[seat]:
            zones = ["edge"] + (["fortress"] if near_fortress(w.md, w.home[seat]) else [])
            return [{"type": "choose_setup", "zone": z} for z in zones]
        out: list[Action] = []
        for side in short_sides(w.md):
            out.append({"type": "choose_setup", "side": side, "zone": "edge"})
            if near_fortress(w.md, side):
                out.append({"type": "choose_setup", "side": side, "zone": "fortress"})
        return out

    @staticmethod
    def _legal_place(w: Work, seat: int) -> list[Action]:
        out: list[Action] = []
        seen: set[tuple[str, bool, str]] = set()
        for u in flow.unplaced(w, seat):
            key = (u.type, u.leader, u.name)
            if key in seen:
                continue
            seen.add(key)
            facings: tuple[str | None, ...] = FACINGS if u.type == "shieldwall" else (None,)
            for i in flow.place_fields(w, seat, u):
                for f in facings:
                    a: Action = {"type": "place", "unit": u.id, "at": list(w.fpos(i))}
                    if f is not None:
                        a["facing"] = f
                    out.append(a)
        return out

    @staticmethod
    def _legal_moves(w: Work, seat: int) -> list[Action]:
        out: list[Action] = []
        for u in flow.movable(w, seat):
            shield = u.type == "shieldwall"
            extra = [v.id for v in flow.takeable(w, u)]
            for to in w.targets(u):
                for f in FACINGS if shield else (None,):
                    a: Action = {"type": "move", "unit": u.id, "to": [to[0], to[1]]}
                    if f is not None:
                        a["facing"] = f
                    out.append(a)
                    if extra:
                        out.append({**a, "with": extra})
            if shield:
                assert u.at is not None
                out.extend(
                    {"type": "move", "unit": u.id, "to": [u.at[0], u.at[1]], "facing": f}
                    for f in FACINGS
                    if f != u.facing
                )
        out.append({"type": "end_movement"})
        return out

    @staticmethod
    def _legal_combat(w: Work, seat: int) -> list[Action]:
        p = w.pending
        if p is not None:
            if p.kind == "defend":
                return [{"type": "roll"}, {"type": "decline"}]
            if p.kind == "retreat":
                return [{"type": "retreat", "to": [x, y]} for x, y in p.options]
            if p.kind == "capture":
                return [{"type": "capture", "yes": False}, {"type": "capture", "yes": True}]
            return [{"type": "advance", "yes": True}, {"type": "advance", "yes": False}]
        out: list[Action] = []
        for a, d, is_melee in cb.attack_options(w, seat, cb.stage_only(w)):
            act: Action = {
                "type": "attack",
                "unit": a.id,
                "target": d.id,
                "kind": "melee" if is_melee else "ranged",
            }
            out.append(act)
            if d.leader:
                out.append({**act, "capture": True})
        if not cb.obliged(w, seat):
            out.append({"type": "end_combat"})
        return out

    # -- timers --------------------------------------------------------------------------------
    def phase_timer(self, state: State) -> float | None:
        """Seconds of the current movement phase's sandglass (grace: 10); None otherwise."""
        if self.outcome(state) is not None:
            return None
        if state.phase == "move":
            return float(state.sandglass) if state.sandglass else None
        if state.phase == "grace":
            return float(GRACE_SECONDS)
        return None

    def timer_key(self, state: State) -> str | None:
        """Identifies the timed phase: restart the deadline whenever this changes."""
        if self.phase_timer(state) is None:
            return None
        return f"{state.turn}:{state.phase}"

    def timeout_action(self, state: State, seat: int) -> Action | None:
        if seat not in self.to_act(state):
            return None
        if state.phase == "move" and state.sandglass:
            return {"type": "sandglass"}
        if state.phase == "grace":
            return {"type": "sandglass"}  # ends the grace with reason "grace_over"
        return None

    # -- views -----------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        md = MAPS[state.map_key]
        p = state.pending
        return {
            "map_id": state.map_key,
            "map": md.as_json(),
            "scenario": state.scenario,
            "seats": {"robin": ROBIN, "sheriff": SHERIFF},
            "you": seat,
            "phase": state.phase,
            "turn": state.turn,
            "active": state.active,
            "start_player": state.start_player,
            "to_act": self.to_act(state),
            "home": list(state.home),
            "zones": list(state.zones),
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "type": u.type,
                    "kind": u.kind,
                    "leader": u.leader,
                    "name": u.name,
                    "at": as_list(u.at),
                    "alive": u.alive,
                    "facing": u.facing,
                    "prisoner": u.guard is not None,
                    "guard": u.guard,
                    "moved": u.moved,
                    "fights": u.fights,
                }
                for u in state.units
            ],
            "movement": {
                "field_worked_on": as_list(state.last_from),
                "grace": state.phase == "grace",
            },
            "combat": None
            if state.phase != "combat"
            else {
                "seat": state.cseat,
                "stage": state.cstage,
                "obligations": [list(o) for o in state.obligations],
                "must_fight": self._must_fight(state),
                "pending": None
                if p is None
                else {
                    "kind": p.kind,
                    "seat": p.seat,
                    "unit": p.unit,
                    "other": p.other or None,
                    "field": as_list(p.field),
                    "options": [list(o) for o in p.options],
                    "melee": p.melee,
                    "capture": p.capture,
                },
            },
            "sandglass": {
                "seconds": self.phase_timer(state),
                "key": self.timer_key(state),
                "setting": state.sandglass,
            },
            "facing_hint": [facing_towards(h) if h else None for h in state.home],
            "quiet_turns": state.quiet,
            "last": list(state.last),
            "outcome": self.outcome(state),
        }

    def _must_fight(self, state: State) -> list[str]:
        """The acting side's units that must still fight (melee, re-attacks, the
        mover's shots); [] while a decision is pending or the game is over."""
        if state.pending is not None or self.outcome(state) is not None:
            return []
        return sorted(cb.obliged(Work(state), state.cseat))

    def encode(self, state: State) -> dict[str, Any]:
        return encode_state(state)

    def decode(self, data: dict[str, Any]) -> State:
        return decode_state(data)


__all__ = ["SCENARIOS", "IdiotenspielRuleset"]
