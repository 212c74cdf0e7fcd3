"""Malefiz bots: a greedy easy level, a one-ply medium, an expectimax strong.

Every level sees only the public position (``malefiz_core.Pos``: pieces, houses,
barricades) and the roll on the table; future rolls are weighed by their odds
(1..6, each 1/6), never read from the game's seed. Budgets are counts of
positions evaluated, so choices do not depend on the machine's speed.

- easy: the move that leaves the best static evaluation (cheap weights);
  barricades go straight in front of the leading rival.
- medium: the same with barricade-aware weights; a barricade in hand is tried
  on every free field.
- strong: two seats, expectimax: each move, then every roll of the rival and
  its best reply; the few moves that look best so looked at a ply deeper, every
  roll of its own after that and its best answer (so a win on its next roll
  counts: two pieces at two different distances from the goal win on two
  faces, one piece on one). Three or four seats: each move is played on through sampled
  rounds in which every rival rolls (sampled dice, the same for every
  candidate) and plays its own best reply.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.base import Action, Bot, check_clock, view_rng
from games.bots.malefiz_core import (
    Move,
    Pos,
    Weights,
    evaluate,
    free_placeable,
    moves,
    place,
    play,
    pos_of,
    quick_place,
)
from games.rules.malefiz import FIELDS, GOAL, HOUSE, MOVE, PLACE, ROLL, MalefizState, bits

EASY = Weights(penalty=0, second=0.15, rest=0.0, home_extra=0)
FULL = Weights(penalty=4, second=0.3, rest=0.05, home_extra=2)
CLOCK_EVERY = 256  # nodes between safety-net clock checks
SAMPLES = 12  # sampled rounds per move with three or four seats (two per face of the first die)
ROOT_WIDTH = 6  # moves searched with three or four seats
DEEP_WIDTH = 4  # two seats: moves searched a ply deeper (its own next roll)


def _xy(field: int) -> list[int]:
    return [*FIELDS[field]]


def _alive(state: MalefizState) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if s not in state.left)


def _next(seat: int, alive: tuple[int, ...]) -> int:
    later = [s for s in alive if s > seat]
    return later[0] if later else alive[0]


class Search:
    """One decision's search: a node counter and the position's fixed facts."""

    def __init__(self, state: MalefizState, seat: int, weights: Weights) -> None:
        self.seats = state.seats
        self.seat = seat
        self.alive = _alive(state)
        self.w = weights
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0:
            check_clock()

    def value(self, pos: Pos, seat: int) -> float:
        self.tick()
        return evaluate(pos, self.seats, seat, self.alive, self.w)

    def after(self, pos: Pos, seat: int, move: Move, best_place: bool = False) -> Pos:
        """``move`` played, a barricade taken put back (cheaply or by evaluation)."""
        new, taken = play(pos, seat, move)
        if not taken:
            return new
        if best_place:
            return place(new, self.best_place(new, seat))
        return place(new, quick_place(new, self.seats, seat, self.alive, self.w.penalty))

    def best_place(self, pos: Pos, seat: int) -> int:
        """The free field where a barricade leaves ``seat`` best placed."""
        best, best_val = -1, -1e18
        for f in bits(free_placeable(pos)):
            val = self.value(place(pos, f), seat)
            if val > best_val:
                best, best_val = f, val
        return best

    def reply(self, pos: Pos, seat: int, roll: int) -> Pos:
        """``seat``'s one-ply best answer to ``roll`` (the position itself if it passes)."""
        best, best_val = pos, -1e18
        for mv in moves(pos, self.seats, seat, roll):
            if mv[1] == GOAL:
                return play(pos, seat, mv)[0]
            new = self.after(pos, seat, mv)
            val = self.value(new, seat)
            if val > best_val:
                best, best_val = new, val
        return best

    def expect_reply(self, pos: Pos, rival: int) -> float:
        """My value after ``rival`` rolls (each face 1/6) and answers at its best."""
        total = 0.0
        for roll in range(1, 7):
            total += self.value(self.reply(pos, rival, roll), self.seat)
        return total / 6

    def expect_round(self, pos: Pos, rival: int) -> float:
        """My value after ``rival`` rolls and answers at its best, and then I roll
        and answer at my best (every face 1/6; a rival's win is the worst)."""
        total = 0.0
        for roll in range(1, 7):
            cur = self.reply(pos, rival, roll)
            if cur.pieces[rival] >> GOAL & 1:
                total += self.value(cur, self.seat)
                continue
            mine = 0.0
            for again in range(1, 7):
                mine += self.value(self.reply(cur, self.seat, again), self.seat)
            total += mine / 6
        return total / 6

    def sampled_rounds(self, pos: Pos, dice: list[list[int]]) -> float:
        """My mean value after each sampled round of rival replies."""
        rivals = []
        s = _next(self.seat, self.alive)
        while s != self.seat:
            rivals.append(s)
            s = _next(s, self.alive)
        total = 0.0
        for rolls in dice:
            cur = pos
            for rival, roll in zip(rivals, rolls, strict=False):
                cur = self.reply(cur, rival, roll)
                if cur.pieces[rival] >> GOAL & 1:
                    break
            total += self.value(cur, self.seat)
        return total / len(dice)


class MalefizBot:
    def __init__(self, level: str) -> None:
        self.level = level
        self.weights = EASY if level == "easy" else FULL
        self.samples = SAMPLES

    def choose(self, state: MalefizState, seat: int, *, seed: int) -> Action:
        if state.phase == ROLL:
            return {"type": "roll"}
        search = Search(state, seat, self.weights)
        pos = pos_of(state)
        if state.phase == PLACE:
            if self.level == "easy":
                field = quick_place(pos, state.seats, seat, search.alive, 0)
            else:
                field = search.best_place(pos, seat)
            return {"type": "barricade", "to": _xy(field)}
        assert state.phase == MOVE
        move = self.pick_move(state, seat, seed, search, pos)
        start, to = move
        return {"type": "move", "from": "house" if start == HOUSE else _xy(start), "to": _xy(to)}

    def pick_move(
        self, state: MalefizState, seat: int, seed: int, search: Search, pos: Pos
    ) -> Move:
        roll = state.last_roll[1]
        options = moves(pos, state.seats, seat, roll)
        for mv in options:
            if mv[1] == GOAL:
                return mv
        if len(options) == 1:
            return options[0]
        deep = self.level == "strong"
        afters = [search.after(pos, seat, mv, best_place=self.level != "easy") for mv in options]
        if not deep:
            scores = [search.value(p, seat) for p in afters]
        elif len(search.alive) == 2:
            rival = _next(seat, search.alive)
            scores = [search.expect_reply(p, rival) for p in afters]
            keep = sorted(range(len(options)), key=lambda i: (-scores[i], i))[:DEEP_WIDTH]
            scores = [
                search.expect_round(p, rival) if i in keep else -1e18 for i, p in enumerate(afters)
            ]
        else:
            # Sampled rounds for the few moves the one-ply value likes best.
            quick = [search.value(p, seat) for p in afters]
            keep = sorted(range(len(options)), key=lambda i: (-quick[i], i))[:ROOT_WIDTH]
            dice = self.sample_dice(state, seat, seed, len(search.alive) - 1)
            scores = [
                search.sampled_rounds(p, dice) if i in keep else -1e18 for i, p in enumerate(afters)
            ]
        best = max(range(len(options)), key=lambda i: (scores[i], -i))
        return options[best]

    def sample_dice(self, state: Any, seat: int, seed: int, rivals: int) -> list[list[int]]:
        """Rolls for the sampled rounds, from the view only; stratified on the first die."""
        rng: random.Random = view_rng("malefiz", state, seat, seed)
        return [
            [1 + i % 6] + [rng.randint(1, 6) for _ in range(rivals - 1)]
            for i in range(self.samples)
        ]


def make(level: str) -> Bot:
    return MalefizBot(level)
