"""Resolving one Hexenhalma match, step by step (RULES.md §4 "Resolution").

Each step, for all witches of both sides together: 1. walk or fly,
2. suffer the spell lying on the field reached, 3. cast new spells. The
resolution accepts any orders of the right shape: rule breaches the planning
validator would refuse simply play out (a walk off the board is "out", a
goal entered too early is "out", ...), so bans can never crash it.

Witches are numbered globally inside: side A's ``0..n-1``, then side B's
``n..2n-1``; the trace uses ``"side"`` (0 = A, 1 = B) and ``"witch"``
(0-based within the side).
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, draw, gettext_noop
from .board import (
    DELTAS,
    NO_FIELD,
    PLAIN,
    CompiledBoard,
    compile_board,
    validate_board,
    validate_params,
)
from .orders import SPELL_LETTERS, Plan, compile_plans, parse_orders

LIVE = 5  # K, M and B are live for the 5 steps after casting
IMMUNE = 3  # I protects for the 3 steps after casting
LOCK = 3  # goal entry at the earliest with the 3rd step after a Beelzebub / own ban
KUGEL, MUEDE, BANN, IMMUN = 1, 2, 3, 4  # spell codes, as in orders.SPELL_CODES


def resolve_match(
    board: dict[str, Any],
    params: dict[str, Any],
    orders_a: list[dict[str, Any]] | None,
    orders_b: list[dict[str, Any]] | None,
    seed: int,
) -> dict[str, Any]:
    """Resolve one match; both orders are written as side A (B's get rotated).

    ``None`` orders mean the team submitted nothing: its witches starve.
    Returns ``{"witches": [[fate, ...], [fate, ...]], "trace": [...]}``.
    Raises IllegalAction for a malformed board, params or order shape.
    """
    norm_board = validate_board(board)
    norm_params = validate_params(params, norm_board)
    cb = compile_board(norm_board)
    witches = norm_params["witches"]
    if not isinstance(seed, int):
        raise IllegalAction(gettext_noop("The seed must be a whole number."))
    plans: list[list[Plan] | None] = []
    for side, orders in enumerate((orders_a, orders_b)):
        if orders is None:
            plans.append(None)
        else:
            plans.append(compile_plans(cb, parse_orders(orders, witches), side))
    return run_match(
        cb, norm_params["max_steps"], norm_params["tiredness"], witches, plans[0], plans[1], seed
    )


def run_match(
    cb: CompiledBoard,
    max_steps: int,
    strength: int,
    witches: int,
    plan_a: list[Plan] | None,
    plan_b: list[Plan] | None,
    seed: int,
) -> dict[str, Any]:
    """The resolution proper on compiled plans (side B's already rotated)."""
    return _Match(cb, max_steps, strength, witches, seed).run(plan_a, plan_b)


Events = list[dict[str, Any]]


class _Match:
    """One match in progress: per-witch and per-field state as flat lists."""

    def __init__(self, cb: CompiledBoard, max_steps: int, strength: int, n: int, seed: int) -> None:
        self.cb, self.max_steps, self.strength, self.n, self.seed = cb, max_steps, strength, n, seed
        total, size = 2 * n, cb.rows * cb.cols
        self.pos = [-1] * total
        self.steps: list[tuple[tuple[bool, int, int, int], ...]] = [()] * total
        self.fate: list[dict[str, Any] | None] = [None] * total
        self.tired = [0] * total
        self.immune = [0] * total  # immune in every step <= this
        self.walks = [99] * total  # walks since the last Beelzebub
        self.ban_lock = [0] * total  # goal entry allowed from this step on (own-side ban)
        self.goal_held: tuple[set[int], set[int]] = (set(), set())
        # Fields' spells as parallel lists: spell code (0 none), step cast, caster, ban target.
        self.sp_kind = [0] * size
        self.sp_cast = [0] * size
        self.sp_by = [0] * size
        self.sp_ban = [-1] * size
        self.expiry: dict[int, list[int]] = {}
        self.counter = 0  # lottery draws so far

    # -- helpers -----------------------------------------------------------
    def at(self, i: int) -> list[int] | None:
        return list(self.cb.coords[i]) if i >= 0 else None

    def who(self, w: int) -> list[int]:
        return [0 if w < self.n else 1, w % self.n]

    def end(self, w: int, what: str, step: int, ev: Events, **extra: Any) -> None:
        self.fate[w] = {"fate": what, "step": step}
        side, witch = self.who(w)
        ev.append(
            {
                "type": "fate",
                "side": side,
                "witch": witch,
                "fate": what,
                "step": step,
                "at": self.at(self.pos[w]),
                **extra,
            }
        )

    def out(self, w: int, step: int, ev: Events, reason: str, target: list[int] | None) -> None:
        self.pos[w] = -1
        self.end(w, "out", step, ev, reason=reason, target=target)

    def positions(self) -> list[list[list[int] | None]]:
        coords, n = self.cb.coords, self.n
        cells = [[*coords[p]] if p >= 0 else None for p in self.pos]
        return [cells[:n], cells[n:]]

    # -- the match ---------------------------------------------------------
    def run(self, plan_a: list[Plan] | None, plan_b: list[Plan] | None) -> dict[str, Any]:
        active: list[int] = []
        ev: Events = []
        for side, plan in enumerate((plan_a, plan_b)):
            for i in range(self.n):
                w = side * self.n + i
                if plan is None:
                    self.end(w, "starved", 0, ev, reason="no_orders")
                    continue
                self.pos[w], self.steps[w] = plan[i]
                if self.steps[w]:
                    active.append(w)
                else:
                    self.end(w, "starved", 0, ev, reason="no_steps")
        trace = [{"step": 0, "positions": self.positions(), "events": ev}]
        t = 0
        while active and t < self.max_steps:
            t += 1
            ev = []
            arrived = self.move(t, active, ev)
            alive = self.suffer(t, arrived, ev)
            self.cast(t, alive, ev)
            active = self.close_step(t, alive, ev)
            trace.append({"step": t, "positions": self.positions(), "events": ev})
        n = self.n
        return {"witches": [self.fate[:n], self.fate[n:]], "trace": trace}

    def move(self, t: int, active: list[int], ev: Events) -> list[int]:
        """Phase 1: walk or fly. Returns the witches now standing on a plain field."""
        arrived = []
        for w in active:
            flight, val, _, _ = self.steps[w][t - 1]
            if flight:
                if self.fly(w, t, val, ev):
                    arrived.append(w)
            elif self.walk(w, t, val, ev):
                arrived.append(w)
        return arrived

    def fly(self, w: int, t: int, target: int, ev: Events) -> bool:
        side, witch = self.who(w)
        self.walks[w] = 0
        ev.append({"type": "fly", "side": side, "witch": witch, "to": self.at(target)})
        k = self.cb.kind[target] if target >= 0 else NO_FIELD
        if k == PLAIN:
            self.pos[w] = target
            return True
        reason = "no_field" if k == NO_FIELD else "start_or_goal"
        self.out(w, t, ev, reason, self.at(target))
        return False

    def walk(self, w: int, t: int, d: int, ev: Events) -> bool:
        cb = self.cb
        here = self.pos[w]
        nxt = cb.nb[d][here]
        k = cb.kind[nxt] if nxt >= 0 else NO_FIELD
        self.walks[w] += 1
        if k == PLAIN:
            self.pos[w] = nxt
            return True
        side = 0 if w < self.n else 1
        if k == NO_FIELD:
            (r, c), (dr, dc) = cb.coords[here], DELTAS[d]
            self.out(w, t, ev, "off_board" if nxt < 0 else "no_field", [r + dr, c + dc])
        elif k == 2 + side:  # START_A / START_B: her own side's start fields
            self.out(w, t, ev, "start_field", self.at(nxt))
        elif self.walks[w] < LOCK or t < self.ban_lock[w]:
            self.out(w, t, ev, "goal_locked", self.at(nxt))
        elif nxt in self.goal_held[side]:
            self.out(w, t, ev, "goal_taken", self.at(nxt))
        else:
            self.goal_held[side].add(nxt)
            self.pos[w] = nxt
            self.end(w, "goal", t, ev)
        return False

    def suffer(self, t: int, arrived: list[int], ev: Events) -> list[int]:
        """Phase 2: the spells on the fields reached, then falling asleep."""
        alive = []
        for w in arrived:
            if self.sp_kind[self.pos[w]] and not self.suffer_spell(w, t, ev):
                continue
            tired = self.tired[w]
            if tired and t >= self.max_steps - tired:
                self.end(w, "asleep", t, ev, tiredness=tired)
                continue
            alive.append(w)
        return alive

    def suffer_spell(self, w: int, t: int, ev: Events) -> bool:
        """The spell on her field hits (or bounces); False if that ended her."""
        cell = self.pos[w]
        sk = self.sp_kind[cell]
        side, witch = self.who(w)
        base = {"side": side, "witch": witch, "spell": SPELL_LETTERS[sk], "at": self.at(cell)}
        if self.immune[w] >= t:
            ev.append({"type": "immune", **base, "by": self.who(self.sp_by[cell])})
            return True
        if sk == BANN:
            target, by = self.sp_ban[cell], self.sp_by[cell]
            to = self.at(target)
            ev.append(
                {"type": "hit", **base, "by": self.who(by), "cast": self.sp_cast[cell], "to": to}
            )
            if (by < self.n) == (w < self.n):
                self.ban_lock[w] = t + LOCK
            if target < 0 or self.cb.kind[target] != PLAIN:
                self.out(w, t, ev, "banned_off", to)  # only unchecked orders ban there
                return False
            self.pos[w] = cell = target
            sk = self.sp_kind[cell]  # the target's own spell hits too, unless it is a ban
            base = {**base, "spell": SPELL_LETTERS[sk], "at": to}
            if sk not in (KUGEL, MUEDE):
                return True
        hit = {"type": "hit", **base, "by": self.who(self.sp_by[cell]), "cast": self.sp_cast[cell]}
        ev.append(hit)
        if sk == KUGEL:
            self.end(w, "burst", t, ev)
            return False
        self.tired[w] += self.strength
        hit["tiredness"] = self.tired[w]
        return True

    def cast(self, t: int, alive: list[int], ev: Events) -> None:
        """Phase 3: I on herself; K, M, B on her field (a lottery among rivals)."""
        casts: dict[int, list[int]] = {}
        for w in alive:
            spell = self.steps[w][t - 1][2]
            if spell == IMMUN:
                self.immune[w] = t + IMMUNE
                side, witch = self.who(w)
                ev.append({"type": "immunity", "side": side, "witch": witch, "until": t + IMMUNE})
            elif spell and self.cb.kind[self.pos[w]] == PLAIN:
                casts.setdefault(self.pos[w], []).append(w)
        for cell, casters in casts.items():
            w = casters[0]
            if len(casters) > 1:
                pick = draw(self.seed, self.counter, len(casters))
                entrants = [[*self.who(c), SPELL_LETTERS[self.steps[c][t - 1][2]]] for c in casters]
                ev.append(
                    {
                        "type": "lottery",
                        "at": self.at(cell),
                        "draw": self.counter,
                        "entrants": entrants,
                        "winner": pick,
                    }
                )
                self.counter += 1
                w = casters[pick]
            self.lay(w, t, cell, ev)

    def lay(self, w: int, t: int, cell: int, ev: Events) -> None:
        _, _, spell, ban = self.steps[w][t - 1]
        side, witch = self.who(w)
        event: dict[str, Any] = {
            "type": "cast",
            "side": side,
            "witch": witch,
            "spell": SPELL_LETTERS[spell],
            "at": self.at(cell),
            "until": t + LIVE,
        }
        if self.sp_kind[cell]:
            event["replaces"] = {
                "spell": SPELL_LETTERS[self.sp_kind[cell]],
                "by": self.who(self.sp_by[cell]),
            }
        if spell == BANN:
            event["ban_to"] = self.at(ban)
        self.sp_kind[cell], self.sp_cast[cell], self.sp_by[cell], self.sp_ban[cell] = (
            spell,
            t,
            w,
            ban,
        )
        ev.append(event)
        self.expiry.setdefault(t + LIVE, []).append(cell)

    def close_step(self, t: int, alive: list[int], ev: Events) -> list[int]:
        """Orders that ran out starve; spells cast 5 steps ago expire."""
        active = []
        for w in alive:
            if len(self.steps[w]) <= t or t >= self.max_steps:
                self.end(w, "starved", t, ev)
            else:
                active.append(w)
        for cell in self.expiry.pop(t, ()):
            if self.sp_kind[cell] and self.sp_cast[cell] == t - LIVE:
                ev.append(
                    {
                        "type": "expire",
                        "at": self.at(cell),
                        "spell": SPELL_LETTERS[self.sp_kind[cell]],
                        "by": self.who(self.sp_by[cell]),
                    }
                )
                self.sp_kind[cell] = 0
        return active
