"""Das Idiotenspiel bots: reading a position (who can reach and hit what, and
what a field is worth to a unit standing on it).

A :class:`Board` is built from a :class:`Work` of the *blinded* state (seed
and dice counter zeroed): it only uses what the seat's view shows.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from games.bots.base import check_clock
from games.bots.idiot_odds import melee_odds, shot_odds, value, worth
from games.rules.idiotenspiel import combat as cb
from games.rules.idiotenspiel.maps import melee_terrain_bonus
from games.rules.idiotenspiel.movement import home_distance
from games.rules.idiotenspiel.sight import line_of_sight
from games.rules.idiotenspiel.state import RANGED, Pos, Unit
from games.rules.idiotenspiel.work import Work

SHOT_RANGE = 3
NEAR = 5  # fields from the enemy where ground and formation start to matter


@dataclass(frozen=True)
class Params:
    """What one level of play weighs (easy plays a plainer, cheaper game)."""

    threat: float  # weight of the enemy's next turn against a field
    support: float  # neighbours of one's own side (a line holds together)
    terrain: float  # melee bonus of the field for its own sake
    aura: float  # standing in one's leader's aura
    progress: float  # per field nearer the enemy
    leader_gap: int  # the leader keeps this many fields from the enemy at least
    trapped: bool  # count a defender without a retreat field as dying
    min_gain: float  # a move must gain this much over staying
    mounted_gap: int  # a mounted leader keeps this many fields more (the enemy rides 3)
    hunt: float  # per field nearer the enemy leader (the game is won there)
    hold: int  # stop approaching this many fields short of contact: fight on good terms only
    odds: bool  # weigh this turn's fights by their odds (easy just closes in and fights)
    plans: bool = False  # scenario plans: Marian's escort stack, her guard off the enemy
    engage: float = 0.0  # taken per fight this turn (a side pressing on accepts worse odds)
    duel: bool = False  # against a lone enemy leader, risk one's own leader at fair odds


LEVEL_PARAMS = {
    "easy": Params(0.0, 0.0, 0.0, 0.0, 0.3, 3, False, 0.05, 0, 0.0, 0, False),
    "medium": Params(0.8, 0.05, 0.1, 0.1, 0.18, 3, True, 0.04, 0, 0.03, 2, True),
    "strong": Params(1.0, 0.08, 0.15, 0.15, 0.18, 3, True, 0.03, 0, 0.03, 2, True, True, duel=True),
}


def cheb(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


DUEL_ARMY = 2  # at most this many units besides the leader: too few to run a leader down


def duel(w: Work, seat: int) -> bool:
    """Grundspiel, the enemy has nothing left but its leader, and one's own army
    is too small to run him down (a lone mounted leader outruns foot for ever,
    and the game ends in a quiet draw): then a fight of one's own leader that
    wins more often than it loses raises the side's chances (no doubled risk),
    and a cornered leader (no field to retreat to) dies of any lost fight.
    A larger army hunts him without risking its own leader."""
    if w.state.scenario == "marian":
        return False
    foes = [u for u in w.units if u.side != seat and u.combatant]
    army = [u for u in w.units if u.side == seat and u.combatant and not u.leader]
    return bool(foes) and all(u.leader for u in foes) and len(army) <= DUEL_ARMY


class Board:
    def __init__(self, w: Work, seat: int, params: Params, mode: str = "even") -> None:
        self.w, self.md, self.seat, self.p = w, w.md, seat, params
        self.mode = mode  # the side's posture (idiot_plan): even | press | hunt
        self.mine = [u for u in w.units if u.side == seat and u.combatant]
        self.foes = [u for u in w.units if u.side != seat and u.combatant]
        self.foe_leader = next((u for u in self.foes if u.leader), None)
        self.my_leader = next((u for u in self.mine if u.leader), None)
        army = [u.at for u in self.mine if not u.leader and u.at is not None]
        self.centre: tuple[float, float] | None = (
            (sum(p[0] for p in army) / len(army), sum(p[1] for p in army) / len(army))
            if army
            else None
        )
        self.auras: dict[int, set[Pos]] = {}
        for side in (0, 1):
            a = w.aura(side)
            self.auras[side] = a[1] if a is not None else set()
        self._dist: dict[str, list[int]] = {}
        self._threat: dict[int, list[Unit]] | None = None
        self._shots: dict[int, list[Unit]] | None = None
        self.forced: dict[str, Any] | None = None  # the least bad move when none gains
        self._near: dict[int, list[Unit]] | None = None
        self._risk: dict[tuple[str, bool, Pos, bool], float] = {}
        self.blockers: set[Pos] = {
            u.at for u in w.units if u.at is not None and u.alive and u.type != "civilian"
        }
        self.duel = params.duel and duel(w, seat)

    # -- geometry ----------------------------------------------------------------
    def terrain(self, p: Pos) -> str:
        return self.md.rows[p[1]][p[0]]

    def dist(self, kind: str) -> list[int]:
        """Steps (8-neighbour, terrain the kind may enter) to the nearest enemy."""
        if kind not in self._dist:
            self._dist[kind] = self._bfs(kind, [self.w.fi(e.at) for e in self.foes if e.at])
        return self._dist[kind]

    def riders(self) -> list[int]:
        """Steps (cavalry ground) from the nearest enemy cavalry or chariot."""
        if "riders" not in self._dist:
            src = [self.w.fi(e.at) for e in self.foes if e.at and e.kind != "infantry"]
            self._dist["riders"] = self._bfs("cavalry", src)
        return self._dist["riders"]

    def _bfs(self, kind: str, sources: list[int]) -> list[int]:
        md = self.md
        far = md.width * md.height
        out = [far] * far
        ranges = md.ranges[kind]
        todo: deque[int] = deque()
        for s in sources:
            out[s] = 0
            todo.append(s)
        while todo:
            i = todo.popleft()
            for n in md.neigh[i]:
                if out[n] == far and ranges[n]:
                    out[n] = out[i] + 1
                    todo.append(n)
        return out

    def foe_near(self, p: Pos) -> list[Unit]:
        """Enemy combatants in ``p`` or next to it."""
        return self.near_map().get(self.w.fi(p), [])

    def near_map(self) -> dict[int, list[Unit]]:
        """Per field, the enemy combatants in it or next to it."""
        if self._near is None:
            near: dict[int, list[Unit]] = {}
            for e in self.foes:
                assert e.at is not None
                i = self.w.fi(e.at)
                for f in (i, *self.md.neigh[i]):
                    near.setdefault(f, []).append(e)
            self._near = near
        return self._near

    # -- what the enemy can do next turn -----------------------------------------------
    def threats(self) -> tuple[dict[int, list[Unit]], dict[int, list[Unit]]]:
        """Per field: enemies that could melee a unit there next turn, and enemy
        shooters that could shoot at it (line of sight aside)."""
        if self._threat is not None and self._shots is not None:
            return self._threat, self._shots
        melee: dict[int, list[Unit]] = {}
        shots: dict[int, list[Unit]] = {}
        md, w = self.md, self.w
        for e in self.foes:
            check_clock()
            assert e.at is not None
            reach = {w.fi(e.at)} | {w.fi(p) for p in w.targets(e)}
            near: set[int] = set()
            for r in reach:
                near.add(r)
                near.update(md.neigh[r])
            for i in near:
                melee.setdefault(i, []).append(e)
            if e.type in RANGED:
                far: set[int] = set()
                for r in reach:
                    x, y = r % md.width, r // md.width
                    for yy in range(max(0, y - SHOT_RANGE), min(md.height, y + SHOT_RANGE + 1)):
                        for xx in range(max(0, x - SHOT_RANGE), min(md.width, x + SHOT_RANGE + 1)):
                            far.add(yy * md.width + xx)
                for i in far - near:
                    shots.setdefault(i, []).append(e)
        self._threat, self._shots = melee, shots
        return melee, shots

    # -- fights ------------------------------------------------------------------------
    def bonus(self, u: Unit, at: Pos, foe_at: Pos, melee: bool) -> int:
        b = melee_terrain_bonus(u.kind, self.terrain(at), self.terrain(foe_at)) if melee else 0
        if u.leader or at in self.auras[u.side]:
            b += 1
        return b

    def melee_ev(self, u: Unit, at: Pos, e: Unit, e_at: Pos) -> float:
        """Gain for ``u``'s side when ``u`` on ``at`` meets ``e`` on ``e_at`` in melee."""
        if e.civilian:
            return 0.0
        odds = melee_odds(self.bonus(u, at, e_at, True), self.bonus(e, e_at, at, True))
        ve = value(e.type, e.leader)
        if self.duel and u.side == self.seat:
            return worth(odds, value(u.type, False), ve, self.cornered(e, at, True))
        return worth(odds, value(u.type, u.leader, True), ve)

    def shot_ev(self, u: Unit, at: Pos, e: Unit) -> float:
        """Gain of ``u``'s shot at ``e``; the target rolls or declines, as suits it."""
        assert e.at is not None
        ba, bd = self.bonus(u, at, e.at, False), self.bonus(e, e.at, at, False)
        vu, ve = value(u.type, u.leader, True), value(e.type, e.leader)
        if self.duel:
            vu = value(u.type, u.leader)
            cornered = self.cornered(e, at, False)
            return min(worth(shot_odds(ba, bd, r), vu, ve, cornered) for r in (True, False))
        return min(worth(shot_odds(ba, bd, r), vu, ve) for r in (True, False))

    def cornered(self, e: Unit, at: Pos, melee: bool) -> bool:
        """Whether ``e`` beaten by a unit on ``at`` would have no field to retreat to."""
        options = cb.retreat_options(self.w, e, None if melee else at)
        return not [p for p in options if p != at]

    def shot_targets(self, u: Unit, at: Pos) -> list[Unit]:
        blockers = self.blockers - {u.at}
        out = []
        for e in self.foes:
            assert e.at is not None
            d = cheb(e.at, at)
            if 2 <= d <= SHOT_RANGE and line_of_sight(self.md, at, e.at, blockers):
                out.append(e)
        return out

    # -- a field's worth -------------------------------------------------------------
    def now_ev(self, u: Unit, at: Pos) -> tuple[bool, float]:
        """Whether ``u`` fights this turn on ``at``, and the best fight's worth."""
        near = [e for e in self.foe_near(at) if not e.civilian]
        if near:
            return True, max(self.melee_ev(u, at, e, e.at) for e in near if e.at)
        if u.type in RANGED:
            targets = self.shot_targets(u, at)
            if targets:
                evs = [self.shot_ev(u, at, e) for e in targets]
                # The mover must shoot: a leader may be forced into its worst shot.
                return True, (min(evs) if u.leader else max(evs))
        return False, 0.0

    def threat_ev(self, u: Unit, at: Pos) -> float:
        """What the enemy's next turn may cost ``u`` on ``at`` (<= 0)."""
        key = (u.type, u.leader, at, at in self.auras[u.side])
        if key not in self._risk:
            self._risk[key] = self._threat_ev(u, at)
        return self._risk[key]

    def _threat_ev(self, u: Unit, at: Pos) -> float:
        melee, shots = self.threats()
        i = self.w.fi(at)
        evs = []
        for e in melee.get(i, ()):
            assert e.at is not None
            evs.append(-self.melee_ev(e, e.at, u, at))
        for e in shots.get(i, ()):
            assert e.at is not None
            ba, bd = self.bonus(e, e.at, at, False), self.bonus(u, at, e.at, False)
            evs.append(
                -worth(shot_odds(ba, bd, True), value(e.type, False), value(u.type, u.leader))
            )
        if not evs:
            return 0.0
        evs.sort()
        worst = min(0.0, evs[0])
        if u.leader:  # several attackers: a declined shot does not protect him
            worst += 0.3 * sum(min(0.0, x) for x in evs[1:3])
        return worst

    def support(self, u: Unit, at: Pos) -> int:
        n = 0
        for v in self.mine:
            if v.id != u.id and v.at is not None and cheb(v.at, at) <= 1:
                n += 1
        return min(n, 3)

    def score(self, u: Unit, at: Pos) -> float:
        """How good ``at`` is for ``u`` after this movement phase."""
        p = self.p
        fights, ev = self.now_ev(u, at)
        s = ev if p.odds or u.leader else 0.0
        if fights and not u.leader:
            s += p.engage
        if p.threat:  # the unit still stands there in the enemy's turn
            s += p.threat * (1.0 if u.leader or not fights else 0.5) * self.threat_ev(u, at)
        close = self.dist(u.kind)[self.w.fi(at)] <= NEAR  # ground and line count near the foe
        if p.terrain and close:
            s += p.terrain * melee_terrain_bonus(u.kind, self.terrain(at), ".")
        if not u.leader:
            if p.aura and at in self.auras[u.side]:
                s += p.aura
            if p.support and close:
                s += p.support * self.support(u, at)
            s += self.progress(u, at)
            lead = self.my_leader
            if p.threat and lead is not None and lead.at is not None:
                s -= 0.1 * max(0, cheb(lead.at, at) - 4)  # the army keeps its leader inside
        else:
            s += self._leader_place(u, at)
        return s

    def progress(self, u: Unit, at: Pos) -> float:
        d = self.dist(u.kind)[self.w.fi(at)]
        if u.type in RANGED and self.p.threat:
            d = abs(d - 3)  # archers like to stand 2-3 fields off, in range
        s = -self.p.progress * min(max(d - self.p.hold, 0), 40)
        lead = self.foe_leader
        if lead is not None and lead.at is not None:
            s -= self.p.hunt * cheb(lead.at, at)  # the game is won at the enemy leader
        return s

    def _leader_place(self, u: Unit, at: Pos) -> float:
        """The leader stays out of reach, among its own units, near the front."""
        d = self.dist(u.kind)[self.w.fi(at)]
        if self.duel:  # the fight is wanted (its odds are in now_ev): close in
            return -0.2 * d
        gap = self.p.leader_gap + (self.p.mounted_gap if u.kind == "cavalry" else 0)
        s = -2.0 * max(0, gap - d) - 0.05 * max(0, d - gap - 2)
        if self.p.threat:  # riders cover 3 fields a turn: keep 5 off them
            riders = self.riders()
            near = min(riders[n] for n in (self.w.fi(at), *self.md.neigh[self.w.fi(at)]))
            s -= 3.0 * max(0, 5 - near)
        reach = 3 if u.kind == "cavalry" else 1
        s += 0.1 * sum(1 for v in self.mine if v.at and v.id != u.id and cheb(v.at, at) <= reach)
        if self.centre is not None:  # alone, a leader is hunted down: stay with the army
            cx, cy = self.centre
            s -= 0.3 * max(abs(at[0] - cx), abs(at[1] - cy))
        return s

    def home_dist(self, p: Pos, side: int) -> int:
        h = self.w.home[side]
        return home_distance(self.md, self.w.fi(p), h) if h else 0
