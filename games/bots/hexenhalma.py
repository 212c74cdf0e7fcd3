"""Hexenhalma bots: a team that plans its witches' orders, and a game master.

A team (seats 1..n) writes its orders once a round opens, then locks them.
Every level plans from its own view only: the board, the params and its own
orders; other teams' orders and the seed never enter (``view_rng`` seeds any
randomness from the view).

- easy: each witch lurks in front of the own start row, where every rival
  must pass to enter its goal, casts her Kugelblitze there at a fixed time,
  then flies in (no immunity) and walks the last three steps.
- medium / strong: the lurking fields are shared among all witches, K/B (bans
  to the far side) are timed by search, and an Immunzauber on the flight makes
  the walk in immune. Candidate plans (casting times, spell sets) are played
  with ``run_match`` against sampled rival orders (direct walkers, lurkers,
  random orders); the best average result is written. The budget is a number
  of simulated witch-steps, never wall-clock time.
- strong also works out the candidates medium's planner would choose among
  (they follow from the board and the params alone), plays its candidates
  against those too, and adds candidates that leave a Kugelblitz where those
  rivals land after their flights, just before they land.
- A round that demands every spell gets plans carrying all of them; random
  valid orders are the last resort, and a team with none at all locks.

The game master opens rounds on the presets in turn and, at a table without a
round limit, ends the campaign after ``GM_ROUNDS`` rounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.bots.base import Action, Bot, check_clock, view_rng
from games.bots.hexen_plan import (
    Geo,
    Step,
    ambush_plan,
    chain_for,
    direct_plan,
    exact_plan,
    far_field,
    geo_of,
    goal_distance,
    landings,
    neighbours,
    rotated,
    shelter_for,
    strike_plan,
    to_orders,
    usable_starts,
)
from games.rules import get_ruleset
from games.rules.hexenhalma.orders import (
    Plan,
    compile_plans,
    parse_orders,
    validate_orders_compiled,
)
from games.rules.hexenhalma.resolve import run_match
from games.rules.hexenhalma.sample import random_orders

PRESET_ORDER = ("rectangle", "diamond", "cross", "arena")
GM_ROUNDS = len(PRESET_ORDER)
# Simulated witch-steps per decision (a match costs 2 * witches * max_steps).
BUDGET = {"medium": 12_000, "strong": 60_000}
MIN_SAMPLES = 4
SPELL_SETS = ("KKB", "KK", "KB", "K", "BK")
GUESSES = 3  # medium's likeliest candidates that strong plays against and strikes

Plans = list[tuple[int, list[Step]]]


class GameMaster:
    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        view = get_ruleset("hexenhalma").view(state, seat)
        if view["phase"] == "waiting":
            if view["rounds"] == 0 and view["round"] >= GM_ROUNDS:
                return {"type": "finish"}
            board = PRESET_ORDER[view["round"] % len(PRESET_ORDER)]
            return {"type": "open_round", "board": board, "deadline": None}
        if view["phase"] == "orders":
            # Only asked while teams still write: closing locks them as they stand.
            return {"type": "close"}
        raise LookupError("The game master has nothing to do in this Hexenhalma position.")


class Team:
    def __init__(self, level: str) -> None:
        self.level = level

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        view = get_ruleset("hexenhalma").view(state, seat)
        if view["phase"] != "orders" or seat not in view["to_act"]:
            raise LookupError("This team has nothing to do in this Hexenhalma position.")
        if view["my_orders"] is not None:
            return {"type": "lock"}
        orders = self.orders(view, view_rng("hexenhalma", state, seat, seed))
        if orders is None:  # no valid orders found for this round: the witches starve
            return {"type": "lock"}
        return {"type": "orders", "orders": orders}

    def orders(self, view: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]] | None:
        """The level's plan; plans using every spell when the round demands it;
        random valid orders as a last resort."""
        geo = geo_of(view)
        params = view["params"]
        attempts: list[Plans | None] = []
        if not params["require_all_spells"]:
            if self.level == "easy":
                attempts.append(lurk_plans(geo, params, rng))
            else:
                planner = Planner(geo, params, rng, BUDGET[self.level])
                attempts.append(planner.best(counter=self.level == "strong"))
        attempts.append(exact_plans(geo, params))
        for plans in attempts:
            if plans is not None:
                try:
                    return validate_orders_compiled(geo.cb, params, to_orders(geo, plans))
                except ValueError:
                    continue
        board = {k: view["board"][k] for k in ("rows", "cols", "fields", "starts")}
        try:
            return random_orders(board, params, rng, spell_rate=0.0, greed=1.0)
        except (ValueError, RuntimeError):
            return None


def exact_plans(geo: Geo, params: dict[str, Any]) -> Plans | None:
    plans: Plans = []
    for s, g in assign(geo, params, spread(geo, params["witches"])):
        steps = exact_plan(geo, params, s, g)
        if steps is None:
            return None
        plans.append((s, steps))
    return plans


def assign(geo: Geo, params: dict[str, Any], starts: list[int]) -> list[tuple[int, int]]:
    """Each start with the nearest goal not yet taken (goals take one witch each)."""
    taken: set[int] = set()
    out = []
    for s in starts:
        goals = sorted(geo.goals, key=lambda g: (goal_distance(geo, s, g), g))
        goal = next((g for g in goals if g not in taken), goals[0])
        taken.add(goal)
        out.append((s, goal))
    return out


def spread(geo: Geo, n: int, offset: int = 0) -> list[int]:
    """``n`` start fields spread evenly over the start row."""
    pool = usable_starts(geo)
    free = [s for s in pool if neighbours(geo.cb, s)]
    starts = sorted(free if len(free) >= n else pool, key=lambda s: geo.cb.coords[s][::-1])
    step = len(starts) / n
    return sorted({starts[(int(i * step) + offset) % len(starts)] for i in range(n)})


def with_spells(params: dict[str, Any], steps: list[Step]) -> list[Step]:
    """A Kugelblitz half-way along a walk (on a field she never comes back to) and
    her Immunzauber spread over the middle, where she crosses the rivals' paths."""
    if len(steps) < 3:
        return steps
    out = list(steps)
    mid = len(steps) // 2
    if params["spells"]["K"] and steps[mid][1] not in {s[1] for s in steps[mid + 1 :]}:
        kind, field, _s, _b = out[mid]
        out[mid] = (kind, field, "K", -1)
    immune = params["spells"]["I"]
    for n in range(immune):
        at = mid - 3 + 3 * n
        if 0 <= at < len(out) - 1 and not out[at][2]:
            kind, field, _s, _b = out[at]
            out[at] = (kind, field, "I", -1)
    return out


def lurk_plans(geo: Geo, params: dict[str, Any], rng: random.Random) -> Plans | None:
    """The easy level: lurk in front of the own start row with a Kugelblitz or two,
    timed for rivals walking the round's minimum, then fly in (no immunity)."""
    starts = sorted(rng.sample(_pool(geo, params["witches"]), params["witches"]))
    spells = "K" * min(2, params["spells"]["K"])
    cast_at = max(1, params["min_steps"] - 5) | 1
    ban_to = far_field(geo)
    used: set[int] = set()
    plans: Plans = []
    for s, g in assign(geo, params, starts):
        chain = chain_for(geo, s, max(2, len(spells)), used)
        steps = None
        if spells and len(chain) >= 2:
            steps = ambush_plan(geo, params, s, g, chain, spells, cast_at, ban_to, immune=False)
        if steps is None:
            steps = direct_plan(geo, params, s, g, rng.randrange(2))
            if steps is None:
                return None
            steps = with_spells(params, steps)
        used.update(chain)
        plans.append((s, steps))
    return plans


def easy_plans(geo: Geo, params: dict[str, Any], rng: random.Random) -> Plans | None:
    starts = sorted(rng.sample(_pool(geo, params["witches"]), params["witches"]))
    plans: Plans = []
    for s, g in assign(geo, params, starts):
        steps = direct_plan(geo, params, s, g, rng.randrange(2))
        if steps is None:
            return None
        plans.append((s, with_spells(params, steps)))
    return plans


class Planner:
    """Candidate team plans, scored by simulated matches against sampled rivals."""

    def __init__(self, geo: Geo, params: dict[str, Any], rng: random.Random, budget: int) -> None:
        self.geo, self.params, self.rng = geo, params, rng
        self.witches = params["witches"]
        self.cost = 2 * self.witches * params["max_steps"]
        self.sims_left = max(1, budget // self.cost)
        self.ban_to = far_field(geo)

    def best(self, counter: bool = False) -> Plans | None:
        """The candidate with the best average against sampled rivals; with
        ``counter``, also against the plans medium's planner would consider,
        and with candidates that strike where those land."""
        # At least MIN_SAMPLES rivals per candidate: fewer candidates on big rounds.
        candidates = self.candidates(max(1, self.sims_left // MIN_SAMPLES))
        guesses: list[Plans] = []
        if counter and candidates:
            guess = Planner(self.geo, self.params, self.rng, BUDGET["medium"])
            guesses = guess.candidates(max(1, guess.sims_left // MIN_SAMPLES))[:GUESSES]
            candidates += self.strikes(candidates[0], guesses)
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        rivals: list[list[Plan] | None] = [self.compiled(plans, 1) for plans in guesses]
        rivals += self.rivals(max(1, self.sims_left // len(candidates) - len(rivals)))
        best, best_score = candidates[0], -1e9
        for plans in candidates:
            score = self.score(plans, rivals)
            if score > best_score:
                best, best_score = plans, score
        return best

    def candidates(self, limit: int) -> list[Plans]:
        """Distinct team plans, the likeliest first (so a small budget keeps those):
        spells cast so that they lie live when walkers of the round's minimum
        length reach the fields in front of their goals."""
        pairs = assign(self.geo, self.params, spread(self.geo, self.witches))
        target = self.params["min_steps"] - 5
        times = sorted(range(1, self.params["max_steps"], 2), key=lambda t: (abs(t - target), t))
        out: list[Plans] = []
        seen: set[str] = set()
        direct = self.direct(pairs)
        for cast_at in times:
            if len(out) >= limit:
                break
            for spells in self.spell_sets():
                for stagger in (0, 2):
                    plans = self.ambush(pairs, spells, cast_at, stagger)
                    if plans is not None and repr(plans) not in seen:
                        seen.add(repr(plans))
                        out.append(plans)
            if direct is not None and len(out) >= 2 and repr(direct) not in seen:
                seen.add(repr(direct))
                out.insert(1, direct)
        if direct is not None and repr(direct) not in seen:
            out.append(direct)
        return out[:limit]

    def strikes(self, base: Plans, guesses: list[Plans]) -> list[Plans]:
        """``base`` with witches sent to strike the landings of each guessed
        rival plan: each landing (the nearest free witch takes it) gets a
        Kugelblitz a step or two before the rival lands."""
        out: list[Plans] = []
        pairs = assign(self.geo, self.params, spread(self.geo, self.witches))
        for guess in guesses:
            plans, free = list(base), set(range(len(pairs)))
            for step, field in landings(guess):
                target = rotated(self.geo, field)
                dist = self.geo.toward(target)
                for n in sorted(free, key=lambda n: (dist[pairs[n][0]], n)):
                    steps = next(
                        (
                            found
                            for lead in (1, 2, 3)
                            if (
                                found := strike_plan(
                                    self.geo, self.params, *pairs[n], target, step - lead
                                )
                            )
                        ),
                        None,
                    )
                    if steps is not None:
                        plans[n] = (pairs[n][0], steps)
                        free.discard(n)
                        break
            if plans != base and plans not in out:
                out.append(plans)
        return out

    def compiled(self, plans: Plans, side: int) -> list[Plan]:
        return compile_plans(
            self.geo.cb, parse_orders(to_orders(self.geo, plans), self.witches), side
        )

    def spell_sets(self) -> list[str]:
        allowed = self.params["spells"]
        out = []
        for spells in SPELL_SETS:
            if all(spells.count(k) <= allowed[k] for k in "KB"):
                out.append(spells)
        return out or [""]

    def ambush(
        self, pairs: list[tuple[int, int]], spells: str, cast_at: int, stagger: int
    ) -> Plans | None:
        used: set[int] = set()
        plans: Plans = []
        for n, (s, g) in enumerate(pairs):
            at = cast_at + (stagger if n % 2 else 0)
            # Share the fields in front of the start row: each witch gets her part.
            share = max(1, len(self.geo.approach) // self.witches)
            chain = chain_for(self.geo, s, max(1, min(len(spells), share)), used)
            mine = spells[: len(chain)]
            if len(chain) == 1:  # one field to cast on: wait on a field behind it
                chain = shelter_for(self.geo, chain[0], used | set(chain), chain[0])
            if len(chain) < 2:  # no room to lurk: wait aside, fly in
                chain, mine = shelter_for(self.geo, s, used), ""
            steps = None
            if len(chain) >= 2:
                steps = ambush_plan(self.geo, self.params, s, g, chain, mine, at, self.ban_to)
            if steps is None:
                steps = direct_plan(self.geo, self.params, s, g)
                if steps is None:
                    return None
                steps = with_spells(self.params, steps)
            used.update(chain)
            plans.append((s, steps))
        return plans

    def direct(self, pairs: list[tuple[int, int]]) -> Plans | None:
        plans: Plans = []
        for s, g in pairs:
            steps = direct_plan(self.geo, self.params, s, g)
            if steps is None:
                return None
            plans.append((s, with_spells(self.params, steps)))
        return plans

    def rivals(self, count: int) -> list[list[Plan] | None]:
        """Sampled rival orders, compiled for side B: walkers, ambushers, random."""
        geo, params, rng = self.geo, self.params, self.rng
        board = _board_of(geo)
        out: list[list[Plan] | None] = []
        for i in range(count):
            orders: list[dict[str, Any]] | None = None
            kind = i % 4
            if kind in (0, 1):
                plans = easy_plans(geo, params, rng)
                orders = to_orders(geo, plans) if plans else None
            elif kind == 2:
                plans = lurk_plans(geo, params, rng)
                orders = to_orders(geo, plans) if plans else None
            if orders is None:
                try:
                    orders = random_orders(board, params, rng)
                except (ValueError, RuntimeError):
                    out.append(None)  # a rival that writes nothing
                    continue
            out.append(compile_plans(geo.cb, parse_orders(orders, self.witches), 1))
        return out

    def score(self, plans: Plans, rivals: list[list[Plan] | None]) -> float:
        mine = compile_plans(self.geo.cb, parse_orders(to_orders(self.geo, plans), self.witches), 0)
        total = 0.0
        p = self.params
        for n, rival in enumerate(rivals):
            check_clock()
            fates = run_match(
                self.geo.cb, p["max_steps"], p["tiredness"], self.witches, mine, rival, n
            )["witches"]
            ours = sum(f["fate"] == "goal" for f in fates[0])
            theirs = sum(f["fate"] == "goal" for f in fates[1])
            total += ours - theirs + (1.0 if ours > theirs else 0.0) + 0.2 * ours
        return total / len(rivals)


def _pool(geo: Geo, n: int) -> list[int]:
    """The starts to draw ``n`` witches from: those with a way out, if enough."""
    free = [s for s in geo.starts if neighbours(geo.cb, s)]
    return free if len(free) >= n else list(geo.starts)


def _board_of(geo: Geo) -> dict[str, Any]:
    cb = geo.cb
    return {
        "rows": cb.rows,
        "cols": cb.cols,
        "fields": [list(cb.coords[i]) for i, k in enumerate(cb.kind) if k],
        "starts": [list(cb.coords[s]) for s in geo.starts],
    }


class HexenhalmaBot:
    """Seat 0 plays the game master, every other seat a team."""

    def __init__(self, level: str) -> None:
        self.gm = GameMaster()
        self.team = Team(level)

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        if seat == 0:
            return self.gm.choose(state, seat, seed=seed)
        return self.team.choose(state, seat, seed=seed)


def make(level: str) -> Bot:
    return HexenhalmaBot(level)
