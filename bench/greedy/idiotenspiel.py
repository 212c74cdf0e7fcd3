"""The greedy reference player for Das Idiotenspiel ("attack whatever it can").

Every unit, the leader included, moves to the reachable field nearest to the
nearest enemy; every possible fight is fought (the first legal pairing each
time, end of combat only when none is left); shots are rolled, the first
retreat field is taken and every advance made. Set-up and choices: the first
legal action. The strength bars of the bots are measured against it.
"""

from __future__ import annotations

from typing import Any

from games.rules import get_ruleset
from games.rules.idiotenspiel import flow
from games.rules.idiotenspiel.work import Work

Action = dict[str, Any]


def _cheb(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class Greedy:
    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rs = get_ruleset("idiotenspiel")
        legal = rs.legal_actions(state, seat)
        if state.phase in ("move", "grace"):
            return self._move(Work(state), seat)
        if state.phase == "combat":
            if state.pending is not None:
                kind = state.pending.kind
                if kind == "defend":
                    return {"type": "roll"}
                if kind == "advance":
                    return {"type": "advance", "yes": True}
                return legal[0]
            attacks = [a for a in legal if a["type"] == "attack" and "capture" not in a]
            return attacks[0] if attacks else legal[-1]
        return legal[0]

    @staticmethod
    def _move(w: Work, seat: int) -> Action:
        foes = [u.at for u in w.units if u.side != seat and u.combatant and u.at is not None]
        if not foes:  # nothing left to attack ("Rettet Maid Marian!" goes on without them)
            return {"type": "end_movement"}
        for u in sorted(flow.movable(w, seat), key=lambda u: u.id):
            assert u.at is not None
            here = min((_cheb(u.at, f) for f in foes), default=0)
            best, best_d = None, here
            for to in w.targets(u):
                d = min(_cheb(to, f) for f in foes)
                if d < best_d:
                    best, best_d = to, d
            if best is not None:
                return {"type": "move", "unit": u.id, "to": [best[0], best[1]]}
        return {"type": "end_movement"}
