"""Swiss pairing, Dutch style: score groups from the top, top half against
bottom half inside a group, no repeat pairings, at most one bye each.

The pairing is a depth-first search in standings order: the highest free
player takes the nearest free player in score it has not met (inside its own
score group the Dutch partner first, then whoever keeps seats balanced),
backing up when the rest cannot be paired. Small fields are searched to the
end (branch and bound on the sum of score differences), so their pairing is
the best there is; larger fields take the first complete pairing, which on
standings order is the nearest-score one. Seat balance is a hard rule while
a pairing keeping it exists (small fields: one within a point of the best),
then relaxed. When no pairing avoids
a repeat or a second bye, ``NoPairing`` is raised (the tournament ends there,
as lichess's Swiss does); a search budget bounds the work either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .seats import conflict, seat_order, unwanted
from .types import Entrant, Pairing

EXHAUSTIVE_UP_TO = 14  # players; beyond this the first complete pairing is taken
SEARCH_BUDGET = 200_000  # search steps per attempt
BATCH = 24  # partners listed at a time; more only when these are used up


class NoPairing(ValueError):
    """Every pairing of the field repeats a game or gives someone a second bye."""


@dataclass
class Frame:
    """One level of the search: a player, the partners to try, how many were tried."""

    player: int
    partners: list[int]
    scanned: int  # partners come from order[player + 1 : scanned]
    tried: int = 0
    paired: bool = False  # its last try is in ``chosen``


@dataclass(frozen=True)
class Rules:
    seat_conflicts: bool = False  # may two who both need one seat meet


def standings_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, e.rank, e.id))


Try = tuple[float, list[tuple[Entrant, Entrant]], Entrant | None]  # cost, games, bye


def pair_swiss(entrants: Sequence[Entrant]) -> list[Pairing]:
    """One Swiss round: the games in board order (best scores first), then the bye.

    The bye goes to the lowest-ranked player who has had none and leaves a
    pairing; seats stay balanced. On small fields (searched to the end) both
    give way when keeping them would cost more than a point over the best
    pairing with no repeat and no second bye.
    """
    order = standings_order(entrants)
    if len(order) < 2:
        return [Pairing((e.id,), bye=True) for e in order]
    exhaustive = len(order) <= EXHAUSTIVE_UP_TO
    strict = _tries(order, Rules(), exhaustive)
    if strict and not exhaustive:
        return _round(strict[0])
    loose = _tries(order, Rules(seat_conflicts=True), exhaustive)
    if not loose:
        raise NoPairing("no pairing without a repeat or a second bye")
    limit = min(cost for cost, _, _ in loose) + 1
    chosen = next((t for t in strict if t[0] <= limit), None)
    return _round(chosen or next(t for t in loose if t[0] <= limit))


def _tries(order: list[Entrant], rules: Rules, exhaustive: bool) -> list[Try]:
    """Pairings found, one per bye candidate from the bottom up (one if no bye)."""
    if len(order) % 2 == 0:
        found = _match(order, rules, exhaustive)
        return [] if found is None else [(found[0], found[1], None)]
    tries: list[Try] = []
    for bye in reversed(order):
        if bye.had_bye:
            continue
        found = _match([e for e in order if e.id != bye.id], rules, exhaustive)
        if found is not None:
            tries.append((found[0], found[1], bye))
            if not exhaustive or found[0] == 0:
                break
    return tries


def _round(chosen: Try) -> list[Pairing]:
    _, pairs, bye = chosen
    games = _games(pairs)
    return games if bye is None else [*games, Pairing((bye.id,), bye=True)]


def _games(pairs: list[tuple[Entrant, Entrant]]) -> list[Pairing]:
    return [Pairing(seat_order(a, b, board)) for board, (a, b) in enumerate(pairs)]


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
        if not free[i - 1] or other.id in me.opponents:
            continue
        if not rules.seat_conflicts and conflict(me, other):
            continue
        dutch = abs(place[i - 1] - half) if i - 1 in place else 0
        found.append((abs(me.score - other.score), dutch, unwanted(me, other), i - 1))
    found.sort()
    return [index for *_, index in found], i


def _frame(order: list[Entrant], free: list[bool], p: int, rules: Rules) -> Frame:
    partners, scanned = _candidates(order, free, p, rules, p + 1)
    return Frame(p, partners, scanned)


def _match(
    order: list[Entrant], rules: Rules, exhaustive: bool
) -> tuple[float, list[tuple[Entrant, Entrant]]] | None:
    """The cheapest (or, not exhaustive, the first) perfect pairing of ``order``."""
    n = len(order)
    free = [True] * n
    chosen: list[tuple[int, int]] = []
    cost = 0.0
    best: tuple[float, list[tuple[Entrant, Entrant]]] | None = None
    stack = [_frame(order, free, 0, rules)]
    free[0] = False
    steps = 0
    while stack:
        steps += 1
        if steps > SEARCH_BUDGET:
            break
        frame = stack[-1]
        p, cands, k = frame.player, frame.partners, frame.tried
        if frame.paired:  # undo this frame's last try
            frame.paired = False
            _, q = chosen.pop()
            free[q] = True
            cost -= abs(order[p].score - order[q].score)
        if k >= len(cands) and frame.scanned < n:
            more, frame.scanned = _candidates(order, free, p, rules, frame.scanned)
            cands += more
        if k >= len(cands):
            free[p] = True
            stack.pop()
            continue
        q = cands[k]
        frame.tried = k + 1
        step_cost = abs(order[p].score - order[q].score)
        if best is not None and cost + step_cost >= best[0]:
            frame.tried, frame.scanned = len(cands), n  # later candidates cost no less
            continue
        free[q] = False
        frame.paired = True
        chosen.append((p, q))
        cost += step_cost
        nxt = next((i for i in range(p + 1, n) if free[i]), None)
        if nxt is None:
            best = (cost, [(order[a], order[b]) for a, b in chosen])
            if not exhaustive or cost == 0:
                break
            continue
        free[nxt] = False
        stack.append(_frame(order, free, nxt, rules))
    return best


def swiss_cost(pairings: Sequence[Pairing], scores: dict[int, float]) -> float:
    """The sum of score differences over a round's games (byes cost nothing)."""
    return sum(abs(scores[p.players[0]] - scores[p.players[1]]) for p in pairings if not p.bye)
