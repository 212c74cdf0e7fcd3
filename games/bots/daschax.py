"""Daschax bots: alpha-beta with iterative deepening, a transposition table,
capture-first move ordering and a capture quiescence (RULES.md section 2).

The evaluation counts material (a piece is worth more the more points it
moves), threats (enemy pieces a piece could capture next turn, exact with
blocking), facing (a front turned towards the nearest enemy) and closeness to
the enemy, so that a side ahead goes and finishes the game. Against a few
pieces left (an endgame the side ahead has won) it also counts the fields
those pieces could flee to that no piece of the side ahead covers: the net
closes until a piece has nowhere safe to go. Strong reasons so for both sides
(it flees well too); medium only when it is the side hunting. Strong also
knows the dead endings (at most two pieces a side, the same sizes: no side
can force a capture, and the rules give such a game no end): it scores them
as a draw less a contempt, so it keeps a game it can still win alive rather
than trade into one, and trades into one only from a game it would lose.

The site makes a fresh bot for every decision, so a bot keeps nothing between
moves. What stops a side ahead from turning a piece back and forth is in the
view: it marks down a move that remakes one of the boards of the last turns
(``recent_boards``, digests the ruleset keeps), as long as it is ahead.

Every variant is played: placement (a fixed template of the start row),
turns with "move on after a capture" and "backward" steps. The bot never
removes its own pieces (a turn is always legal, removals never are needed).
Budgets are depth and node limits, never the clock.

Speed (the same scores, so the same moves, only sooner): play and undo keep
each side's pieces by field, as bit masks and as exact codes, so no node
scans the board; the evaluation works on per-field tables and masks, and
the search caches by those codes what depends only on part of a position
(a side's closeness and threats, the moves, the captures).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from games.bots.base import Action, Bot, check_clock
from games.bots.search import Entry, OutOfNodes, bound, deepen, probe
from games.rules import get_ruleset
from games.rules.daschax import (
    CELLS,
    COLS,
    NEIGHBOUR,
    SIZES,
    START_ROW,
    DaschaxState,
    Piece,
)
from games.rules.daschax.state import board_digest
from games.rules.daschax.tree import turn_actions

VALUE = (0, 100, 180, 260)  # by points
WIN = 1_000_000
ENDGAME = 2  # enemy pieces at most: the side ahead hunts them with a net
CLOSE_IN = 2  # per field between a hunter and the nearest enemy piece
ESCAPE = 12  # per field an enemy piece could flee to unharmed
TRAPPED = 60  # an enemy piece with no safe field left
REPEAT = 60  # per time a root move remakes one of the view's recent boards
DEAD = 2  # pieces a side at most in an ending that no side can win (equal sizes)
# White's start row from column 0; Black's is its 180-degree rotation.
TEMPLATE = "SMSLSMLSMS"
LETTER_SIZE = {"S": 0, "M": 1, "L": 2}

Board = list[Piece | None]
Move = tuple[int, tuple[str, ...]]  # (start cell, steps)
Route = tuple[tuple[int, ...], tuple[str, ...]]  # fields crossed before the target, steps
Reach = dict[int, tuple[Route, ...]]  # target field -> the ways to end a move there


def _distances() -> tuple[tuple[int, ...], ...]:
    """Hex distance between every two fields (breadth first over NEIGHBOUR)."""
    rows = []
    for a in range(CELLS):
        dist = [-1] * CELLS
        dist[a] = 0
        frontier = [a]
        for cell in frontier:
            for n in NEIGHBOUR[cell]:
                if n >= 0 and dist[n] < 0:
                    dist[n] = dist[cell] + 1
                    frontier.append(n)
        rows.append(tuple(dist))
    return tuple(rows)


DIST = _distances()
_REACH: dict[tuple[int, int, int, bool], Reach] = {}


def reach(cell: int, facing: int, points: int, backward: bool) -> Reach:
    """Every way to end a move on a field, with the fields crossed on the way
    (cached per piece situation): the candidates for a capture."""
    key = (cell, facing, points, backward)
    found = _REACH.get(key)
    if found is not None:
        return found
    best: dict[tuple[int, tuple[int, ...]], tuple[str, ...]] = {}

    def grow(steps: tuple[str, ...], crossed: tuple[int, ...], at: int, face: int) -> None:
        if len(steps) == points:
            return
        for step in ("F", "L", "R", "B") if backward else ("F", "L", "R"):
            if step in "LR":
                if steps and {steps[-1], step} == {"L", "R"}:
                    continue
                grow((*steps, step), crossed, at, (face + (1 if step == "R" else -1)) % 6)
                continue
            nxt = NEIGHBOUR[at][face if step == "F" else (face + 3) % 6]
            if nxt < 0 or nxt == cell:
                continue
            sig = (nxt, crossed)
            if sig not in best or len(best[sig]) > len(steps) + 1:
                best[sig] = (*steps, step)
            grow((*steps, step), (*crossed, nxt), nxt, face)

    grow((), (), cell, facing)
    routes: dict[int, list[Route]] = {}
    for (target, crossed), steps in best.items():
        routes.setdefault(target, []).append((crossed, steps))
    found = {target: tuple(r) for target, r in routes.items()}
    _REACH[key] = found
    return found


# What the evaluation asks of every piece at every node, as bit masks (bit
# ``cell`` stands for a field): a reach's ends, those with a way that crosses
# no field (never blocked), and per other end the masks of its ways' fields.
Span = tuple[int, int, dict[int, tuple[int, ...]]]
_UNSPANNED: list[Span | None] = [None] * (CELLS * 24)
_SPANS = (_UNSPANNED, _UNSPANNED.copy())  # without and with backward steps


def span(cell: int, piece: Piece, backward: bool) -> Span:
    """``reach`` as masks (cached per piece situation)."""
    spans = _SPANS[backward]
    index = cell * 24 + piece[1] * 6 + piece[2]  # Search._side_of inlines this
    found = spans[index]
    if found is None:
        ends = free = 0
        ways: dict[int, tuple[int, ...]] = {}
        for target, routes in reach(cell, piece[2], piece[1], backward).items():
            ends |= 1 << target
            masks = tuple(sum(1 << c for c in set(crossed)) for crossed, _ in routes)
            if 0 in masks:
                free |= 1 << target
            else:
                ways[target] = masks
        found = spans[index] = (ends, free, ways)
    return found


def cells(mask: int) -> Iterator[int]:
    """The fields of a mask, in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def open_ends(piece_span: Span, among: int, occupied: int) -> int:
    """Those fields of ``among`` the piece can end a move on: a way there
    crosses no occupied field."""
    ends, free, ways = piece_span
    hits = ends & among
    out = hits & free
    for target in cells(hits & ~free):
        if any(not way & occupied for way in ways[target]):
            out |= 1 << target
    return out


def _nearness() -> tuple[tuple[int, ...], ...]:
    """Per cell * 6 + facing: for every field, twice its distance from the
    cell, less one if the field ahead is nearer to it. The least of these over
    the enemy fields is 2 d, less one if the field ahead is nearer than d to
    some enemy piece (d: the distance to the nearest one). One minimum for
    both: the field ahead is at most one nearer to any field than the cell,
    so it can be nearer than d only to one of the nearest."""
    rows = []
    for cell in range(CELLS):
        for facing in range(6):
            ahead = NEIGHBOUR[cell][facing]
            here = DIST[cell]
            there = DIST[ahead] if ahead >= 0 else here
            rows.append(tuple([2 * h - (a < h) for h, a in zip(here, there, strict=True)]))
    return tuple(rows)


NEAR = _nearness()
# Per chase (1 or 2) and least nearness k (see _nearness): the score of the
# distance d = ceil(k / 2) to the nearest enemy piece, and 6 for facing it.
CLOSING = {
    chase: tuple(-chase * ((k + 1) >> 1) + 6 * (k & 1) for k in range(2 * CELLS))
    for chase in (1, 2, CLOSE_IN)
}
THREAT = tuple(4 + v // 25 for v in VALUE)  # per points of a piece that could be taken


@dataclass(frozen=True, slots=True)
class Level:
    depth: int
    nodes: int  # no new iteration starts past this many nodes
    cap: int  # an iteration past this many nodes is abandoned
    quiet: int  # quiescence depth (captures only)
    noise: int  # random jitter on root scores
    # The net round a few enemy pieces: "" never, "hunt" only for the side
    # choosing (medium), "both" for the hunters and the hunted (strong).
    net: str = ""
    # What a dead ending (see ``Search.dead``) is worth below a level game
    # for the side choosing; 0: it does not know them.
    contempt: int = 0


LEVELS = {
    "easy": Level(depth=1, nodes=1_000, cap=3_000, quiet=0, noise=30),
    "medium": Level(depth=2, nodes=400, cap=700, quiet=2, noise=0, net="hunt"),
    "strong": Level(depth=3, nodes=700, cap=1_600, quiet=4, noise=0, net="both", contempt=60),
}


# What undo needs of a move: its start field, the piece as it started, the
# end field, and the (field, piece) of every capture.
Undo = tuple[int, Piece, int, list[tuple[int, Piece]]]


class Search:
    def __init__(self, state: DaschaxState, level: Level, me: int) -> None:
        self.board: Board = list(state.board)
        self.me = me  # the seat choosing
        self.move_on = state.variants.move_on
        self.backward = state.variants.backward
        self.level = level
        self.nodes = 0
        self.ply = 0  # plies below the root: a nearer win scores higher
        self.table: dict[tuple[Any, ...], Entry[Move]] = {}
        # Per seat, kept by _put and _lift so that no node scans the board:
        # its pieces by field, their fields as a mask, exact codes of them
        # (5 bits a field for points and facing, 2 for points) and their values.
        self.pieces: tuple[dict[int, Piece], dict[int, Piece]] = ({}, {})
        self.mask = [0, 0]
        self.code = [0, 0]
        self.sizes = [0, 0]
        self.material = [0, 0]
        for cell, p in enumerate(state.board):
            if p is not None:
                self._put(p[0], cell, p)
        self.spans = _SPANS[self.backward]
        # Caches by exactly what each result depends on. A side's pieces and
        # the other's often stand as at an earlier node (only one of them
        # moved since), and iterative deepening visits nodes again: about
        # half the calls in midgame searches are answered here.
        self.sides: dict[tuple[int, int, int], int] = {}  # _side
        self.known_moves: dict[tuple[int, int], list[Move]] = {}
        self.known_captures: dict[tuple[int, int], list[tuple[int, Move]]] = {}

    # -- making moves ----------------------------------------------------------
    def play(self, s: int, move: Move) -> Undo:
        """Play ``move``; returns what undo needs."""
        board = self.board
        start, steps = move
        piece = board[start]
        assert piece is not None
        facing, at, stopped = piece[2], start, False
        taken: list[tuple[int, Piece]] = []
        for step in steps:
            if step == "L":
                facing = (facing - 1) % 6
            elif step == "R":
                facing = (facing + 1) % 6
            elif not stopped:
                at = NEIGHBOUR[at][facing if step == "F" else (facing + 3) % 6]
                occ = board[at]
                if occ is not None and at != start and occ[0] != s:
                    taken.append((at, self._lift(1 - s, at)))
                    stopped = not self.move_on
        self._lift(s, start)
        self._put(s, at, (s, piece[1], facing))
        self.ply += 1
        return start, piece, at, taken

    def undo(self, s: int, record: Undo) -> None:
        start, piece, end, taken = record
        self.ply -= 1
        self._lift(s, end)
        self._put(s, start, piece)
        for cell, victim in taken:
            self._put(1 - s, cell, victim)

    def _put(self, s: int, cell: int, piece: Piece) -> None:
        """Put a piece of seat ``s`` on an empty field."""
        self.board[cell] = self.pieces[s][cell] = piece
        self.mask[s] |= 1 << cell
        self.code[s] += (piece[1] * 6 + piece[2] - 5) << 5 * cell
        self.sizes[s] += piece[1] << 2 * cell
        self.material[s] += VALUE[piece[1]]

    def _lift(self, s: int, cell: int) -> Piece:
        """Take the piece of seat ``s`` off a field; returns it."""
        piece = self.pieces[s].pop(cell)
        self.board[cell] = None
        self.mask[s] ^= 1 << cell
        self.code[s] -= (piece[1] * 6 + piece[2] - 5) << 5 * cell
        self.sizes[s] -= piece[1] << 2 * cell
        self.material[s] -= VALUE[piece[1]]
        return piece

    def moves(self, s: int) -> list[Move]:
        """The turns of ``s`` (cached: the list must not be changed)."""
        key = (self.code[s], self.mask[1 - s])  # own pieces, enemy fields
        found = self.known_moves.get(key)
        if found is None:
            acts = turn_actions(tuple(self.board), s, self.move_on, self.backward)
            found = [(a["at"][1] * COLS + a["at"][0], tuple(a["steps"])) for a in acts]
            self.known_moves[key] = found
        return found

    def split(self) -> tuple[list[tuple[int, Piece]], list[tuple[int, Piece]]]:
        """Each seat's (cell, piece) list, by field."""
        return sorted(self.pieces[0].items()), sorted(self.pieces[1].items())

    def captures(self, s: int) -> list[tuple[int, Move]]:
        """(gain, move) for every single capture of ``s``, biggest gain first
        (cached: the list must not be changed)."""
        key = (self.code[s], self.sizes[1 - s])  # own pieces, enemy fields and sizes
        found = self.known_captures.get(key)
        if found is None:
            found = self.known_captures[key] = self._captures(s)
        return found

    def _captures(self, s: int) -> list[tuple[int, Move]]:
        board, enemy = self.board, self.mask[1 - s]
        enemies: set[int] | None = None
        out = []
        # By field and, per piece, in the order of the set intersection as
        # it always was: quiescence tries equal gains in this order.
        for cell, p in sorted(self.pieces[s].items()):
            if not span(cell, p, self.backward)[0] & enemy:
                continue
            if enemies is None:
                enemies = set(sorted(self.pieces[1 - s]))
            routes = reach(cell, p[2], p[1], self.backward)
            for target in routes.keys() & enemies:
                victim = board[target]
                assert victim is not None
                for crossed, steps in routes[target]:
                    if all(board[c] is None for c in crossed):
                        out.append((VALUE[victim[1]] * 8 - VALUE[p[1]], (cell, steps)))
        out.sort(key=lambda gm: gm[0], reverse=True)
        return out

    # -- evaluation -------------------------------------------------------------
    def evaluate(self, s: int) -> int:
        mine, theirs = self.pieces[s], self.pieces[1 - s]
        if not theirs:
            return WIN - self.ply
        if not mine:
            return self.ply - WIN
        material = self.material[s] - self.material[1 - s]
        # The side ahead closes in harder, so that won games get finished.
        score = (
            material
            + self._side(s, self.chase(material, len(theirs)))
            - self._side(1 - s, self.chase(-material, len(mine)))
        )
        if material > 0 and len(theirs) <= ENDGAME and self.nets(s):
            score += self._net(mine.items(), theirs.items())
        elif material < 0 and len(mine) <= ENDGAME and self.nets(1 - s):
            score -= self._net(theirs.items(), mine.items())
        if self.level.contempt and self.dead(mine.items(), theirs.items()):
            return self.drawn(s, score, len(mine))
        return score

    @staticmethod
    def dead(mine: Collection[tuple[int, Piece]], theirs: Collection[tuple[int, Piece]]) -> bool:
        """An ending no side can win: at most ``DEAD`` pieces a side, the same
        sizes on both. Pieces of a size move alike, so neither side can force
        a capture (a piece that comes in range is taken first); the rules
        (RULES.md section 2) end such a game only by a draw offer, and the
        bench caps it."""
        if len(mine) > DEAD or len(mine) != len(theirs):
            return False
        return sorted(p[1] for _, p in mine) == sorted(p[1] for _, p in theirs)

    def drawn(self, s: int, score: int, pieces: int) -> int:
        """A dead ending's score for ``s``: a draw, less the contempt for the
        side choosing (it would rather keep a game it can still win), the
        position counting less. One piece a side is deader than two (two may
        still fork one), so the side choosing trades into neither."""
        weight = DEAD + 1 - pieces  # one piece a side: DEAD, two: DEAD - 1
        contempt = self.level.contempt * weight // DEAD
        return score // (2 * weight) - (contempt if s == self.me else -contempt)

    def nets(self, hunter: int) -> bool:
        """Whether the evaluation counts the net that ``hunter`` closes."""
        return self.level.net == "both" or (self.level.net == "hunt" and hunter == self.me)

    @staticmethod
    def chase(material: int, prey: int) -> int:
        """How hard a side closes in on ``prey`` pieces: harder ahead, hardest
        on a few pieces left."""
        if material <= 0:
            return 1
        return CLOSE_IN if prey <= ENDGAME else 2

    def covered(self, pieces: Collection[tuple[int, Piece]], fields: int) -> int:
        """Those of ``fields`` (a mask) one of ``pieces`` could end a move on next turn."""
        occupied, out = self.mask[0] | self.mask[1], 0
        for cell, p in pieces:
            out |= open_ends(span(cell, p, self.backward), fields, occupied)
        return out

    def _net(
        self, hunters: Collection[tuple[int, Piece]], prey: Collection[tuple[int, Piece]]
    ) -> int:
        """The hunters' score for the net around the few ``prey`` pieces: fewer
        fields they could flee to unharmed, and a piece with none is as good as
        taken (it may stay and turn, so its own field counts too)."""
        occupied, score = self.mask[0] | self.mask[1], 0
        for cell, p in prey:
            fields = 1 << cell | open_ends(span(cell, p, self.backward), ~occupied, occupied)
            safe = fields.bit_count() - self.covered(hunters, fields).bit_count()
            score -= ESCAPE * safe
            if safe == 0:
                score += TRAPPED
        return score

    def _side(self, s: int, chase: int) -> int:
        """Seat ``s``'s closeness to the enemy, facing and threats (cached)."""
        key = (self.code[s], self.sizes[1 - s], chase)
        found = self.sides.get(key)
        if found is None:
            found = self.sides[key] = self._side_of(s, chase)
        return found

    def _side_of(self, s: int, chase: int) -> int:
        spans, closing = self.spans, CLOSING[chase]
        theirs, enemy = self.pieces[1 - s], self.mask[1 - s]
        occupied = enemy | self.mask[s]
        # A row's entries at the enemy fields (one repeated: itemgetter
        # returns a tuple only for two fields or more).
        near = itemgetter(*theirs, next(iter(theirs)))
        score = 0
        for cell, p in self.pieces[s].items():
            # Nearer the nearest enemy piece, and a front turned towards it.
            score += closing[min(near(NEAR[cell * 6 + p[2]]))]
            # span(), its cache lookup inlined (the hottest loop).
            piece_span = spans[cell * 24 + p[1] * 6 + p[2]] or span(cell, p, self.backward)
            if piece_span[0] & enemy:
                for target in cells(open_ends(piece_span, enemy, occupied)):
                    score += THREAT[theirs[target][1]]
        return score

    # -- search -------------------------------------------------------------------
    def tick(self) -> None:
        self.nodes += 1
        if self.nodes & 127 == 0:
            check_clock()
            if self.nodes > self.level.cap:
                raise OutOfNodes

    def quiesce(self, s: int, alpha: int, beta: int, depth: int) -> int:
        self.tick()
        if not self.pieces[s]:
            return self.ply - WIN
        stand = self.evaluate(s)
        if depth == 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        for _, move in self.captures(s):
            changed = self.play(s, move)
            score = -self.quiesce(1 - s, -beta, -alpha, depth - 1)
            self.undo(s, changed)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def ordered(self, s: int, moves: list[Move], first: Move | None) -> list[Move]:
        """The table's move, then captures (biggest victim, smallest attacker), then the rest."""
        gains = {move: gain for gain, move in self.captures(s)}
        if first is not None:
            gains[first] = 1 << 30
        if not gains:
            return moves
        # A stable sort by gain, the rest (no gain) after them in their order.
        ahead = sorted((m for m in moves if m in gains), key=gains.__getitem__, reverse=True)
        return ahead + [m for m in moves if m not in gains]

    def negamax(self, s: int, depth: int, alpha: int, beta: int) -> int:
        if not self.pieces[s]:
            return self.ply - WIN
        if depth == 0:
            return self.quiesce(s, alpha, beta, self.level.quiet)
        self.tick()
        key = (self.code[0], self.code[1], s)  # the board, exactly
        known, first = probe(self.table.get(key), depth, alpha, beta)
        if known is not None:
            return known
        start_alpha, best, best_move = alpha, -2 * WIN, None
        for move in self.ordered(s, self.moves(s), first):
            changed = self.play(s, move)
            score = -self.negamax(1 - s, depth - 1, -beta, -alpha)
            self.undo(s, changed)
            if score > best:
                best, best_move = score, move
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        self.table[key] = (depth, best, bound(best, start_alpha, beta), best_move)
        return best

    def root(self, rng: random.Random, recent: tuple[int, ...] = ()) -> Move:
        """The move to play for the seat choosing; ``recent``: the digests of
        the boards of the last turns (a move remaking one is marked down)."""
        s = self.me
        moves = sorted(self.moves(s))
        rng.shuffle(moves)  # ties fall by the seed
        again = self.repeats(s, moves, recent)
        jitter = self.level.noise

        def iteration(depth: int, best_move: Move, scored: list[tuple[int, Move]]) -> None:
            alpha = -2 * WIN
            for move in self.ordered(s, moves, best_move if depth > 1 else None):
                changed = self.play(s, move)
                # Moves within ``jitter`` of the best get exact scores; a worse
                # one's bound plus jitter stays below the best (jitter added
                # to a bound once chose moves that lost a piece).
                score = -self.negamax(1 - s, depth - 1, -2 * WIN, jitter + 1 - alpha)
                self.undo(s, changed)
                if abs(score) < WIN // 2:
                    score -= again.get(move, 0)
                alpha = max(alpha, score)
                if jitter and abs(score) < WIN // 2:
                    score += rng.randrange(jitter + 1)
                scored.append((score, move))

        return deepen(moves[0], self.level.depth, self.budget_spent, iteration)

    def repeats(self, s: int, moves: list[Move], recent: tuple[int, ...]) -> dict[Move, int]:
        """The penalty per root move that remakes a recent board (only for a
        side ahead: a side behind is glad of a repetition)."""
        if not recent or not self.level.net or self.evaluate(s) <= 0:
            return {}
        out = {}
        for move in moves:
            changed = self.play(s, move)
            seen = recent.count(board_digest(self.board))
            self.undo(s, changed)
            if seen:
                out[move] = REPEAT * seen
        return out

    def budget_spent(self) -> bool:
        return self.nodes >= self.level.nodes


def placement(state: DaschaxState, seat: int) -> Action:
    """The next piece of the template: largest first, on its column."""
    row = START_ROW[seat]
    left = state.to_place[seat]
    for size in (2, 1, 0):
        if not left[size]:
            continue
        for col, letter in enumerate(TEMPLATE):
            at = col if seat == 0 else COLS - 1 - col
            if LETTER_SIZE[letter] == size and state.board[row * COLS + at] is None:
                return {"type": "place", "size": SIZES[size], "at": [at, row]}
        for at in range(COLS):  # the template's columns are taken: any free one
            if state.board[row * COLS + at] is None:
                return {"type": "place", "size": SIZES[size], "at": [at, row]}
    raise LookupError("Nothing left to place.")


class DaschaxBot:
    def __init__(self, level: str) -> None:
        self.level = LEVELS[level]

    def accepts_draw(self, state: Any, seat: int) -> bool:
        """A draw offer is accepted when the game is dead (``Search.dead``: at
        most two pieces a side, the same sizes): neither can force a capture,
        and the rules have no other end."""
        if sum(state.to_place[0]) + sum(state.to_place[1]):
            return False
        return Search.dead(*Search(state, self.level, seat).split())

    def choose(self, state: Any, seat: int, *, seed: int) -> Action:
        if sum(state.to_place[0]) + sum(state.to_place[1]):
            return placement(state, seat)
        rng = seeded_rng(state, seat, seed)
        start, steps = Search(state, self.level, seat).root(rng, state.recent)
        return {"type": "turn", "at": [start % COLS, start // COLS], "steps": list(steps)}


# The house rule's count and limit (issue 50) in the view. The bots do not
# read them, and they stay out of the seed too: the bots break ties as they
# did before the rule, whatever the count.
HOUSE_RULE_KEYS = ("capture_free_turns", "stall_turns", "stall_warning")


def seeded_rng(state: Any, seat: int, seed: int) -> random.Random:
    """``base.view_rng`` for Daschax (the same digest of the seat's view and
    the caller's seed), with the house rule's keys left out of the view."""
    full = get_ruleset("daschax").view(state, seat)
    view = {k: v for k, v in full.items() if k not in HOUSE_RULE_KEYS}
    view["options"] = {k: v for k, v in view["options"].items() if k != "stall_turns"}
    data = json.dumps([seed, seat, view], sort_keys=True, default=str).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big"))


def make(level: str) -> Bot:
    if level not in LEVELS:
        raise LookupError(f"Unknown bot level {level!r}; levels: {', '.join(LEVELS)}.")
    return DaschaxBot(level)
