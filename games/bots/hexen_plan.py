"""Hexenhalma order planning: routes on the board and witches' orders built from them.

Everything here works on what a team's view shows: the board (side A's starts
and goals) and the round's params. A witch's plan is a list of moves
``("walk" | "fly", field)`` with spells by step; :func:`to_orders` writes the
JSON the ruleset takes. Two plan shapes:

- :func:`direct_plan`: walk a shortest way to a goal, padding with steps to and
  fro near the start when the round asks for more steps.
- :func:`ambush_plan`: linger on the fields in front of the own start row (the
  fields every rival must cross to enter its goal), cast spells there in the
  last steps of lingering, then fly (Beelzebub, with an Immunzauber) to a field
  three walks from the goal and walk in, immune.
- :func:`strike_plan`: walk to the field where a rival is expected to land
  after her flight, leave a Kugelblitz there just before she lands (her
  Immunzauber does not cover the field she casts it on), then fly in.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.rules.hexenhalma.board import DIRS, PLAIN, CompiledBoard, compile_board

Step = tuple[str, int, str, int]  # ("walk" | "fly", field, spell letter or "", ban target or -1)
FAR = 1 << 20


@dataclass(frozen=True)
class Geo:
    cb: CompiledBoard
    starts: tuple[int, ...]  # side A's start fields
    goals: tuple[int, ...]  # side A's goals
    plain: tuple[int, ...]
    approach: frozenset[int]  # plain fields next to an own start (the rivals' last steps)
    memo: dict[Any, Any] = dataclasses.field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def toward(self, target: int) -> tuple[int, ...]:
        """Walks from every field to ``target`` (memoised per board)."""
        key = ("toward", target)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = _toward(self.cb, target)
        return found


def geo_of(view: Mapping[str, Any]) -> Geo:
    board = {k: view["board"][k] for k in ("rows", "cols", "fields", "starts")}
    return _geo(compile_board(board))


@lru_cache(maxsize=16)
def _geo(cb: CompiledBoard) -> Geo:
    plain = tuple(i for i, k in enumerate(cb.kind) if k == PLAIN)
    approach = frozenset(
        j for s in cb.starts[0] for d in range(4) if (j := cb.nb[d][s]) >= 0 and cb.kind[j] == PLAIN
    )
    return Geo(cb, cb.starts[0], cb.starts[1], plain, approach)


def _toward(cb: CompiledBoard, target: int) -> tuple[int, ...]:
    """Walks from every field to ``target``, stepping on plain fields only."""
    dist = [FAR] * len(cb.kind)
    dist[target] = 0
    queue = deque([target])
    while queue:
        i = queue.popleft()
        for d in range(4):
            j = cb.nb[d][i]
            if j >= 0 and cb.kind[j] == PLAIN and dist[j] == FAR:
                dist[j] = dist[i] + 1
                queue.append(j)
    return tuple(dist)


def neighbours(cb: CompiledBoard, i: int) -> list[int]:
    return [j for d in range(4) if (j := cb.nb[d][i]) >= 0 and cb.kind[j] == PLAIN]


def route(geo: Geo, frm: int, target: int, bias: int = 0) -> list[int] | None:
    """A shortest walk ``frm`` -> ``target`` (fields after ``frm``); ``bias`` turns the
    preferred direction so that different plans take different lanes."""
    cb = geo.cb
    dist = geo.toward(target)
    out: list[int] = []
    here = frm
    left = min((dist[j] for j in _next_fields(cb, here, target)), default=FAR)
    if left >= FAR:
        return None
    while here != target:
        options = [j for j in _next_fields(cb, here, target) if dist[j] < FAR]
        best = min(dist[j] for j in options)
        choice = [j for j in options if dist[j] == best]
        here = choice[bias % len(choice)]
        out.append(here)
    return out


def _next_fields(cb: CompiledBoard, i: int, target: int) -> list[int]:
    out = []
    for d in range(4):
        j = cb.nb[d][i]
        if j >= 0 and (cb.kind[j] == PLAIN or j == target):
            out.append(j)
    return out


def goal_distance(geo: Geo, start: int, goal: int) -> int:
    dist = geo.toward(goal)
    return min((dist[j] + 1 for j in neighbours(geo.cb, start)), default=FAR)


def padded(cb: CompiledBoard, first: int, extra: int) -> list[int]:
    """``extra`` (even) steps to and fro from ``first``, ending on it again."""
    if extra <= 0:
        return []
    nbs = neighbours(cb, first)
    if not nbs:
        return []
    other = nbs[0]
    return [other, first] * (extra // 2)


def direct_plan(
    geo: Geo, params: dict[str, Any], start: int, goal: int, bias: int = 0
) -> list[Step] | None:
    """Walk the shortest way in, padding near the start up to the round's minimum."""
    cb = geo.cb
    dist = geo.toward(goal)
    firsts = neighbours(cb, start)
    kind = "walk"
    if not firsts:  # a start walled in by starts: fly out (if she may), then walk
        if not params["spells"]["Z"]:
            return None
        firsts = [f for f in geo.plain if 3 <= dist[f] < FAR]
        kind = "fly"
    if not firsts:
        return None
    first = min(firsts, key=lambda j: (dist[j], j))
    rest = route(geo, first, goal, bias)
    if rest is None:
        return None
    length = 1 + len(rest)
    lo, hi = params["min_steps"], params["max_steps"]
    want = hi if params["require_all_steps"] else max(lo, length)
    if (want - length) % 2:
        want += 1
    if want > hi or length > hi:
        return None
    fields = [*padded(cb, first, want - length), *rest]
    return [(kind, first, "", -1), *(("walk", f, "", -1) for f in fields)]


def ambush_plan(
    geo: Geo,
    params: dict[str, Any],
    start: int,
    goal: int,
    chain: list[int],
    spells: str,
    cast_at: int,
    ban_to: int,
    immune: bool = True,
) -> list[Step] | None:
    """Linger on ``chain`` (fields in front of the start row), cast ``spells`` on its
    fields from step ``cast_at`` on, fly in (with I) and walk the last three steps."""
    lo, hi = params["min_steps"], params["max_steps"]
    if params["spells"]["Z"] < 1 or len(chain) < max(2, len(spells)):
        return None
    c0, c1 = chain[0], chain[1]
    if cast_at % 2 == 0:  # she stands on c0 at odd steps
        return None
    linger = [c0 if t % 2 else c1 for t in range(1, cast_at)]
    run = chain[: len(spells)]
    steps: list[Step] = [("walk", f, "", -1) for f in linger]
    for f, spell in zip(run, spells, strict=True):
        steps.append(("walk", f, spell, ban_to if spell == "B" else -1))
    dist = geo.toward(goal)
    last_walks = 3
    total = len(steps) + 1 + last_walks
    if params["require_all_steps"]:
        last_walks += hi - total
    elif total < lo:
        last_walks += lo - total
    landing = _landing(geo, goal, last_walks, dist, set(chain))
    if landing < 0 or len(steps) + 1 + last_walks > hi:
        return None
    rest = route(geo, landing, goal)
    if rest is None or len(rest) != last_walks:
        return None
    spell = "I" if immune and params["spells"]["I"] else ""
    steps.append(("fly", landing, spell, -1))
    steps.extend(("walk", f, "", -1) for f in rest)
    return steps


def _landing(geo: Geo, goal: int, walks: int, dist: tuple[int, ...], avoid: set[int]) -> int:
    """A plain field exactly ``walks`` from ``goal``, as straight in as possible."""
    key = ("landing", goal, walks)
    ranked = geo.memo.get(key)
    if ranked is None:
        # Straight in, and never on the fields in front of a goal, where the
        # rivals lurk before they set out.
        cb = geo.cb
        gr, gc = cb.coords[goal]
        lurk = {j for g in geo.goals for j in neighbours(cb, g)}
        found = []
        for f in geo.plain:
            if dist[f] == walks:
                r, c = cb.coords[f]
                found.append((f in lurk, -max(abs(r - gr), abs(c - gc)), f))
        ranked = geo.memo[key] = [f for _l, _k, f in sorted(found)]
    return next((f for f in ranked if f not in avoid), -1)


def usable_starts(geo: Geo) -> list[int]:
    """Start fields with a plain neighbour first (a walled-in witch must fly out)."""
    return sorted(geo.starts, key=lambda s: (not neighbours(geo.cb, s), s))


def chain_for(geo: Geo, start: int, length: int, used: set[int]) -> list[int]:
    """Up to ``length`` distinct approach fields in a row, beginning next to ``start``."""
    cb = geo.cb
    firsts = [j for j in neighbours(cb, start) if j in geo.approach and j not in used]
    if not firsts:
        return []
    chain = [firsts[0]]
    while len(chain) < length:
        nxt = [
            j
            for j in neighbours(cb, chain[-1])
            if j in geo.approach and j not in chain and j not in used
        ]
        if not nxt:
            break
        chain.append(nxt[0])
    return chain


def shelter_for(geo: Geo, start: int, used: set[int], first: int = -1) -> list[int]:
    """Two neighbouring plain fields off other witches' lurking fields: ``first``
    (if given) and a neighbour, else a neighbour of ``start`` and one of its."""
    cb = geo.cb
    firsts = [first] if first >= 0 else [j for j in neighbours(cb, start) if j not in used]
    for c0 in firsts:
        for c1 in neighbours(cb, c0):
            if c1 not in used:
                return [c0, c1]
    return []


def far_field(geo: Geo) -> int:
    """The ban target: a plain field as far as can be from every rival's goal."""
    dists = [geo.toward(s) for s in geo.starts[:4] + geo.starts[-4:]]
    best, key = -1, -1
    for f in geo.plain:
        d = min(dist[f] for dist in dists)
        if FAR > d > key:
            best, key = f, d
    return best


def to_orders(geo: Geo, plans: list[tuple[int, list[Step]]]) -> list[dict[str, Any]]:
    """Plans as the orders' JSON (side A)."""
    cb = geo.cb
    out = []
    for start, steps in plans:
        here = start
        written = []
        for kind, field, spell, ban in steps:
            step: dict[str, Any]
            if kind == "fly":
                step = {"fly": list(cb.coords[field])}
            else:
                d = next(d for d in range(4) if cb.nb[d][here] == field)
                step = {"walk": DIRS[d]}
            if spell:
                step["spell"] = spell
            if spell == "B":
                step["ban_to"] = list(cb.coords[ban])
            written.append(step)
            here = field
        out.append({"start": list(cb.coords[start]), "steps": written})
    return out


def exact_plan(geo: Geo, params: dict[str, Any], start: int, goal: int) -> list[Step] | None:
    """A plan that uses every spell of the round (``require_all_spells``): all her
    Beelzebubs first, then a walk in; spells on steps she never comes back to."""
    counts = params["spells"]
    flights = counts["Z"]
    if not flights:
        steps = direct_plan(geo, params, start, goal)
    else:
        steps = _flown_in(geo, params, goal, flights)
    if steps is None:
        return None
    return _with_all_spells(geo, counts, steps)


def _flown_in(geo: Geo, params: dict[str, Any], goal: int, flights: int) -> list[Step] | None:
    lo, hi = params["min_steps"], params["max_steps"]
    lengths = [hi] if params["require_all_steps"] else range(max(lo, flights + 3), hi + 1)
    dist = geo.toward(goal)
    for length in lengths:
        for walks in range(length - flights, 2, -1):
            if (length - flights - walks) % 2:
                continue
            land = _landing(geo, goal, walks, dist, set())
            if land < 0:
                continue
            others = [f for f in geo.plain if f != land][:2]
            if flights > 1 and len(others) < 2:
                return None
            hops = [others[i % 2] for i in range(flights - 1)]
            if hops and hops[-1] == land:
                return None
            rest = route(geo, land, goal)
            if rest is None:
                continue
            pad = padded(geo.cb, land, length - flights - walks)
            return [
                *(("fly", f, "", -1) for f in (*hops, land)),
                *(("walk", f, "", -1) for f in (*pad, *rest)),
            ]
    return None


def _with_all_spells(geo: Geo, counts: dict[str, int], steps: list[Step]) -> list[Step] | None:
    """``steps`` carrying every K, M, B and I of the round's counts."""
    out = list(steps)
    last = len(out) - 1  # the goal step carries nothing
    fields_after = [set(s[1] for s in out[i + 1 :]) for i in range(len(out))]
    walk_slots = [
        i for i in range(last) if out[i][0] == "walk" and out[i][1] not in fields_after[i]
    ]
    other_slots = [i for i in range(last) if i not in walk_slots]
    wanted = ["I"] * counts["I"] + ["K"] * counts["K"] + ["B"] * counts["B"] + ["M"] * counts["M"]
    slots = other_slots[: counts["I"]] + walk_slots
    slots += [i for i in other_slots if i not in slots]
    if len(slots) < len(wanted):
        return None
    ban = far_field(geo)
    for spell, i in zip(wanted, slots, strict=False):
        kind, f, _s, _b = out[i]
        out[i] = (kind, f, spell, ban if spell == "B" else -1)
    return out


def rotated(geo: Geo, field: int) -> int:
    """The field's 180° rotation: where a rival's planned field lies for us."""
    return geo.cb.rows * geo.cb.cols - 1 - field


def landings(plans: list[tuple[int, list[Step]]]) -> list[tuple[int, int]]:
    """(step, field) of every Beelzebub landing in ``plans`` (as written, side A)."""
    return [
        (n, field)
        for _start, steps in plans
        for n, (kind, field, _spell, _ban) in enumerate(steps, 1)
        if kind == "fly"
    ]


def strike_plan(
    geo: Geo, params: dict[str, Any], start: int, goal: int, target: int, cast_at: int
) -> list[Step] | None:
    """Walk to ``target`` (a field where a rival lands after a flight: her
    Immunzauber does not cover the field she casts it on), arrive there at
    step ``cast_at`` and leave a Kugelblitz, step aside, then fly in with an
    Immunzauber and walk the last steps to ``goal``."""
    cb, lo, hi = geo.cb, params["min_steps"], params["max_steps"]
    if params["spells"]["Z"] < 1 or params["spells"]["K"] < 1 or params["require_all_steps"]:
        return None
    to_target = geo.toward(target)
    firsts = sorted(neighbours(cb, start), key=lambda j: (to_target[j], j))
    if not firsts or to_target[firsts[0]] >= FAR:
        return None
    first = firsts[0]
    rest = [] if first == target else route(geo, first, target)
    if rest is None:
        return None
    extra = cast_at - 1 - len(rest)
    if extra < 0 or extra % 2:
        return None
    aside = neighbours(cb, target)
    if not aside:
        return None
    walk = [first, *padded(cb, first, extra), *rest]
    if len(walk) != cast_at:
        return None
    steps: list[Step] = [("walk", f, "", -1) for f in walk]
    steps[-1] = ("walk", target, "K", -1)
    steps.append(("walk", aside[0], "", -1))
    walks = max(3, lo - len(steps) - 1)
    dist = geo.toward(goal)
    landing = _landing(geo, goal, walks, dist, {target, aside[0]})
    if landing < 0 or len(steps) + 1 + walks > hi:
        return None
    home = route(geo, landing, goal)
    if home is None or len(home) != walks:
        return None
    steps.append(("fly", landing, "I" if params["spells"]["I"] else "", -1))
    steps.extend(("walk", f, "", -1) for f in home)
    return steps
