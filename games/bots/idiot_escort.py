"""Das Idiotenspiel bots: the strong Sheriff's escort of Maid Marian (issue 30).

Robin's army starts in the forests beside the Sheriff's camp and outnumbers
him; Marian walked by a foot guard (one field a turn) through that gauntlet
is freed within a few turns. So riders carry her (three fields a turn), two
to a field, so that one lost fight does not free her (a prisoner passes to
another captor unit in her field), to a *meeting field* next to the castle,
out of Robin's reach; one foot unit waits on a meeting field, the riders
bring her into its field, and in the next Sheriff turn the foot takes her
into the castle (only foot may enter a fortress).

A Sheriff with no foot left can never win: his riders stop running (so the
game ends by the rules instead of an endless chase).
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

from games.bots.idiot_board import Board
from games.bots.idiot_odds import melee_odds, shot_odds
from games.rules.idiotenspiel import flow
from games.rules.idiotenspiel.maps import MapData
from games.rules.idiotenspiel.scenarios import (
    MARIAN_ID,
    ROBIN,
    inner_forest,
    island_castle,
    lower_castle,
)
from games.rules.idiotenspiel.state import Unit
from games.rules.idiotenspiel.work import Work

Action = dict[str, Any]
RIDE_PULL = 1.0  # per cavalry step nearer a meeting field
MEET_FOOT = 8.0  # the riders bring her into a meeting field's waiting foot
RIDER_ESCORT = 3.0  # a second rider in her field
WAITING = 2.5  # a foot unit alone on a meeting field (the riders' rendezvous)
SAFE = 0.01  # her riders take her out of the camp only onto a field no enemy reaches
LOSS = 30.0  # per chance that her carrier loses a fight (and with it, her)
CONTACT = 15.0  # her carrier next to an enemy must fight, and may lose her


@lru_cache(maxsize=4)
def meeting_fields(md: MapData) -> frozenset[int]:
    """Fields next to the castle that both riders and foot may enter."""
    castle = lower_castle(md)
    out = set()
    for c in castle:
        for n in md.neigh[c]:
            if n not in castle and md.ranges["cavalry"][n] and md.ranges["infantry"][n]:
                out.add(n)
    return frozenset(out)


def _bfs(md: MapData, kind: str, goals: frozenset[int]) -> tuple[int, ...]:
    far = md.width * md.height
    out = [far] * far
    ranges = md.ranges[kind]
    todo: deque[int] = deque(goals)
    for i in goals:
        out[i] = 0
    while todo:
        i = todo.popleft()
        for n in md.neigh[i]:
            if ranges[n] and out[n] > out[i] + 1:
                out[n] = out[i] + 1
                todo.append(n)
    return tuple(out)


@lru_cache(maxsize=4)
def ride_distance(md: MapData) -> tuple[int, ...]:
    """Steps on cavalry ground to the nearest meeting field."""
    return _bfs(md, "cavalry", meeting_fields(md))


@lru_cache(maxsize=4)
def march_distance(md: MapData) -> tuple[int, ...]:
    """Steps on foot ground into the castle."""
    return _bfs(md, "infantry", lower_castle(md))


def marian(w: Work) -> Unit | None:
    if w.state.scenario != "marian" or MARIAN_ID not in w.idx:
        return None
    m = w.unit(MARIAN_ID)
    return m if m.on_board else None


def winning_move(w: Work, seat: int) -> Action | None:
    """A move that wins at once: a unit that may take Maid Marian along into its
    side's goal (Robin's escort with her free, the Sheriff's foot with his prisoner)."""
    m = marian(w)
    if m is None or m.at is None or (m.guard is None) != (seat == ROBIN):
        return None
    goals = island_castle(w.md) | inner_forest(w.md) if seat == ROBIN else lower_castle(w.md)
    for u in flow.movable(w, seat):
        if u.at != m.at or (m.guard != u.id and m.id not in {v.id for v in flow.takeable(w, u)}):
            continue
        for to in w.targets(u):
            if w.fi(to) in goals:
                act: Action = {"type": "move", "unit": u.id, "to": [to[0], to[1]]}
                if m.guard != u.id:
                    act["with"] = [m.id]
                return act
    return None


def has_foot(w: Work, seat: int) -> bool:
    return any(u.side == seat and u.combatant and u.kind == "infantry" for u in w.units)


def carrier(board: Board) -> Unit | None:
    """The Sheriff's unit that carries Marian this turn: her rider guard, or a
    rider in her field that takes her from her foot guard when it can ride
    her nearer the castle out of Robin's reach (not at a meeting field, where
    the foot takes her in)."""
    if "carrier" not in board.memo:
        board.memo["carrier"] = _carrier(board)
    found = board.memo["carrier"]
    return found if isinstance(found, Unit) else None


def _carrier(board: Board) -> Unit | None:
    w = board.w
    m = marian(w)
    if m is None or m.at is None or m.guard is None or m.moved:
        return None
    guard = w.unit(m.guard)
    if guard.kind == "cavalry":
        return guard if not guard.moved else None
    if w.fi(m.at) in meeting_fields(w.md) or not has_foot(w, board.seat):
        return None
    dist = ride_distance(w.md)
    for u in flow.movable(w, board.seat):
        if u.at != m.at or u.kind != "cavalry" or u.leader:
            continue
        here = dist[w.fi(u.at)]
        if any(dist[w.fi(t)] < here and danger(board, u, t) < SAFE for t in w.targets(u)):
            return u
    return None


def carrier_score(board: Board, u: Unit, at: tuple[int, int]) -> float:
    """Where her rider takes her: towards a meeting field, out of Robin's
    reach, into a field where a foot unit waits."""
    w = board.w
    i = w.fi(at)
    if not has_foot(w, u.side):  # no foot can take her in: stand, the game may end
        return -5.0 * (at != u.at)
    s = -RIDE_PULL * ride_distance(w.md)[i] - LOSS * danger(board, u, at)
    s -= board.progress(u, at)  # the general score's pull towards the enemy
    if board.foe_near(at):
        s -= CONTACT
    if i in meeting_fields(w.md) and _foot_in(w, u.side, i) == 1:
        s += MEET_FOOT
    return s


def danger(board: Board, u: Unit, at: tuple[int, int]) -> float:
    """The chance that ``u`` on ``at`` loses its worst fight before the Sheriff's
    next move (a melee or shot it retreats from or dies in; a shot's target may
    decline the roll): whoever can reach or shoot at it now or next turn."""
    melee, shots = board.threats()
    i = board.w.fi(at)
    worst = 0.0
    for e in melee.get(i, ()):
        assert e.at is not None
        o = melee_odds(board.bonus(e, e.at, at, True), board.bonus(u, at, e.at, True))
        worst = max(worst, o[0] + o[2])
    for e in shots.get(i, ()):
        assert e.at is not None
        ba, bd = board.bonus(e, e.at, at, False), board.bonus(u, at, e.at, False)
        lose = [o[0] + o[2] for o in (shot_odds(ba, bd, True), shot_odds(ba, bd, False))]
        worst = max(worst, min(lose))
    return worst


def sheriff_score(board: Board, u: Unit, at: tuple[int, int]) -> float | None:
    """The strong Sheriff's pull on ``u`` standing on ``at``; None: not his plan's
    business (the caller's general scenario pull applies)."""
    w = board.w
    m = marian(w)
    if m is None or m.at is None or m.guard is None or u.leader:
        return None
    carry = carrier(board)
    if carry is not None and carry.id == u.id:
        return carrier_score(board, u, at)
    guard = w.unit(m.guard)
    rider_guard = guard.kind == "cavalry" or carry is not None
    if not rider_guard:
        return None
    i = w.fi(at)
    if u.kind == "cavalry":  # the second rider rides with her
        target = m.at
        cav = sum(1 for v in w.here(i) if v.side == u.side and v.combatant and v.id != u.id)
        escort = RIDER_ESCORT if at == target and cav < 2 else 0.0
        return escort - 0.5 * max(abs(at[0] - target[0]), abs(at[1] - target[1]))
    # foot: into the castle; one waits alone on a meeting field
    s = -1.2 * march_distance(w.md)[i]
    if i in meeting_fields(w.md) and _foot_in(w, u.side, i, skip=u.id) == 0:
        s += WAITING
    return s


def _foot_in(w: Work, side: int, i: int, skip: str = "") -> int:
    return sum(
        1
        for v in w.here(i)
        if v.side == side and v.combatant and v.kind == "infantry" and v.id != skip
    )
