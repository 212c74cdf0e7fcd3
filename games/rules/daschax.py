"""Daschax (Ursula Balzer): chess-like capture on a 10 x 10 hex board.

RULES.md section 2 is the specification; docs/rules/daschax.md documents the
actions, views and events. Pure Python, no Django.

Geometry: flat-topped hexes in 10 columns of 10 rows, coordinates
``[col, row]`` with row 0 at seat 0's side (bottom) and odd columns half a hex
higher than even ones. A field is stored as one int, ``cell = row * 10 + col``.
Facings are ints 0..5 clockwise from north: N NE SE S SW NW, so turning right
(clockwise) adds one and the backward direction is ``facing + 3``.

A piece is a tuple ``(seat, points, facing)``; its points (1, 2, 3) are its
size (small, medium, large).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .base import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    Ruleset,
    draw,
    gettext_noop,
)

COLS = 10
ROWS = 10
CELLS = COLS * ROWS
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
FACING_INDEX = {name: i for i, name in enumerate(FACINGS)}
SIZES = ("small", "medium", "large")  # index + 1 = movement points
SIZE_POINTS = {name: i + 1 for i, name in enumerate(SIZES)}
LETTER_POINTS = {"S": 1, "M": 2, "L": 3}
POINTS_LETTER = {1: "S", 2: "M", 3: "L"}
START_COUNTS = (5, 3, 2)  # small, medium, large per side
PIECES_PER_SIDE = sum(START_COUNTS)
START_ROW = (0, ROWS - 1)
START_FACING = (0, 3)  # seat 0 faces N, seat 1 faces S

Piece = tuple[int, int, int]  # (seat, points, facing)
Board = tuple[Piece | None, ...]
Counts = tuple[int, int, int]  # per size: small, medium, large
Taken = tuple[tuple[int, Piece], ...]  # (cell, piece) of captured/removed pieces


def _cell(col: int, row: int) -> int:
    return row * COLS + col


def _xy(cell: int) -> list[int]:
    return [cell % COLS, cell // COLS]


def _neighbour(col: int, row: int, facing: int) -> int:
    """The adjacent field in direction ``facing``, or -1 off the board."""
    odd = col & 1
    dc, dr = (
        (0, 1),
        (1, odd),
        (1, odd - 1),
        (0, -1),
        (-1, odd - 1),
        (-1, odd),
    )[facing]
    c, r = col + dc, row + dr
    if 0 <= c < COLS and 0 <= r < ROWS:
        return _cell(c, r)
    return -1


# NEIGHBOUR[cell][facing] -> cell or -1; built once at import.
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(_neighbour(cell % COLS, cell // COLS, f) for f in range(6)) for cell in range(CELLS)
)

# Translatable messages that depend on a size: the size is part of the
# sentence, so each size gets its own msgid.
TOO_MANY_POINTS = {
    1: gettext_noop("a small piece has only 1 movement point"),
    2: gettext_noop("a medium piece has only 2 movement points"),
    3: gettext_noop("a large piece has only 3 movement points"),
}
NONE_LEFT = {
    1: gettext_noop("you have no small piece left to place"),
    2: gettext_noop("you have no medium piece left to place"),
    3: gettext_noop("you have no large piece left to place"),
}
COORD_MSG = gettext_noop("a field is given as [col, row] with col and row from 0 to 9")


# -- the movement tree ------------------------------------------------------
#
# What a turn can do depends only on the piece's field, facing and points, and
# on which of the fields it would enter are occupied. So for each (field,
# facing, points, backward) we build once, lazily, a trie of the step
# sequences worth trying, in preorder, each node knowing where its subtree
# ends. legal_actions walks it against the board and skips a blocked subtree
# in one jump: no geometry and no step simulation in the hot loop.

# A node: (depth, target cell or -1 for a turn, end key = cell * 6 + facing,
#          index after the subtree, emits an action?, ends as it began?, steps)
Node = tuple[int, int, int, int, bool, bool, tuple[str, ...]]
# A tree: its nodes and whether two emitting nodes share an end key (then the
# walker must deduplicate results at run time).
Tree = tuple[tuple[Node, ...], bool]

_STEP_ORDER = {"F": 0, "L": 1, "R": 2, "B": 3}
_TREES: dict[tuple[int, int, int, bool], Tree] = {}


def _sequences(
    cell: int, facing: int, points: int, backward: bool
) -> list[tuple[tuple[str, ...], tuple[int, ...], int, int]]:
    """Every step sequence of 1..points steps that stays on the board.

    A turn right after its inverse is skipped: "LR" changes nothing, so any
    sequence holding it gives the same result as the one without.
    Returns (steps, fields entered, end cell, end facing).
    """
    out: list[tuple[tuple[str, ...], tuple[int, ...], int, int]] = []
    moves = ("F", "L", "R", "B") if backward else ("F", "L", "R")

    def grow(steps: tuple[str, ...], entered: tuple[int, ...], at: int, face: int) -> None:
        if len(steps) == points:
            return
        for step in moves:
            if steps and {steps[-1], step} == {"L", "R"}:
                continue
            if step == "L":
                nxt_at, nxt_face, nxt_entered = at, (face - 1) % 6, entered
            elif step == "R":
                nxt_at, nxt_face, nxt_entered = at, (face + 1) % 6, entered
            else:
                nxt_at = NEIGHBOUR[at][face if step == "F" else (face + 3) % 6]
                if nxt_at < 0:
                    continue
                nxt_face, nxt_entered = face, (*entered, nxt_at)
            seq = (*steps, step)
            out.append((seq, nxt_entered, nxt_at, nxt_face))
            grow(seq, nxt_entered, nxt_at, nxt_face)

    grow((), (), cell, facing)
    return out


def _tree(cell: int, facing: int, points: int, backward: bool) -> Tree:
    """The (cached) movement trie for one piece situation."""
    key = (cell, facing, points, backward)
    tree = _TREES.get(key)
    if tree is None:
        tree = _TREES[key] = _build_tree(cell, facing, points, backward)
    return tree


def _build_tree(cell: int, facing: int, points: int, backward: bool) -> Tree:
    # Sequences entering the same fields in the same order and ending with the
    # same facing behave alike on every board (captures and blocks happen on
    # the fields entered), so only the shortest of each such group is kept.
    best: dict[tuple[int, int, tuple[int, ...]], tuple[str, ...]] = {}
    for steps, entered, end, face in _sequences(cell, facing, points, backward):
        sig = (end, face, entered)
        old = best.get(sig)
        if old is None or _rank(steps) < _rank(old):
            best[sig] = steps
    kept = {steps: (end * 6 + face) for (end, face, _), steps in best.items()}
    # The trie holds every prefix of a kept sequence; prefixes that are not
    # kept themselves still test their fields but emit nothing.
    prefixes: set[tuple[str, ...]] = set()
    for steps in kept:
        for i in range(1, len(steps) + 1):
            prefixes.add(steps[:i])
    order = sorted(prefixes, key=lambda s: [_STEP_ORDER[x] for x in s])  # preorder
    nodes: list[list[Any]] = []
    for steps in order:
        at, face = _follow(cell, facing, steps)
        last = steps[-1]
        target = at if last in ("F", "B") else -1
        nodes.append(
            [
                len(steps),
                target,
                at * 6 + face,
                0,
                steps in kept,
                at == cell and face == facing,
                steps,
            ]
        )
    # Preorder: a subtree ends at the first later node that is not deeper.
    for i, node in enumerate(nodes):
        j = i + 1
        while j < len(nodes) and nodes[j][0] > node[0]:
            j += 1
        node[3] = j
    keys = [n[2] for n in nodes if n[4]]
    frozen = tuple(
        (int(n[0]), int(n[1]), int(n[2]), int(n[3]), bool(n[4]), bool(n[5]), n[6]) for n in nodes
    )
    return frozen, len(keys) != len(set(keys))


def _rank(steps: tuple[str, ...]) -> tuple[int, list[int]]:
    return len(steps), [_STEP_ORDER[s] for s in steps]


def _follow(cell: int, facing: int, steps: tuple[str, ...]) -> tuple[int, int]:
    """Where a step sequence ends on an empty board (steps known to stay on it)."""
    for step in steps:
        if step == "L":
            facing = (facing - 1) % 6
        elif step == "R":
            facing = (facing + 1) % 6
        else:
            cell = NEIGHBOUR[cell][facing if step == "F" else (facing + 3) % 6]
    return cell, facing


# -- state ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Variants:
    """The table options, normalised."""

    formation: str = ""  # "" = placement phase, else 10 letters S/M/L for row 0
    move_on: bool = False  # moving on after a capture
    removal: bool = False  # voluntarily removing own pieces before moving
    backward: bool = False  # "B" steps
    place_first: str = "coin"  # "coin" | "white" | "black"
    move_first: str = "coin"


@dataclass(frozen=True, slots=True)
class Last:
    """What happened in the last completed placement or turn (for display)."""

    kind: str  # "place" | "turn"
    seat: int
    at: int  # placed field, or the moving piece's start field
    piece: Piece  # the placed piece, or the mover as it started
    steps: tuple[str, ...] = ()
    captures: Taken = ()
    removed: Taken = ()


@dataclass(frozen=True, slots=True)
class DaschaxState:
    """One position; a value (apply returns a new one). Seed and counter stay server-side."""

    board: Board  # CELLS entries, index row * 10 + col
    to_move: int
    to_place: tuple[Counts, Counts]  # per seat: pieces still to place
    captured: tuple[Counts, Counts]  # per seat: enemy pieces it has captured
    removed: tuple[Counts, Counts]  # per seat: own pieces removed voluntarily
    first_mover: int  # who moves first once placement is over
    tosses: tuple[tuple[str, int, str], ...]  # (decision, seat, "coin" | "creator")
    variants: Variants
    turns: int  # completed turns of the play phase
    last: Last | None
    pending: Taken  # pieces removed so far in the turn under way
    seed: int
    counter: int


def _count(counts: Counts) -> int:
    return counts[0] + counts[1] + counts[2]


def _add(counts: Counts, points: int) -> Counts:
    out = list(counts)
    out[points - 1] += 1
    return (out[0], out[1], out[2])


def _on_board(state: DaschaxState, seat: int) -> int:
    """A seat's pieces on the board, from the counters (O(1))."""
    return (
        PIECES_PER_SIDE
        - _count(state.to_place[seat])
        - _count(state.captured[1 - seat])
        - _count(state.removed[seat])
    )


def _placing(state: DaschaxState) -> bool:
    return _count(state.to_place[0]) + _count(state.to_place[1]) > 0


def _pair(counts: tuple[Counts, Counts], seat: int, value: Counts) -> tuple[Counts, Counts]:
    return (value, counts[1]) if seat == 0 else (counts[0], value)


# -- action parsing -----------------------------------------------------------


def _parse_at(action: Action) -> int:
    at = action.get("at")
    if (
        not isinstance(at, list | tuple)
        or len(at) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
        or not (0 <= at[0] < COLS and 0 <= at[1] < ROWS)
    ):
        raise IllegalAction(COORD_MSG)
    return _cell(at[0], at[1])


def _parse_steps(action: Action, backward: bool) -> tuple[str, ...]:
    steps = action.get("steps")
    if not isinstance(steps, list | tuple):
        raise IllegalAction(gettext_noop('a turn needs "steps": a list of "F", "L", "R"'))
    for step in steps:
        if step == "B":
            if not backward:
                raise IllegalAction(gettext_noop("moving backward is not allowed at this table"))
        elif step not in ("F", "L", "R"):
            raise IllegalAction(gettext_noop('a step is "F", "L", "R" (or "B" where allowed)'))
    if not steps:
        raise IllegalAction(gettext_noop("a turn must spend at least one movement point"))
    return tuple(steps)


def _run_steps(
    board: Board, seat: int, start: int, steps: tuple[str, ...], move_on: bool
) -> tuple[int, int, Taken, list[tuple[int, int]]]:
    """Play a turn's steps; returns end cell, end facing, captures and the path.

    The start field counts as empty once the piece has left it, and so does a
    field whose enemy was captured earlier in the same turn.
    """
    piece = board[start]
    assert piece is not None
    points, facing = piece[1], piece[2]
    if len(steps) > points:
        raise IllegalAction(TOO_MANY_POINTS[points])
    at = start
    stopped = False
    captures: list[tuple[int, Piece]] = []
    path: list[tuple[int, int]] = []
    for step in steps:
        if step == "L":
            facing = (facing - 1) % 6
        elif step == "R":
            facing = (facing + 1) % 6
        else:
            if stopped:
                raise IllegalAction(
                    gettext_noop("after a capture the piece must stop; it may only turn")
                )
            nxt = NEIGHBOUR[at][facing if step == "F" else (facing + 3) % 6]
            if nxt < 0:
                raise IllegalAction(gettext_noop("a piece may not leave the board"))
            occ = board[nxt]
            if occ is not None and nxt != start and all(c != nxt for c, _ in captures):
                if occ[0] == seat:
                    raise IllegalAction(
                        gettext_noop("a piece may not move onto or over its own pieces")
                    )
                captures.append((nxt, occ))
                stopped = not move_on
            at = nxt
        path.append((at, facing))
    if at == start and facing == piece[2] and not captures:
        raise IllegalAction(
            gettext_noop("a turn must change the piece's field or facing, or capture")
        )
    return at, facing, tuple(captures), path


# -- the ruleset ----------------------------------------------------------------


class DaschaxRuleset(Ruleset):
    slug: ClassVar[str] = "daschax"
    title: ClassVar[str] = "Daschax"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        "place": frozenset({"type", "size", "at"}),
        "turn": frozenset({"type", "at", "steps"}),
        "remove": frozenset({"type", "at"}),
    }

    # -- options ---------------------------------------------------------
    def option_fields(self) -> list[dict[str, Any]]:
        who = [
            ["coin", gettext_noop("Coin toss")],
            ["white", gettext_noop("White")],
            ["black", gettext_noop("Black")],
        ]
        return [
            {
                "name": "formation",
                "kind": "text",
                "label": gettext_noop("Fixed formation"),
                "default": "",
                "max_length": 40,
                "help": gettext_noop(
                    "Empty: players place their pieces in turn. Otherwise white's start row "
                    "from column 0 to 9 as 10 letters S (small), M (medium), L (large), "
                    "5 S, 3 M and 2 L, e.g. SMSLSMSLSM; black mirrors it."
                ),
            },
            {
                "name": "move_on",
                "kind": "bool",
                "label": gettext_noop("Move on after a capture"),
                "default": False,
                "help": gettext_noop("A capturing piece may spend its remaining points moving on."),
            },
            {
                "name": "removal",
                "kind": "bool",
                "label": gettext_noop("Remove own pieces"),
                "default": False,
                "help": gettext_noop(
                    "Before moving, a player may take own pieces off the board (never the last)."
                ),
            },
            {
                "name": "backward",
                "kind": "bool",
                "label": gettext_noop("Move backward"),
                "default": False,
                "help": gettext_noop("A point may move a piece one field against its facing."),
            },
            {
                "name": "place_first",
                "kind": "choice",
                "label": gettext_noop("Places first"),
                "default": "coin",
                "choices": who,
            },
            {
                "name": "move_first",
                "kind": "choice",
                "label": gettext_noop("Moves first"),
                "default": "coin",
                "choices": who,
            },
        ]

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if isinstance(options, dict) and isinstance(options.get("formation"), list):
            # A list of letters or size names is accepted too.
            items = options["formation"]
            if not all(isinstance(x, str) for x in items):
                raise InvalidOptions(
                    gettext_noop("Option %(name)s must be a short text."), name="formation"
                )
            options = {**options, "formation": "".join(x[:1] for x in items)}
        clean = super().validate_options(options)
        clean["formation"] = _normalise_formation(clean["formation"])
        return clean

    def seat_names(self, seats: int) -> list[str]:
        return [gettext_noop("White"), gettext_noop("Black")][:seats]

    # -- setup -----------------------------------------------------------
    def setup(self, options: dict[str, Any], seats: int, seed: int) -> DaschaxState:
        if seats != 2:
            raise InvalidOptions(gettext_noop("Daschax is played by exactly 2 players."))
        opts = self.validate_options(options)
        variants = Variants(
            formation=opts["formation"],
            move_on=opts["move_on"],
            removal=opts["removal"],
            backward=opts["backward"],
            place_first=opts["place_first"],
            move_first=opts["move_first"],
        )
        counter = 0
        tosses: list[tuple[str, int, str]] = []
        board: list[Piece | None] = [None] * CELLS
        empty: Counts = (0, 0, 0)
        if variants.formation:
            for col, letter in enumerate(variants.formation):
                points = LETTER_POINTS[letter]
                board[_cell(col, 0)] = (0, points, START_FACING[0])
                board[_cell(COLS - 1 - col, ROWS - 1)] = (1, points, START_FACING[1])
            to_place = (empty, empty)
            placer = 0
        else:
            to_place = (START_COUNTS, START_COUNTS)
            placer, counter = _decide(variants.place_first, seed, counter)
            tosses.append(("place_first", placer, _by(variants.place_first)))
        mover, counter = _decide(variants.move_first, seed, counter)
        tosses.append(("move_first", mover, _by(variants.move_first)))
        return DaschaxState(
            board=tuple(board),
            to_move=mover if variants.formation else placer,
            to_place=to_place,
            captured=(empty, empty),
            removed=(empty, empty),
            first_mover=mover,
            tosses=tuple(tosses),
            variants=variants,
            turns=0,
            last=None,
            pending=(),
            seed=seed,
            counter=counter,
        )

    # -- queries ---------------------------------------------------------
    def to_act(self, state: DaschaxState) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [state.to_move]

    def outcome(self, state: DaschaxState) -> dict[str, Any] | None:
        if _placing(state):
            return None
        for seat in (0, 1):
            if _on_board(state, seat) == 0:
                return {"winners": [1 - seat], "draw": False, "reason": "all pieces captured"}
        return None

    def legal_actions(self, state: DaschaxState, seat: int) -> list[Action]:
        if seat != state.to_move or self.outcome(state) is not None:
            return []
        if _placing(state):
            return _placements(state, seat)
        out = _turns(state.board, seat, state.variants.move_on, state.variants.backward)
        if state.variants.removal and _on_board(state, seat) > 1:
            out.extend(
                {"type": "remove", "at": _xy(cell)}
                for cell, p in enumerate(state.board)
                if p is not None and p[0] == seat
            )
        return out

    # -- apply -----------------------------------------------------------
    def apply(
        self, state: DaschaxState, seat: int, action: Action
    ) -> tuple[DaschaxState, list[Event]]:
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("an action must be a JSON object"))
        kind = action.get("type")
        if kind not in ("place", "turn", "remove"):
            raise IllegalAction(
                gettext_noop('unknown action type: use "place", "turn" or "remove"')
            )
        if self.outcome(state) is not None:
            raise IllegalAction(gettext_noop("the game is over"))
        if seat != state.to_move:
            raise IllegalAction(gettext_noop("it is not your turn"))
        if kind == "place":
            return _apply_place(state, seat, action)
        if _placing(state):
            raise IllegalAction(gettext_noop("all pieces must be placed before the first move"))
        if kind == "remove":
            return _apply_remove(state, seat, action)
        return _apply_turn(state, seat, action)

    # -- views -----------------------------------------------------------
    def view(self, state: DaschaxState, seat: int | None) -> dict[str, Any]:
        result = self.outcome(state)
        phase = "placement" if _placing(state) else ("over" if result else "play")
        pieces = [
            {"at": _xy(cell), "seat": p[0], "size": SIZES[p[1] - 1], "facing": FACINGS[p[2]]}
            for cell, p in enumerate(state.board)
            if p is not None
        ]
        data: dict[str, Any] = {
            "board": {"cols": COLS, "rows": ROWS, "hex": "flat", "odd_columns": "up"},
            "start_rows": list(START_ROW),
            "phase": phase,
            "pieces": pieces,
            "to_move": None if result else state.to_move,
            "turns": state.turns,
            "to_place": [_sizes(c) for c in state.to_place],
            "captured": [_sizes(c) for c in state.captured],
            "removed": [_sizes(c) for c in state.removed],
            "on_board": [_on_board(state, 0), _on_board(state, 1)],
            "coin_tosses": {name: {"seat": s, "by": by} for name, s, by in state.tosses},
            "first_mover": state.first_mover,
            "options": _options_view(state.variants),
            "last": _last_view(state.last),
            "removed_this_turn": [_taken_view(c, p) for c, p in state.pending],
            "outcome": result,
            "you": seat,
        }
        if seat is not None and not result and seat == state.to_move:
            data["legal_actions"] = self.legal_actions(state, seat)
        return data

    def view_event(self, event: Event, seat: int | None) -> Event | None:
        return event  # Daschax has no secrets

    def position_key(self, state: DaschaxState) -> str:
        cells = "".join(
            "." if p is None else "wb"[p[0]] + POINTS_LETTER[p[1]] + FACINGS[p[2]][0:2].ljust(2)
            for p in state.board
        )
        return f"{state.to_move}:{len(state.pending)}:{cells}"

    # -- storage ---------------------------------------------------------
    def encode(self, state: DaschaxState) -> dict[str, Any]:
        v = state.variants
        return {
            "board": [[cell, *p] for cell, p in enumerate(state.board) if p is not None],
            "to_move": state.to_move,
            "to_place": [list(c) for c in state.to_place],
            "captured": [list(c) for c in state.captured],
            "removed": [list(c) for c in state.removed],
            "first_mover": state.first_mover,
            "tosses": [list(t) for t in state.tosses],
            "variants": {
                "formation": v.formation,
                "move_on": v.move_on,
                "removal": v.removal,
                "backward": v.backward,
                "place_first": v.place_first,
                "move_first": v.move_first,
            },
            "turns": state.turns,
            "last": None if state.last is None else _encode_last(state.last),
            "pending": _encode_taken(state.pending),
            "seed": state.seed,
            "counter": state.counter,
        }

    def decode(self, data: dict[str, Any]) -> DaschaxState:
        board: list[Piece | None] = [None] * CELLS
        for cell, s, points, facing in data["board"]:
            board[cell] = (s, points, facing)
        return DaschaxState(
            board=tuple(board),
            to_move=data["to_move"],
            to_place=_counts_pair(data["to_place"]),
            captured=_counts_pair(data["captured"]),
            removed=_counts_pair(data["removed"]),
            first_mover=data["first_mover"],
            tosses=tuple((str(a), int(b), str(c)) for a, b, c in data["tosses"]),
            variants=Variants(**data["variants"]),
            turns=data["turns"],
            last=None if data["last"] is None else _decode_last(data["last"]),
            pending=_decode_taken(data["pending"]),
            seed=data["seed"],
            counter=data["counter"],
        )


# -- helpers of the ruleset -------------------------------------------------------


def _normalise_formation(text: str) -> str:
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch not in ",;-/")
    if not letters:
        return ""
    if len(letters) != COLS or any(ch not in LETTER_POINTS for ch in letters):
        raise InvalidOptions(
            gettext_noop("The formation must be 10 letters S, M or L, one per column.")
        )
    if tuple(letters.count(ch) for ch in "SML") != START_COUNTS:
        raise InvalidOptions(
            gettext_noop("The formation must hold 5 small, 3 medium and 2 large pieces.")
        )
    return letters


def _decide(choice: str, seed: int, counter: int) -> tuple[int, int]:
    """The seat a decision falls to, and the RNG counter after it."""
    if choice == "white":
        return 0, counter
    if choice == "black":
        return 1, counter
    return draw(seed, counter, 2), counter + 1


def _by(choice: str) -> str:
    return "coin" if choice == "coin" else "creator"


def _placements(state: DaschaxState, seat: int) -> list[Action]:
    row = START_ROW[seat]
    free = [col for col in range(COLS) if state.board[_cell(col, row)] is None]
    return [
        {"type": "place", "size": SIZES[i], "at": [col, row]}
        for i, left in enumerate(state.to_place[seat])
        if left
        for col in free
    ]


def _turns(board: Board, seat: int, move_on: bool, backward: bool) -> list[Action]:
    """One turn action per distinct end result, for every piece of ``seat``."""
    out: list[Action] = []
    append = out.append
    stops = [False, False, False, False]
    caps: list[tuple[int, ...]] = [(), (), (), ()]
    for start, piece in enumerate(board):
        if piece is None or piece[0] != seat:
            continue
        nodes, dupes = _tree(start, piece[2], piece[1], backward)
        at = _xy(start)
        if move_on:
            _walk_move_on(board, seat, start, nodes, at, caps, out)
            continue
        # Where two step lists can end alike (backward steps), the shortest
        # working one is kept: ["L"], not ["F", "B", "L"].
        best: dict[Any, tuple[str, ...]] | None = {} if dupes else None
        i, n = 0, len(nodes)
        while i < n:
            depth, target, key, skip, emit, noop, steps = nodes[i]
            stopped = stops[depth - 1]
            if target >= 0:
                if stopped:
                    i = skip
                    continue
                occ = board[target]
                if occ is not None and target != start:
                    if occ[0] == seat:
                        i = skip
                        continue
                    stopped = True
            stops[depth] = stopped
            i += 1
            # Without moving on, a capture can only be the end field, so the
            # end field and facing alone tell two results apart.
            if emit and not noop:
                if best is None:
                    append({"type": "turn", "at": [at[0], at[1]], "steps": list(steps)})
                else:
                    _keep_shortest(best, key, steps)
        if best:
            out.extend(
                {"type": "turn", "at": [at[0], at[1]], "steps": list(s)} for s in best.values()
            )
    return out


def _keep_shortest(best: dict[Any, tuple[str, ...]], result: Any, steps: tuple[str, ...]) -> None:
    old = best.get(result)
    if old is None or len(steps) < len(old):
        best[result] = steps


def _walk_move_on(
    board: Board,
    seat: int,
    start: int,
    nodes: tuple[Node, ...],
    at: list[int],
    caps: list[tuple[int, ...]],
    out: list[Action],
) -> None:
    """The tree walk of the "move on after a capture" variant: several captures."""
    best: dict[Any, tuple[str, ...]] = {}
    i, n = 0, len(nodes)
    while i < n:
        depth, target, key, skip, emit, noop, steps = nodes[i]
        cap = caps[depth - 1]
        if target >= 0:
            occ = board[target]
            if occ is not None and target != start and target not in cap:
                if occ[0] == seat:
                    i = skip
                    continue
                cap = (*cap, target)
        caps[depth] = cap
        i += 1
        if emit and not (noop and not cap):
            _keep_shortest(best, (key, frozenset(cap)), steps)
    out.extend({"type": "turn", "at": [at[0], at[1]], "steps": list(s)} for s in best.values())


def _apply_place(
    state: DaschaxState, seat: int, action: Action
) -> tuple[DaschaxState, list[Event]]:
    if not _placing(state):
        raise IllegalAction(gettext_noop("all pieces are placed already"))
    size = action.get("size")
    if not isinstance(size, str) or size not in SIZE_POINTS:
        raise IllegalAction(gettext_noop('the size is "small", "medium" or "large"'))
    cell = _parse_at(action)
    points = SIZE_POINTS[size]
    if state.to_place[seat][points - 1] == 0:
        raise IllegalAction(NONE_LEFT[points])
    if cell // COLS != START_ROW[seat]:
        raise IllegalAction(
            gettext_noop("pieces are placed in your own start row (row %(row)s)"),
            row=START_ROW[seat],
        )
    if state.board[cell] is not None:
        raise IllegalAction(gettext_noop("that field is occupied: %(at)s"), at=_xy(cell))
    piece = (seat, points, START_FACING[seat])
    board = list(state.board)
    board[cell] = piece
    left = list(state.to_place[seat])
    left[points - 1] -= 1
    to_place = _pair(state.to_place, seat, (left[0], left[1], left[2]))
    other = 1 - seat
    if _count(to_place[0]) + _count(to_place[1]) == 0:
        nxt = state.first_mover
    else:
        nxt = other if _count(to_place[other]) else seat
    new = _replace(
        state,
        board=tuple(board),
        to_place=to_place,
        to_move=nxt,
        last=Last("place", seat, cell, piece),
    )
    event = {
        "type": "placed",
        "seat": seat,
        "size": size,
        "at": _xy(cell),
        "facing": FACINGS[piece[2]],
    }
    return new, [event]


def _own_piece(state: DaschaxState, seat: int, action: Action) -> tuple[int, Piece]:
    cell = _parse_at(action)
    piece = state.board[cell]
    if piece is None or piece[0] != seat:
        raise IllegalAction(gettext_noop("there is no piece of yours at %(at)s"), at=_xy(cell))
    return cell, piece


def _apply_remove(
    state: DaschaxState, seat: int, action: Action
) -> tuple[DaschaxState, list[Event]]:
    if not state.variants.removal:
        raise IllegalAction(gettext_noop("removing own pieces is not allowed at this table"))
    cell, piece = _own_piece(state, seat, action)
    if _on_board(state, seat) <= 1:
        raise IllegalAction(gettext_noop("you may not remove your last piece"))
    board = list(state.board)
    board[cell] = None
    new = _replace(
        state,
        board=tuple(board),
        removed=_pair(state.removed, seat, _add(state.removed[seat], piece[1])),
        pending=(*state.pending, (cell, piece)),
    )
    return new, [{"type": "removed", "seat": seat, **_taken_view(cell, piece)}]


def _apply_turn(state: DaschaxState, seat: int, action: Action) -> tuple[DaschaxState, list[Event]]:
    v = state.variants
    cell, piece = _own_piece(state, seat, action)
    steps = _parse_steps(action, v.backward)
    end, facing, captures, path = _run_steps(state.board, seat, cell, steps, v.move_on)
    board = list(state.board)
    board[cell] = None
    for c, _ in captures:
        board[c] = None
    board[end] = (seat, piece[1], facing)
    taken = state.captured[seat]
    for _, p in captures:
        taken = _add(taken, p[1])
    new = _replace(
        state,
        board=tuple(board),
        captured=_pair(state.captured, seat, taken),
        to_move=1 - seat,
        turns=state.turns + 1,
        last=Last("turn", seat, cell, piece, steps, captures, state.pending),
        pending=(),
    )
    event: Event = {
        "type": "turned",
        "seat": seat,
        "size": SIZES[piece[1] - 1],
        "from": _xy(cell),
        "facing_from": FACINGS[piece[2]],
        "steps": list(steps),
        "path": [
            {"step": s, "at": _xy(c), "facing": FACINGS[f]}
            for s, (c, f) in zip(steps, path, strict=True)
        ],
        "to": _xy(end),
        "facing": FACINGS[facing],
        "captures": [_taken_view(c, p) for c, p in captures],
    }
    events = [event]
    if _on_board(new, 1 - seat) == 0:
        events.append({"type": "won", "seat": seat, "reason": "all pieces captured"})
    return new, events


def _replace(state: DaschaxState, **changes: Any) -> DaschaxState:
    fields = {name: getattr(state, name) for name in DaschaxState.__slots__}
    fields.update(changes)
    return DaschaxState(**fields)


def _sizes(counts: Counts) -> dict[str, int]:
    return dict(zip(SIZES, counts, strict=True))


def _taken_view(cell: int, piece: Piece) -> dict[str, Any]:
    return {
        "at": _xy(cell),
        "seat": piece[0],
        "size": SIZES[piece[1] - 1],
        "facing": FACINGS[piece[2]],
    }


def _options_view(v: Variants) -> dict[str, Any]:
    return {
        "formation": v.formation,
        "move_on": v.move_on,
        "removal": v.removal,
        "backward": v.backward,
        "place_first": v.place_first,
        "move_first": v.move_first,
    }


def _last_view(last: Last | None) -> dict[str, Any] | None:
    if last is None:
        return None
    data: dict[str, Any] = {
        "kind": last.kind,
        "seat": last.seat,
        **_taken_view(last.at, last.piece),
    }
    if last.kind == "turn":
        path = [{"at": _xy(last.at), "facing": FACINGS[last.piece[2]]}]
        cell, facing = last.at, last.piece[2]
        for step in last.steps:
            if step == "L":
                facing = (facing - 1) % 6
            elif step == "R":
                facing = (facing + 1) % 6
            else:
                cell = NEIGHBOUR[cell][facing if step == "F" else (facing + 3) % 6]
            path.append({"at": _xy(cell), "facing": FACINGS[facing]})
        data["steps"] = list(last.steps)
        data["path"] = path
        data["captures"] = [_taken_view(c, p) for c, p in last.captures]
        data["removed"] = [_taken_view(c, p) for c, p in last.removed]
    return data


def _encode_taken(taken: Taken) -> list[list[int]]:
    return [[cell, *piece] for cell, piece in taken]


def _decode_taken(data: list[list[int]]) -> Taken:
    return tuple((cell, (s, points, facing)) for cell, s, points, facing in data)


def _encode_last(last: Last) -> dict[str, Any]:
    return {
        "kind": last.kind,
        "seat": last.seat,
        "at": last.at,
        "piece": list(last.piece),
        "steps": list(last.steps),
        "captures": _encode_taken(last.captures),
        "removed": _encode_taken(last.removed),
    }


def _decode_last(data: dict[str, Any]) -> Last:
    s, points, facing = data["piece"]
    return Last(
        kind=data["kind"],
        seat=data["seat"],
        at=data["at"],
        piece=(s, points, facing),
        steps=tuple(data["steps"]),
        captures=_decode_taken(data["captures"]),
        removed=_decode_taken(data["removed"]),
    )


def _counts_pair(data: list[list[int]]) -> tuple[Counts, Counts]:
    (a0, a1, a2), (b0, b1, b2) = data
    return (a0, a1, a2), (b0, b1, b2)
