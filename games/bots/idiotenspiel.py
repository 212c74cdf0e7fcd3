"""Das Idiotenspiel bots: easy, medium and strong.

Every choice is made on the *blinded* state (the dice's seed and counter
zeroed, the only things the view hides), so the same view, seat and seed
always give the same action and the game's dice are never peeked at.

- set-up: a formation by unit type (infantry in front, archers behind,
  cavalry on the wings, the leader at the back), on good ground;
- posture (:mod:`idiot_plan`): far ahead, hunt the leader or Marian's guard
  down; in a long standoff the side at least as strong presses on;
- movement: one unit at a time, the best field by :meth:`Board.score`
  (this turn's fight by its exact odds, the enemy's next turn, ground, the
  leader's aura, the line, progress; the leader keeps out of reach);
- combat: :mod:`idiot_fight` (pairings by expected gain, rolls, retreats,
  advances); Maid Marian: towards the nearest goal, away from the Sheriff.

Budgets are counts (units, fields), never the clock.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.bots.base import Bot, check_clock
from games.bots.idiot_board import LEVEL_PARAMS, Board, Params, cheb
from games.bots.idiot_fight import choose_attack, choose_pending
from games.bots.idiot_goals import followers, goal_score, marian_target, winning_move
from games.bots.idiot_plan import Posture, forcing, posture
from games.rules.idiotenspiel import IdiotenspielRuleset, flow
from games.rules.idiotenspiel.maps import melee_terrain_bonus
from games.rules.idiotenspiel.movement import home_distance
from games.rules.idiotenspiel.state import Pos, State, Unit
from games.rules.idiotenspiel.work import Work

Action = dict[str, Any]
SLUG = "idiotenspiel"
RS = IdiotenspielRuleset()
PLACE_ORDER = {"infantry": 0, "shieldwall": 0, "archer": 1, "slinger": 1, "cavalry": 2}
DEPTH = {"infantry": 8, "shieldwall": 8, "archer": 6, "slinger": 6, "cavalry": 7}


class IdiotBot:
    def __init__(self, level: str) -> None:
        self.level = level
        self.params: Params = LEVEL_PARAMS[level]

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rs = RS
        blind: State = replace(state, seed=0, rng=0)  # what the view hides
        if seat not in rs.to_act(blind):
            raise LookupError(f"Seat {seat} has nothing to do in this {SLUG} position.")
        w = Work(blind)
        phase = blind.phase
        if phase == "choose":
            legal = rs.legal_actions(blind, seat)
            return next((a for a in legal if a["zone"] == "edge"), legal[0])
        if phase == "setup":
            return self._place(w, seat, rs.legal_actions(blind, seat))
        if phase in ("move", "grace"):
            return self._move(w, seat)
        if phase == "combat":
            board = Board(w, seat, self.params)
            if blind.pending is not None:
                return choose_pending(board, rs.legal_actions(blind, seat))
            legal = rs.legal_actions(blind, seat)
            return choose_attack(w, seat, legal, self.params.trapped, board.duel)
        return {"type": "move_marian", "to": list(marian_target(w))}

    # -- set-up --------------------------------------------------------------------
    def _place(self, w: Work, seat: int, legal: list[Action]) -> Action:
        def rank(a: Action) -> tuple[int, str]:
            u = w.unit(a["unit"])
            return (9 if u.leader else PLACE_ORDER.get(u.type, 3), u.id)

        first = min(rank(a) for a in legal)
        mine = [a for a in legal if rank(a) == first]
        return max(mine, key=lambda a: (self._place_score(w, seat, a), -a["at"][1], -a["at"][0]))

    def _place_score(self, w: Work, seat: int, a: Action) -> float:
        u = w.unit(a["unit"])
        x, y = a["at"]
        i = w.fi((x, y))
        md = w.md
        crowd = sum(1 for v in w.here(i) if v.side == seat and v.combatant)
        if u.side != seat:  # Maid Marian: with the most infantry, south (towards the castle)
            foot = sum(1 for v in w.here(i) if v.side == seat and v.kind == "infantry")
            return float(foot + 0.1 * y)
        s = -0.7 * crowd + 0.6 * melee_terrain_bonus(u.kind, md.rows[y][x], ".")
        if w.state.scenario == "marian":
            if seat == 0:  # Robin: the forest nearest the Sheriff's camp
                camp = [w.fpos(j) for j, c in enumerate(md.terrain) if c == "c"]
                s -= 0.5 * min(cheb((x, y), c) for c in camp)
            return float(s)
        home = w.home[seat]
        depth = home_distance(md, i, home)
        want = 3 if u.leader else DEPTH.get(u.type, 7)
        s -= 1.0 * abs(depth - want)
        lateral, centre = (y, md.height / 2) if home in ("W", "E") else (x, md.width / 2)
        spread = 0.1 if u.kind == "cavalry" and not u.leader else 0.25
        s -= spread * abs(lateral + 0.5 - centre)
        return float(s)

    # -- movement ------------------------------------------------------------------
    def _move(self, w: Work, seat: int) -> Action:
        won = winning_move(w, seat)
        if won is not None:
            return won
        plan = posture(w, seat, self.params, self.level)
        if plan.name == "dead":  # neither side can win: let the rules' quiet draw end it
            return {"type": "end_movement"}
        board = Board(w, seat, plan.params, plan.name)
        return self._step(w, seat, plan, board) or self._last(board, plan)

    def _step(self, w: Work, seat: int, plan: Posture, board: Board) -> Action | None:
        """The unit-by-unit greedy: the first unit (nearest the enemy first, the
        leader last) whose best field gains over staying moves there; None: no
        unit gains (``board.forced`` keeps the least bad move anyway)."""
        forced: Action | None = None
        forced_gain = -1e9

        def order(u: Any) -> tuple[int, int, str]:
            return (1 if u.leader else 0, board.dist(u.kind)[w.fi(u.at)], u.id)

        for u in sorted(flow.movable(w, seat), key=order):
            check_clock()
            assert u.at is not None
            stay = board.score(u, u.at) + goal_score(board, u, u.at)
            best, best_v = None, stay + self.params.min_gain
            for to in w.targets(u):
                v = board.score(u, to) + goal_score(board, u, to)
                if v > best_v:
                    best, best_v = to, v
                if not u.leader and v - stay > forced_gain:  # leaders alone may draw
                    forced = {"type": "move", "unit": u.id, "to": [to[0], to[1]]}
                    forced_gain = v - stay
            if best is not None:
                return move_action(board, u, best)
        board.forced = forced
        return None

    def _last(self, board: Board, plan: Posture) -> Action:
        """No unit gains by moving: end the phase, unless that makes a quiet turn
        the side wants to avoid (then the least bad move keeps the game going)."""
        if board.forced is not None and _quiet(board) and forcing(plan, board.w.turn):
            return board.forced
        return {"type": "end_movement"}


def move_action(board: Board, u: Unit, to: Pos) -> Action:
    act: Action = {"type": "move", "unit": u.id, "to": [to[0], to[1]]}
    extra = followers(board, u, to)
    if extra:
        act["with"] = extra
    if u.type == "shieldwall":
        act["facing"] = _facing(board.w, board.seat)
    return act


def _quiet(board: Board) -> bool:
    """Nothing moved yet and no unit of the side stands next to an enemy."""
    return not any(u.moved or (u.at and board.foe_near(u.at)) for u in board.mine)


def _facing(w: Work, seat: int) -> str:
    home = w.home[seat] or "S"
    return {"N": "S", "S": "N", "W": "E", "E": "W"}[home]


def make(level: str) -> Bot:
    return IdiotBot(level)
