"""A team's orders: shape parsing, the planning validator, and compiled plans.

Orders are written as side A: one entry per witch,
``{"start": [r, c], "steps": [{"walk": "N"} | {"fly": [r, c]}, ...]}``, a step
optionally carrying ``"spell": "K" | "M" | "B" | "I"`` and, for B,
``"ban_to": [r, c]``. Witch and step numbers in messages count from 1.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, gettext_noop
from .board import DIRS, NO_FIELD, PLAIN, CompiledBoard, coord, is_int

SPELL_CODES = {"K": 1, "M": 2, "B": 3, "I": 4}
SPELL_LETTERS = ("", "K", "M", "B", "I")
SPELL_NAMES = {
    "K": "Kugelblitz",
    "M": "Müdezauber",
    "B": "Bannzauber",
    "I": "Immunzauber",
    "Z": "Beelzebub",
}
MAX_ORDER_STEPS = 1000  # junk guard; the round's max_steps is checked separately
STEP_KEYS = frozenset({"walk", "fly", "spell", "ban_to"})
WITCH_KEYS = frozenset({"start", "steps"})

# A parsed step: (is_flight, direction index or (r, c), spell letter or "", ban (r, c) or None)
ParsedStep = tuple[bool, Any, str, tuple[int, int] | None]
# A compiled witch: (start index, steps as (is_flight, direction or index, spell code, ban index))
Plan = tuple[int, tuple[tuple[bool, int, int, int], ...]]


def _witch_error(template: str, witch: int, **params: Any) -> IllegalAction:
    return IllegalAction(template, witch=witch, **params)


def parse_step(step: Any, witch: int, number: int) -> ParsedStep:
    """Check one step's shape (not its rules); raise naming witch and step."""
    if not isinstance(step, dict):
        raise IllegalAction(
            gettext_noop("Witch %(witch)s, step %(step)s: a step must be a JSON object."),
            witch=witch,
            step=number,
        )
    for key in step:
        if key not in STEP_KEYS:
            raise IllegalAction(
                gettext_noop("Witch %(witch)s, step %(step)s: unknown key %(key)s."),
                witch=witch,
                step=number,
                key=str(key)[:20],
            )
    if ("walk" in step) == ("fly" in step):
        raise IllegalAction(
            gettext_noop(
                "Witch %(witch)s, step %(step)s: a step is either a walk or a Beelzebub flight."
            ),
            witch=witch,
            step=number,
        )
    flight = "fly" in step
    target: Any
    if flight:
        target = coord(step["fly"])
        if target is None:
            raise IllegalAction(
                gettext_noop("Witch %(witch)s, step %(step)s: a flight needs a target [row, col]."),
                witch=witch,
                step=number,
            )
    else:
        walk = step["walk"]
        if not isinstance(walk, str) or walk not in DIRS:
            raise IllegalAction(
                gettext_noop("Witch %(witch)s, step %(step)s: a walk goes N, E, S or W."),
                witch=witch,
                step=number,
            )
        target = DIRS.index(walk)
    spell = step.get("spell", "")
    if isinstance(spell, list) and len(spell) > 1:
        raise IllegalAction(
            gettext_noop(
                "Witch %(witch)s, step %(step)s: a step carries one spell at most; only a "
                "Beelzebub flight may carry one further spell."
            ),
            witch=witch,
            step=number,
        )
    if spell == "Z":
        raise IllegalAction(
            gettext_noop(
                'Witch %(witch)s, step %(step)s: a Beelzebub is a step of its own: write it as "fly".'
            ),
            witch=witch,
            step=number,
        )
    if spell != "" and (not isinstance(spell, str) or spell not in SPELL_CODES):
        raise IllegalAction(
            gettext_noop("Witch %(witch)s, step %(step)s: unknown spell (use K, M, B or I)."),
            witch=witch,
            step=number,
        )
    ban = None
    if spell == "B":
        if "ban_to" not in step:
            raise IllegalAction(
                gettext_noop("Witch %(witch)s, step %(step)s: a Bannzauber needs a ban target."),
                witch=witch,
                step=number,
            )
        ban = coord(step["ban_to"])
        if ban is None:
            raise IllegalAction(
                gettext_noop("Witch %(witch)s, step %(step)s: the ban target must be [row, col]."),
                witch=witch,
                step=number,
            )
    elif "ban_to" in step:
        raise IllegalAction(
            gettext_noop("Witch %(witch)s, step %(step)s: only a Bannzauber has a ban target."),
            witch=witch,
            step=number,
        )
    return (flight, target, spell, ban)


def parse_witch(entry: Any, witch: int) -> tuple[tuple[int, int], list[ParsedStep]]:
    """Check one witch's entry's shape; return her start and parsed steps."""
    if not isinstance(entry, dict):
        raise _witch_error(
            gettext_noop("Witch %(witch)s: her orders must be a JSON object."), witch
        )
    for key in entry:
        if key not in WITCH_KEYS:
            raise _witch_error(
                gettext_noop("Witch %(witch)s: unknown key %(key)s."), witch, key=str(key)[:20]
            )
    start = coord(entry.get("start"))
    if start is None:
        raise _witch_error(
            gettext_noop("Witch %(witch)s: the start must be a field [row, col]."), witch
        )
    steps = entry.get("steps")
    if not isinstance(steps, list) or len(steps) > MAX_ORDER_STEPS:
        raise _witch_error(gettext_noop("Witch %(witch)s: steps must be a list."), witch)
    return start, [parse_step(s, witch, n) for n, s in enumerate(steps, 1)]


def parse_orders(orders: Any, witches: int) -> list[tuple[tuple[int, int], list[ParsedStep]]]:
    """Shape-check a team's orders: one entry per witch."""
    if not isinstance(orders, list):
        raise IllegalAction(gettext_noop("Orders must be a list with one entry per witch."))
    if len(orders) > witches:
        raise IllegalAction(
            gettext_noop("There is no witch %(witch)s: this round has %(count)s witches."),
            witch=witches + 1,
            count=witches,
        )
    if len(orders) < witches:
        raise IllegalAction(
            gettext_noop("Witch %(witch)s has no orders: every witch needs a start and steps."),
            witch=len(orders) + 1,
        )
    return [parse_witch(entry, n) for n, entry in enumerate(orders, 1)]


def _check_starts(cb: CompiledBoard, parsed: list[tuple[tuple[int, int], Any]]) -> list[int]:
    """Start indices of side A; each on a start field, none shared."""
    taken: dict[int, int] = {}
    out = []
    own = set(cb.starts[0])
    for n, (start, _) in enumerate(parsed, 1):
        i = cb.index(*start)
        if i not in own:
            raise _witch_error(
                gettext_noop("Witch %(witch)s: %(at)s is not one of your start fields."),
                n,
                at=list(start),
            )
        if i in taken:
            raise IllegalAction(
                gettext_noop(
                    "Witches %(a)s and %(b)s share the start field %(at)s: "
                    "two witches never share a start field."
                ),
                a=taken[i],
                b=n,
                at=list(start),
            )
        taken[i] = n
        out.append(i)
    return out


def validate_orders_compiled(
    cb: CompiledBoard, params: dict[str, Any], orders: Any
) -> list[dict[str, Any]]:
    """The planning validator (RULES.md §4 "Planning limits"); returns normalised orders."""
    parsed = parse_orders(orders, params["witches"])
    starts = _check_starts(cb, parsed)
    goals: dict[int, int] = {}
    normal = []
    for n, ((start, steps), pos) in enumerate(zip(parsed, starts, strict=True), 1):
        goal = _check_path(cb, params, n, pos, steps)
        if goal >= 0:
            if goal in goals:
                raise IllegalAction(
                    gettext_noop(
                        "Witches %(a)s and %(b)s both plan to finish on %(at)s: "
                        "a goal field takes one witch per team."
                    ),
                    a=goals[goal],
                    b=n,
                    at=list(cb.coords[goal]),
                )
            goals[goal] = n
        _check_counts(params, n, steps)
        normal.append({"start": list(start), "steps": [_normal_step(s) for s in steps]})
    return normal


def _normal_step(step: ParsedStep) -> dict[str, Any]:
    flight, target, spell, ban = step
    out: dict[str, Any] = {"fly": list(target)} if flight else {"walk": DIRS[target]}
    if spell:
        out["spell"] = spell
    if ban is not None:
        out["ban_to"] = list(ban)
    return out


def _check_path(
    cb: CompiledBoard, params: dict[str, Any], witch: int, pos: int, steps: list[ParsedStep]
) -> int:
    """Walk the planned path without any spells; return the goal index or -1."""
    count = len(steps)
    lo, hi = params["min_steps"], params["max_steps"]
    if params["require_all_steps"] and count != hi:
        raise _witch_error(
            gettext_noop("Witch %(witch)s has %(n)s steps: this round requires all %(max)s steps."),
            witch,
            n=count,
            max=hi,
        )
    if count < lo:
        raise _witch_error(
            gettext_noop("Witch %(witch)s has %(n)s steps: this round needs at least %(min)s."),
            witch,
            n=count,
            min=lo,
        )
    if count > hi:
        raise _witch_error(
            gettext_noop("Witch %(witch)s has %(n)s steps: this round allows at most %(max)s."),
            witch,
            n=count,
            max=hi,
        )
    kind = cb.kind
    walks = 99  # walks since the last Beelzebub
    for number, (flight, target, spell, ban) in enumerate(steps, 1):
        ctx = {"witch": witch, "step": number}
        if flight:
            nxt = cb.index(*target)
            if nxt < 0 or kind[nxt] == NO_FIELD:
                raise IllegalAction(
                    gettext_noop(
                        "Witch %(witch)s, step %(step)s: the flight's target %(at)s is not a field of the board."
                    ),
                    at=list(target),
                    **ctx,
                )
            if kind[nxt] != PLAIN:
                raise IllegalAction(
                    gettext_noop(
                        "Witch %(witch)s, step %(step)s: a Beelzebub never lands on a start or goal field."
                    ),
                    **ctx,
                )
            if nxt == pos:
                raise IllegalAction(
                    gettext_noop("Witch %(witch)s, step %(step)s: standing still is not allowed."),
                    **ctx,
                )
            walks = 0
        else:
            nxt = cb.nb[target][pos]
            if nxt < 0:
                raise IllegalAction(
                    gettext_noop("Witch %(witch)s, step %(step)s: this walk leaves the board."),
                    **ctx,
                )
            at = list(cb.coords[nxt])
            if kind[nxt] == NO_FIELD:
                raise IllegalAction(
                    gettext_noop(
                        "Witch %(witch)s, step %(step)s: %(at)s is not a field of the board."
                    ),
                    at=at,
                    **ctx,
                )
            walks += 1
            if kind[nxt] == 2:  # START_A: own start fields (orders are written as side A)
                raise IllegalAction(
                    gettext_noop(
                        "Witch %(witch)s, step %(step)s: %(at)s is a start field; start fields are entered only to start."
                    ),
                    at=at,
                    **ctx,
                )
            if kind[nxt] == 3:  # START_B: a goal of side A
                if number != len(steps):
                    raise IllegalAction(
                        gettext_noop(
                            "Witch %(witch)s, step %(step)s: a goal field is entered only with the last step, which ends the path."
                        ),
                        **ctx,
                    )
                if walks < 3:
                    raise IllegalAction(
                        gettext_noop(
                            "Witch %(witch)s, step %(step)s: after a Beelzebub she must walk 3 steps, the goal at the earliest with the third."
                        ),
                        **ctx,
                    )
                if spell:
                    raise IllegalAction(
                        gettext_noop(
                            "Witch %(witch)s, step %(step)s: no spell is cast on a start or goal field."
                        ),
                        **ctx,
                    )
                return nxt
        if ban is not None:
            b = cb.index(*ban)
            if b < 0 or kind[b] == NO_FIELD:
                raise IllegalAction(
                    gettext_noop(
                        "Witch %(witch)s, step %(step)s: the ban target %(at)s is not a field of the board."
                    ),
                    at=list(ban),
                    **ctx,
                )
            if kind[b] != PLAIN:
                raise IllegalAction(
                    gettext_noop(
                        "Witch %(witch)s, step %(step)s: the ban target %(at)s is a start or goal field."
                    ),
                    at=list(ban),
                    **ctx,
                )
        pos = nxt
    return -1


def _check_counts(params: dict[str, Any], witch: int, steps: list[ParsedStep]) -> None:
    used = dict.fromkeys(("K", "M", "B", "I", "Z"), 0)
    for flight, _, spell, _ in steps:
        if flight:
            used["Z"] += 1
        if spell:
            used[spell] += 1
    allowed = params["spells"]
    for key, n in used.items():
        if n > allowed[key]:
            raise _witch_error(
                gettext_noop(
                    "Witch %(witch)s casts %(spell)s %(used)s times: this round allows %(allowed)s per witch."
                ),
                witch,
                spell=SPELL_NAMES[key],
                used=n,
                allowed=allowed[key],
            )
        if params["require_all_spells"] and n < allowed[key]:
            raise _witch_error(
                gettext_noop(
                    "Witch %(witch)s casts %(spell)s %(used)s times: this round requires all %(allowed)s."
                ),
                witch,
                spell=SPELL_NAMES[key],
                used=n,
                allowed=allowed[key],
            )


def compile_plans(
    cb: CompiledBoard, parsed: list[tuple[tuple[int, int], list[ParsedStep]]], side: int
) -> list[Plan]:
    """Turn side-A orders into index plans for ``side``, rotating by 180° for side B.

    Shape only: a target outside the rectangle becomes index -1, which the
    resolution treats as "not a field".
    """
    starts = _check_starts(cb, parsed)
    last = cb.rows * cb.cols - 1
    plans = []
    for (_, steps), start in zip(parsed, starts, strict=True):
        out = []
        for flight, target, spell, ban in steps:
            val = cb.index(*target) if flight else target
            b = -1 if ban is None else cb.index(*ban)
            if side:
                val = (last - val if val >= 0 else -1) if flight else (val + 2) % 4
                b = last - b if b >= 0 else -1
            out.append((flight, val, SPELL_CODES.get(spell, 0), b))
        plans.append((last - start if side else start, tuple(out)))
    return plans


def rotate_orders(orders: list[dict[str, Any]], rows: int, cols: int) -> list[dict[str, Any]]:
    """The 180° rotation of (normalised) orders: what side B actually plays."""
    turn = {"N": "S", "S": "N", "E": "W", "W": "E"}

    def rot(rc: list[int]) -> list[int]:
        return [rows - 1 - rc[0], cols - 1 - rc[1]]

    out = []
    for entry in orders:
        steps = []
        for step in entry["steps"]:
            s = dict(step)
            if "walk" in s:
                s["walk"] = turn[s["walk"]]
            else:
                s["fly"] = rot(s["fly"])
            if "ban_to" in s:
                s["ban_to"] = rot(s["ban_to"])
            steps.append(s)
        out.append({"start": rot(entry["start"]), "steps": steps})
    return out


__all__ = [
    "SPELL_LETTERS",
    "Plan",
    "compile_plans",
    "is_int",
    "parse_orders",
    "rotate_orders",
    "validate_orders_compiled",
]
