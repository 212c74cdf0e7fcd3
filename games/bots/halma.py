"""Halma bots: alpha-beta with iterative deepening, a transposition table and
a beam of the best-ordered moves (RULES.md section 1, two seats only).

The evaluation is each side's distance still to go (convex, so stragglers
count more and the group keeps together for jump ladders), a small pull
towards the long diagonal (the jump highway) and the 50-move house rule: a
piece still in its own house costs more the fewer moves are left, and the
search sees the rule's outcomes exactly (loss at move 50, loss for stepping
back into the house after it).

Budgets are node and depth limits, never the clock, so a choice is the same
for the same (state, seat, seed) on any machine; ``check_clock`` is only the
safety net.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bots.base import Action, Bot, check_clock, view_rng
from games.bots.search import Entry, OutOfNodes, bound, deepen, probe
from games.rules.halma import (
    COL,
    FIELDS,
    HOUSE_FLAGS,
    JUMPS,
    MOVE_LIMIT,
    NEIGH,
    PIECES,
    ROW,
    HalmaState,
)

Move = tuple[int, int]  # (from, to) field indices
WIN = 1_000_000
LIMIT_PLIES = 2 * MOVE_LIMIT


def _cost(seat: int, field: int) -> int:
    """What a piece on ``field`` still costs ``seat``: convex in the distance to go."""
    r, c = ROW[field], COL[field]
    d = r + c if seat == 0 else 18 - r - c  # 0 in the target corner
    off = abs(r - c)
    return 10 * d + d * d // 4 + 3 * off


COST = tuple(tuple(_cost(s, f) for f in range(FIELDS)) for s in (0, 1))
# A seat's target is the other seat's house.
TARGET = (HOUSE_FLAGS[1], HOUSE_FLAGS[0])
_ZR = random.Random(0x4A1A)
ZOBRIST = tuple(tuple(_ZR.getrandbits(64) for _ in range(FIELDS)) for _ in (0, 1))
ZSIDE = _ZR.getrandbits(64)


@dataclass(frozen=True, slots=True)
class Level:
    depth: int  # deepest iteration
    beam: int  # moves searched per node (best ordered first)
    nodes: int  # node budget: no new iteration starts past it
    cap: int  # an iteration past this many nodes is abandoned
    noise: int  # random jitter on root scores (easy plays less exactly)


LEVELS = {
    "easy": Level(depth=1, beam=200, nodes=2_000, cap=10_000, noise=12),
    "medium": Level(depth=3, beam=6, nodes=3_000, cap=12_000, noise=0),
    "strong": Level(depth=5, beam=8, nodes=15_000, cap=60_000, noise=0),
}


class Position:
    """The mutable search position: occupancy, piece sets and running sums."""

    def __init__(self, state: HalmaState) -> None:
        self.occ = bytearray(FIELDS)
        self.pieces = [set(state.pieces[0]), set(state.pieces[1])]
        self.cost = [0, 0]
        self.house = [0, 0]  # pieces in own house
        self.target = [0, 0]  # pieces in the target house
        self.hash = 0
        for s in (0, 1):
            for f in state.pieces[s]:
                self.occ[f] = 1 + s
                self.cost[s] += COST[s][f]
                self.house[s] += HOUSE_FLAGS[s][f]
                self.target[s] += TARGET[s][f]
                self.hash ^= ZOBRIST[s][f]
        self.plies = state.plies
        if self.plies % 2:
            self.hash ^= ZSIDE

    def play(self, s: int, move: Move) -> None:
        a, b = move
        self._shift(s, a, b)
        self.plies += 1
        self.hash ^= ZSIDE

    def undo(self, s: int, move: Move) -> None:
        a, b = move
        self._shift(s, b, a)
        self.plies -= 1
        self.hash ^= ZSIDE

    def _shift(self, s: int, a: int, b: int) -> None:
        self.occ[a] = 0
        self.occ[b] = 1 + s
        pieces = self.pieces[s]
        pieces.discard(a)
        pieces.add(b)
        cost, house, target = COST[s], HOUSE_FLAGS[s], TARGET[s]
        self.cost[s] += cost[b] - cost[a]
        self.house[s] += house[b] - house[a]
        self.target[s] += target[b] - target[a]
        self.hash ^= ZOBRIST[s][a] ^ ZOBRIST[s][b]

    def moves(self, s: int) -> list[Move]:
        """Every (from, to) of ``s``: steps and the ends of jump chains."""
        occ = self.occ
        out: list[Move] = []
        for i in self.pieces[s]:
            for n in NEIGH[i]:
                if not occ[n]:
                    out.append((i, n))
            seen = bytearray(occ)
            seen[i] = 1
            keep, occ[i] = occ[i], 0
            frontier = [i]
            for field in frontier:
                for over, land in JUMPS[field]:
                    if occ[over] and not seen[land]:
                        seen[land] = 1
                        out.append((i, land))
                        frontier.append(land)
            occ[i] = keep
        return out

    def terminal(self, mover: int) -> int | None:
        """The score for the side to move now (``1 - mover``) if the game is over;
        a nearer win scores higher, so a won game gets finished."""
        won = WIN - self.plies
        if self.target[mover] == PIECES:
            return -won
        if self.plies >= LIMIT_PLIES:
            stuck = self.house[0] > 0, self.house[1] > 0
            if self.plies == LIMIT_PLIES and stuck[0] and stuck[1]:
                return 0
            if stuck[mover]:
                return won
            if self.plies == LIMIT_PLIES and stuck[1 - mover]:
                return -won
        return None

    def evaluate(self, s: int) -> int:
        """Static score for ``s`` (the side to move)."""
        o = 1 - s
        return self.cost[o] - self.cost[s] + self._house(o) - self._house(s)

    def _house(self, s: int) -> int:
        """The 50-move rule's pressure: pieces at home cost more as the limit
        nears, and a home piece with no move at all (boxed in) costs most."""
        h = self.house[s]
        if not h or self.plies >= LIMIT_PLIES:
            return 0
        made = (self.plies + 1 - s) // 2  # moves seat s has made
        left = MOVE_LIMIT - made
        urgency = max(0, 3 * h + 8 - left)
        cost = h * (20 + 5 * made) + urgency * urgency * 40
        if h <= 5:
            # Enemy pieces arriving in the house can box the last ones in:
            # few ways out is a danger long before none is a loss.
            occ, flags = self.occ, HOUSE_FLAGS[s]
            for i in self.pieces[s]:
                if flags[i]:
                    exits = sum(1 for n in NEIGH[i] if not occ[n]) + sum(
                        1 for over, land in JUMPS[i] if occ[over] and not occ[land]
                    )
                    cost += max(0, 3 - exits) * (40 + 6 * made)
        return cost


class Search:
    def __init__(self, pos: Position, level: Level) -> None:
        self.pos, self.level = pos, level
        self.nodes = 0
        # position hash -> (depth, score, flag: -1 upper bound, 0 exact, 1 lower, best move)
        self.table: dict[int, Entry[Move]] = {}

    def ordered(self, s: int, moves: list[Move], first: Move | None) -> list[Move]:
        """The beam: the table's move, then the largest gains (leaving the
        house counts extra, much more near move 50)."""
        cost = COST[s]
        house = HOUSE_FLAGS[s]
        late = self.pos.plies >= 2 * (MOVE_LIMIT - 12)
        bonus = 60 if late else 8

        def gain(m: Move) -> int:
            a, b = m
            return cost[a] - cost[b] + bonus * (house[a] - house[b])

        moves.sort(key=gain, reverse=True)
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves[: self.level.beam]

    def negamax(self, s: int, depth: int, alpha: int, beta: int) -> int:
        pos = self.pos
        self.nodes += 1
        if self.nodes & 255 == 0:
            check_clock()
            if self.nodes > self.level.cap:
                raise OutOfNodes
        if depth == 0:
            return pos.evaluate(s)
        known, first = probe(self.table.get(pos.hash), depth, alpha, beta)
        if known is not None:
            return known
        moves = pos.moves(s)
        if not moves:  # a blocked side passes
            return -self.negamax(1 - s, depth - 1, -beta, -alpha)
        start_alpha, best, best_move = alpha, -2 * WIN, moves[0]
        for move in self.ordered(s, moves, first):
            pos.play(s, move)
            end = pos.terminal(s)
            score = -(end if end is not None else self.negamax(1 - s, depth - 1, -beta, -alpha))
            pos.undo(s, move)
            if score > best:
                best, best_move = score, move
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        self.table[pos.hash] = (depth, best, bound(best, start_alpha, beta), best_move)
        return best

    def root(self, s: int, rng: random.Random) -> Move:
        moves = self.pos.moves(s)
        moves.sort()
        rng.shuffle(moves)  # ties fall by the seed
        return deepen(
            moves[0],
            self.level.depth,
            self.budget_spent,
            lambda depth, best_move, scored: self.iteration(
                s, depth, moves, best_move, scored, rng
            ),
        )

    def budget_spent(self) -> bool:
        return self.nodes >= self.level.nodes

    def iteration(
        self,
        s: int,
        depth: int,
        moves: list[Move],
        best_move: Move,
        scored: list[tuple[int, Move]],
        rng: random.Random,
    ) -> None:
        """One iteration at the root; fills ``scored`` with (score, move)."""
        pos, noise = self.pos, self.level.noise
        alpha = -2 * WIN
        for move in self.ordered(s, list(moves), best_move if depth > 1 else None):
            pos.play(s, move)
            end = pos.terminal(s)
            if end is None:
                end = self.negamax(1 - s, depth - 1, -2 * WIN, -alpha)
            pos.undo(s, move)
            score = -end
            if noise and abs(score) < WIN // 2:
                score += rng.randrange(noise + 1)
            scored.append((score, move))
            alpha = max(alpha, score)


def path_of(state: HalmaState, seat: int, move: Move) -> list[list[int]]:
    """A shortest legal path for ``move``: a step, or a jump chain found breadth first."""
    a, b = move
    if b in NEIGH[a]:
        return [[ROW[a], COL[a]], [ROW[b], COL[b]]]
    occ = bytearray(FIELDS)
    for s in (0, 1):
        for f in state.pieces[s]:
            occ[f] = 1
    occ[a] = 0
    parent = {a: a}
    frontier = [a]
    for field in frontier:
        for over, land in JUMPS[field]:
            if occ[over] and not occ[land] and land not in parent:
                parent[land] = field
                frontier.append(land)
    chain = [b]
    while chain[-1] != a:
        chain.append(parent[chain[-1]])
    chain.reverse()
    return [[ROW[f], COL[f]] for f in chain]


def dead(state: HalmaState) -> bool:
    """Whether the game can only end drawn (RULES.md section 1, the 50-move
    rule): before move 50 is complete, each side has more pieces in its own
    house than moves left to bring them out (a move takes one piece out at
    most), so both are stuck when move 50 is complete, and no side can win
    before then (its target house holds the other's stuck pieces)."""
    if state.plies >= LIMIT_PLIES:
        return False
    for s in (0, 1):
        made = (state.plies + 1 - s) // 2  # moves seat s has made
        if sum(HOUSE_FLAGS[s][f] for f in state.pieces[s]) <= MOVE_LIMIT - made:
            return False
    return True


class HalmaBot:
    def __init__(self, level: str) -> None:
        self.level = LEVELS[level]

    def accepts_draw(self, state: Any, seat: int) -> bool:
        """A draw offer is accepted when the house rule can only end the game drawn (``dead``)."""
        return dead(state)

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        rng = view_rng("halma", state, seat, seed)
        pos = Position(state)
        move = Search(pos, self.level).root(seat, rng)
        return {"type": "move", "path": path_of(state, seat, move)}


def make(level: str) -> Bot:
    if level not in LEVELS:
        raise LookupError(f"Unknown bot level {level!r}; levels: {', '.join(LEVELS)}.")
    return HalmaBot(level)
