"""The fast path of Swiss pairing: the first complete pairing of a depth-first
search in standings order.

The highest free player takes the nearest free player in score it has not
met (inside its own score group the Dutch partner first, then whoever keeps
seats balanced), backing up when the rest cannot be paired. On standings
order the first complete pairing is usually the cheapest one; ``matching``
proves that with a lower bound, or replaces it by an exact matching.
"""

from __future__ import annotations

from dataclasses import dataclass

from .seats import conflict, unwanted
from .types import Entrant

SEARCH_BUDGET = 200_000  # search steps; past it the exact matching takes over
BATCH = 24  # partners listed at a time; more only when these are used up

Pairs = list[tuple[Entrant, Entrant]]


@dataclass(frozen=True)
class Rules:
    seat_conflicts: bool = False  # may two who both need one seat meet

    def allows(self, a: Entrant, b: Entrant) -> bool:
        """No repeat, and no seat conflict unless conflicts are allowed."""
        if b.id in a.opponents:
            return False
        return self.seat_conflicts or not conflict(a, b)


@dataclass
class Frame:
    """One level of the search: a player, the partners to try, how many were tried."""

    player: int
    partners: list[int]
    scanned: int  # partners come from order[player + 1 : scanned]
    tried: int = 0
    paired: bool = False  # its last try is in ``chosen``


def _candidates(
    order: list[Entrant], free: list[bool], p: int, rules: Rules, start: int
) -> tuple[list[int], int]:
    """The next free players ``order[p]`` may meet from ``start`` on, best
    partner first, and where to go on: at least ``BATCH`` of them, up to the
    end of a score group (later groups only cost more)."""
    me = order[p]
    group = []
    for i in range(p, len(order)):
        if order[i].score != me.score:
            break
        if i == p or free[i]:
            group.append(i)
    half = len(group) // 2
    place = {index: pos for pos, index in enumerate(group)}
    found: list[tuple[float, int, bool, int]] = []
    i = start
    while i < len(order):
        if len(found) >= BATCH and order[i].score != order[i - 1].score:
            break
        other = order[i]
        i += 1
        if not free[i - 1] or not rules.allows(me, other):
            continue
        dutch = abs(place[i - 1] - half) if i - 1 in place else 0
        found.append((abs(me.score - other.score), dutch, unwanted(me, other), i - 1))
    found.sort()
    return [index for *_, index in found], i


def _frame(order: list[Entrant], free: list[bool], p: int, rules: Rules) -> Frame:
    partners, scanned = _candidates(order, free, p, rules, p + 1)
    return Frame(p, partners, scanned)


def first_pairing(order: list[Entrant], rules: Rules) -> Pairs | None:
    """The first complete pairing of ``order`` (None: none within the budget)."""
    n = len(order)
    free = [True] * n
    chosen: list[tuple[int, int]] = []
    stack = [_frame(order, free, 0, rules)]
    free[0] = False
    for _ in range(SEARCH_BUDGET):
        if not stack:
            return None
        frame = stack[-1]
        p, cands, k = frame.player, frame.partners, frame.tried
        if frame.paired:  # undo this frame's last try
            frame.paired = False
            free[chosen.pop()[1]] = True
        if k >= len(cands) and frame.scanned < n:
            more, frame.scanned = _candidates(order, free, p, rules, frame.scanned)
            cands += more
        if k >= len(cands):
            free[p] = True
            stack.pop()
            continue
        q = cands[k]
        frame.tried = k + 1
        free[q] = False
        frame.paired = True
        chosen.append((p, q))
        nxt = next((i for i in range(p + 1, n) if free[i]), None)
        if nxt is None:
            return [(order[a], order[b]) for a, b in chosen]
        free[nxt] = False
        stack.append(_frame(order, free, nxt, rules))
    return None
