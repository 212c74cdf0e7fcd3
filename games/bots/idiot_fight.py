"""Das Idiotenspiel bots: the combat phase (pairings, rolls, retreats, advances).

Pairings: every legal attack is weighed by its exact odds with the real
bonuses (terrain, hill, leader, aura, shield wall) and the best one is fought
first, so the strongest attackers take the fights that pay most (a leader in
reach first of all); optional fights are left alone unless they pay.
"""

from __future__ import annotations

from typing import Any

from games.bots.idiot_board import Board
from games.bots.idiot_odds import melee_odds, shot_odds, value, worth
from games.rules.idiotenspiel import combat as cb
from games.rules.idiotenspiel.maps import melee_terrain_bonus
from games.rules.idiotenspiel.scenarios import MARIAN_ID
from games.rules.idiotenspiel.state import Pos, Unit
from games.rules.idiotenspiel.work import Work

Action = dict[str, Any]


def _bonus(w: Work, u: Unit, foe: Unit, melee: bool, defending: bool) -> int:
    return sum(int(b["value"]) for b in cb.bonuses(w, u, foe, melee, defending))


def attack_worth(
    w: Work, a: Unit, d: Unit, melee: bool, trapped_rule: bool, duel: bool = False
) -> float:
    """Expected gain of one attack for the attacker's side, by the real bonuses
    (``duel``: against a lone enemy leader, one's own leader's risk is not doubled)."""
    ba = _bonus(w, a, d, melee, False)
    va, vd = value(a.type, a.leader, not duel), value(d.type, d.leader)
    if d.civilian:
        odds = melee_odds(ba, 0, True)
        return worth(odds, va, vd)
    bd = _bonus(w, d, a, melee, True)
    away = None if melee else a.at
    trapped = trapped_rule and not cb.retreat_options(w, d, away)
    if melee:
        return worth(melee_odds(ba, bd), va, vd, trapped)
    return min(worth(shot_odds(ba, bd, r), va, vd, trapped) for r in (True, False))


def choose_attack(
    w: Work, seat: int, legal: list[Action], trapped_rule: bool, duel: bool = False
) -> Action:
    best: Action | None = None
    best_v = 0.0
    can_end = any(a["type"] == "end_combat" for a in legal)
    for act in legal:
        if act["type"] != "attack" or "capture" in act:
            continue
        a, d = w.unit(act["unit"]), w.unit(act["target"])
        v = attack_worth(w, a, d, act["kind"] == "melee", trapped_rule, duel)
        if d.id == MARIAN_ID:  # the side that kills her loses
            v -= 100.0
        if best is None or v > best_v:
            best, best_v = act, v
    if best is None or (can_end and best_v <= 0.0):
        return {"type": "end_combat"} if can_end else legal[0]
    return best


def retreat_score(board: Board, u: Unit, to: Pos) -> float:
    """A retreat field: away from unfought enemies (each would owe a re-attack),
    good ground, friends near, towards home."""
    w = board.w
    fresh = sum(1 for e in board.foe_near(to) if e.fights == 0 and not e.civilian)
    s = -(8.0 if u.leader else 1.0) * fresh
    s += 0.3 * melee_terrain_bonus(u.kind, board.terrain(to), ".")
    s += 0.1 * board.support(u, to)
    s -= 0.02 * board.home_dist(to, u.side)
    if u.leader:
        s += 0.3 * min(board.dist(u.kind)[w.fi(to)], 6)
    return s


def choose_pending(board: Board, legal: list[Action]) -> Action:
    w = board.w
    p = w.pending
    assert p is not None
    if p.kind == "defend":
        return {"type": "roll"}  # rolling never costs more and ends further shots
    if p.kind == "capture":
        return {"type": "capture", "yes": False}  # a dead leader stays dead
    u = w.unit(p.unit)
    if p.kind == "retreat":
        best = max(p.options, key=lambda f: (retreat_score(board, u, f), -f[1], -f[0]))
        return {"type": "retreat", "to": [best[0], best[1]]}
    assert p.field is not None and u.at is not None
    yes = not u.leader and board.p.threat > 0 and board.score(u, p.field) >= board.score(u, u.at)
    if board.p.threat == 0:
        yes = not u.leader
    return {"type": "advance", "yes": yes}
