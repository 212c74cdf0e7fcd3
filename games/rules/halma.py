"""Halma, Brettspielnetz style (RULES.md §1): 10x10, 15 pieces a side, 50-move rule.

Fields are numbered ``r * 10 + c`` internally; actions, views and events use
``[row, col]`` with row 0 at the top. Neighbour and jump tables are built once
at import so move generation is table look-ups over a flat occupancy list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar, TypedDict

from .base import (
    Action,
    CitedPosition,
    Event,
    IllegalAction,
    InvalidOptions,
    Options,
    Outcome,
    RemisQueue,
    RepetitionCandidate,
    RepetitionEvidence,
    Ruleset,
    gettext_noop,
)

SIZE = 10
FIELDS = SIZE * SIZE
PIECES = 15
MOVE_LIMIT = 50  # full moves after which a house must be empty
REPETITION_FROM = 51  # positions count for repetition once more full moves were played
MAX_PATH = 100  # longest accepted path; any real chain fits well within it
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _in_house(seat: int, r: int, c: int) -> bool:
    if seat == 0:
        return (SIZE - 1 - r) + (SIZE - 1 - c) <= 4
    return r + c <= 4


def _build_tables() -> tuple[
    tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...], tuple[bytes, bytes]
]:
    neigh: list[tuple[int, ...]] = []
    jumps: list[tuple[tuple[int, int], ...]] = []
    for i in range(FIELDS):
        r, c = divmod(i, SIZE)
        ns: list[int] = []
        js: list[tuple[int, int]] = []
        for dr, dc in DIRECTIONS:
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                ns.append((r + dr) * SIZE + c + dc)
                if 0 <= r + 2 * dr < SIZE and 0 <= c + 2 * dc < SIZE:
                    js.append(((r + dr) * SIZE + c + dc, (r + 2 * dr) * SIZE + c + 2 * dc))
        neigh.append(tuple(ns))
        jumps.append(tuple(js))
    houses = tuple(
        bytes(1 if _in_house(s, *divmod(i, SIZE)) else 0 for i in range(FIELDS)) for s in (0, 1)
    )
    return tuple(neigh), tuple(jumps), (houses[0], houses[1])


NEIGH, JUMPS, HOUSE_FLAGS = _build_tables()
HOUSES: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(i for i in range(FIELDS) if HOUSE_FLAGS[0][i]),
    tuple(i for i in range(FIELDS) if HOUSE_FLAGS[1][i]),
)
ROW = tuple(i // SIZE for i in range(FIELDS))
COL = tuple(i % SIZE for i in range(FIELDS))
# (over, land) keyed by (from, to) so apply can check a jump hop in one look-up.
JUMP_OVER: dict[tuple[int, int], int] = {
    (i, land): over for i in range(FIELDS) for over, land in JUMPS[i]
}
NEIGH_SETS = tuple(frozenset(ns) for ns in NEIGH)

SEAT_NAMES = (gettext_noop("White"), gettext_noop("Black"))

# Literal msgids (no params) so every reason is translatable as a whole.
REASON_WIN = (
    gettext_noop("White brought all 15 pieces into Black's house"),
    gettext_noop("Black brought all 15 pieces into White's house"),
)
REASON_HOUSE_AT_50 = (
    gettext_noop("White still had a piece in its house after move 50"),
    gettext_noop("Black still had a piece in its house after move 50"),
)
REASON_BACK_IN_HOUSE = (
    gettext_noop("White moved a piece back into its own house after move 50"),
    gettext_noop("Black moved a piece back into its own house after move 50"),
)
REASON_BOTH_AT_50 = gettext_noop("both sides still had a piece in their own house after move 50")
REASON_BLOCKED = gettext_noop("neither side can move")


@dataclass(frozen=True, slots=True)
class HalmaState:
    """One position: each seat's fields (sorted indices), half-moves played, last path."""

    pieces: tuple[tuple[int, ...], tuple[int, ...]]
    plies: int = 0
    last: tuple[int, ...] = ()  # path of the last move, field indices; () before the first
    last_seat: int = -1  # who made it (differs from the previous side after a pass)

    @property
    def to_move(self) -> int:
        return self.plies % 2


class BoardView(TypedDict):
    rows: int
    cols: int
    houses: list[list[list[int]]]  # per seat, its house's [row, col] fields


class LastMoveView(TypedDict):
    seat: int
    path: list[list[int]]


class HalmaView(TypedDict):
    """``rs.view(state, seat)``. Other tools read ``board.houses``, ``pieces``,
    ``move_number`` and ``in_house`` (ARCHITECTURE.md): keep their names."""

    board: BoardView
    seat: int | None
    seat_names: list[str]
    pieces: list[list[list[int]]]  # per seat, [row, col] fields
    to_move: int | None
    move_number: int
    full_moves: int
    move_limit: int
    in_house: list[int]
    house_warning: list[bool]
    last_move: LastMoveView | None
    passed: int | None  # a seat that could not move and passed since the last move
    outcome: Outcome | None


# -- small pure helpers the platform may use --------------------------------


def move_number(state: HalmaState) -> int:
    """The number of the move being played: move n = seat 0's n-th then seat 1's n-th."""
    return state.plies // 2 + 1


def full_moves(state: HalmaState) -> int:
    """Full moves completed (both seats have moved this many times)."""
    return state.plies // 2


def counts_for_repetition(state: HalmaState) -> bool:
    """Whether this position counts towards threefold repetition (after move 51)."""
    return full_moves(state) > REPETITION_FROM


def counts_after(plies: int) -> bool:
    """Whether the position after ``plies`` plies counts towards repetition."""
    return plies // 2 > REPETITION_FROM


def move_number_after(plies: int) -> int:
    """The number of the move that produced the position after ``plies`` plies."""
    return (plies - 1) // 2 + 1


def plies_after(move: int, seat: int) -> int:
    """Plies played once ``seat`` has made its ``move``-th move."""
    return 2 * (move - 1) + seat + 1


def in_house(state: HalmaState, seat: int) -> int:
    """How many of ``seat``'s pieces still stand in its own house."""
    flags = HOUSE_FLAGS[seat]
    return sum(flags[i] for i in state.pieces[seat])


# -- move generation ----------------------------------------------------------


def _generate(own: tuple[int, ...], opp: tuple[int, ...]) -> list[Action]:
    """All moves of ``own``: one per (start, end), steps first, then shortest chains.

    Within one result, actions of the same piece share their ``[r, c]`` prefix
    lists (a third of the cost otherwise): treat the result as read-only.
    """
    occ = bytearray(FIELDS)
    for i in own:
        occ[i] = 1
    for i in opp:
        occ[i] = 1
    out: list[Action] = []
    append = out.append
    for i in own:
        start = [ROW[i], COL[i]]
        for n in NEIGH[i]:
            if not occ[n]:
                append({"type": "move", "path": [start, [ROW[n], COL[n]]]})
        # Breadth first, so each end is reached first by a shortest chain. The
        # start counts as empty for the chain but is marked seen: a chain may
        # cross it, never end on it, and nothing new is reachable from it.
        occ[i] = 0
        seen = bytearray(occ)
        seen[i] = 1
        frontier = [(i, [start])]
        for field, path in frontier:
            for over, land in JUMPS[field]:
                if occ[over] and not seen[land]:
                    seen[land] = 1
                    new_path = [*path, [ROW[land], COL[land]]]
                    append({"type": "move", "path": new_path})
                    frontier.append((land, new_path))
        occ[i] = 1
    return out


def _can_move(own: tuple[int, ...], opp: tuple[int, ...]) -> bool:
    occ = bytearray(FIELDS)
    for i in own:
        occ[i] = 1
    for i in opp:
        occ[i] = 1
    for i in own:
        for n in NEIGH[i]:
            if not occ[n]:
                return True
        for over, land in JUMPS[i]:
            if occ[over] and not occ[land]:
                return True
    return False


# -- action parsing -------------------------------------------------------------


def _field(value: Any) -> int:
    if isinstance(value, list) and len(value) == 2:
        r, c = value
        if type(r) is int and type(c) is int and 0 <= r < SIZE and 0 <= c < SIZE:
            return r * SIZE + c
    raise IllegalAction(
        gettext_noop("a field must be [row, col] with whole numbers 0 to 9: %(at)s"),
        at=_short(value),
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse_path(action: Any) -> list[int]:
    if not isinstance(action, dict):
        raise IllegalAction(gettext_noop("an action must be a JSON object"))
    if action.get("type") != "move":
        raise IllegalAction(
            gettext_noop("unknown action type: %(type)s"), type=_short(action.get("type"))
        )
    path = action.get("path")
    if not isinstance(path, list) or len(path) < 2:
        raise IllegalAction(
            gettext_noop("a move needs a path: the start field and at least one landing field")
        )
    if len(path) > MAX_PATH:
        raise IllegalAction(gettext_noop("a jump chain cannot be that long"))
    return [_field(p) for p in path]


def _fmt(i: int) -> str:
    """A field as the board labels it ("g1": column letter, row from the bottom)."""
    return f"{'abcdefghij'[COL[i]]}{SIZE - ROW[i]}"


def _check_path(state: HalmaState, seat: int, path: list[int]) -> None:
    own, opp = state.pieces[seat], state.pieces[1 - seat]
    start = path[0]
    if start not in own:
        raise IllegalAction(gettext_noop("you have no piece on %(at)s"), at=_fmt(start))
    occupied = set(own) | set(opp)
    occupied.discard(start)  # the start field counts as empty during the chain
    if path[-1] == start:
        raise IllegalAction(gettext_noop("a move may not end on its start field"))
    if len(path) == 2 and path[1] in NEIGH_SETS[start]:
        if path[1] in occupied:
            raise IllegalAction(gettext_noop("that field is occupied: %(at)s"), at=_fmt(path[1]))
        return
    for a, b in pairwise(path):
        if b in NEIGH_SETS[a]:
            raise IllegalAction(
                gettext_noop(
                    "a step to a neighbouring field is a whole move; it cannot join a jump chain"
                )
            )
        over = JUMP_OVER.get((a, b))
        if over is None:
            raise IllegalAction(
                gettext_noop(
                    "%(to)s is neither a neighbouring field nor a jump away from %(start)s"
                ),
                to=_fmt(b),
                start=_fmt(a),
            )
        if over not in occupied:
            raise IllegalAction(
                gettext_noop("a jump needs a piece to jump over on %(at)s"), at=_fmt(over)
            )
        if b in occupied:
            raise IllegalAction(gettext_noop("that field is occupied: %(at)s"), at=_fmt(b))


# -- the ruleset ------------------------------------------------------------------


class HalmaRuleset(Ruleset[HalmaState], RemisQueue[HalmaState]):
    slug: ClassVar[str] = "halma"
    title: ClassVar[str] = gettext_noop("Halma")
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    views_are_public: ClassVar[bool] = True
    action_keys: ClassVar[dict[str, frozenset[str]]] = {"move": frozenset({"type", "path"})}
    # No dice, nothing hidden: looking ahead with apply peeks at nothing.
    perfect_information: ClassVar[bool] = True

    def seat_names(self, seats: int) -> list[str]:
        return list(SEAT_NAMES[:seats])

    def setup(self, options: Options, seats: int, seed: int) -> HalmaState:
        if seats != 2:
            raise InvalidOptions(gettext_noop("Halma is played by exactly 2 players."))
        self.validate_options(options)
        return HalmaState(pieces=(HOUSES[0], HOUSES[1]))

    def single_action_turns(self, state: HalmaState) -> bool:
        return True  # one move a turn, no dice

    def to_act(self, state: HalmaState) -> list[int]:
        return [] if self.outcome(state) is not None else [state.to_move]

    def legal_actions(self, state: HalmaState, seat: int) -> list[Action]:
        if seat != state.to_move or self.outcome(state) is not None:
            return []
        return _generate(state.pieces[seat], state.pieces[1 - seat])

    def apply(self, state: HalmaState, seat: int, action: Action) -> tuple[HalmaState, list[Event]]:
        if self.outcome(state) is not None:
            raise IllegalAction(gettext_noop("the game is over"))
        if seat != state.to_move:
            raise IllegalAction(gettext_noop("it is not your turn"))
        path = _parse_path(action)
        _check_path(state, seat, path)
        moved = tuple(sorted((*(i for i in state.pieces[seat] if i != path[0]), path[-1])))
        pieces = (moved, state.pieces[1]) if seat == 0 else (state.pieces[0], moved)
        new = HalmaState(pieces=pieces, plies=state.plies + 1, last=tuple(path), last_seat=seat)
        events: list[Event] = [
            {
                "type": "moved",
                "seat": seat,
                "path": [[ROW[i], COL[i]] for i in path],
                "move_number": move_number(state),
            }
        ]
        new = self._pass_blocked(new, events)
        result = self.outcome(new)
        if result is not None:
            events.append({"type": "game_over", **result})
        return new, events

    def _pass_blocked(self, state: HalmaState, events: list[Event]) -> HalmaState:
        """A side that cannot move passes automatically (its move counts as made)."""
        if self.outcome(state) is not None:
            return state
        seat = state.to_move
        if _can_move(state.pieces[seat], state.pieces[1 - seat]):
            return state
        other = 1 - seat
        if not _can_move(state.pieces[other], state.pieces[seat]):
            return state  # nobody can move: outcome() calls it a draw
        events.append({"type": "passed", "seat": seat, "move_number": move_number(state)})
        return HalmaState(
            pieces=state.pieces, plies=state.plies + 1, last=state.last, last_seat=state.last_seat
        )

    def outcome(self, state: HalmaState) -> Outcome | None:
        # The mover is the only one whose pieces changed, so check them first.
        for s in (1 - state.to_move, state.to_move):
            other = HOUSE_FLAGS[1 - s]
            if sum(other[i] for i in state.pieces[s]) == PIECES:
                return {"winners": [s], "draw": False, "reason": REASON_WIN[s]}
        if state.plies >= 2 * MOVE_LIMIT:
            stuck = [in_house(state, 0) > 0, in_house(state, 1) > 0]
            if all(stuck):
                return {"winners": [], "draw": True, "reason": REASON_BOTH_AT_50}
            for s in (0, 1):
                if stuck[s]:
                    reason = (
                        REASON_HOUSE_AT_50
                        if state.plies == 2 * MOVE_LIMIT
                        else REASON_BACK_IN_HOUSE
                    )
                    return {"winners": [1 - s], "draw": False, "reason": reason[s]}
        # A blocked side passes inside apply(); only if neither can move is it over.
        p0, p1 = state.pieces
        if not _can_move(p0, p1) and not _can_move(p1, p0):
            return {"winners": [], "draw": True, "reason": REASON_BLOCKED}
        return None

    def view(self, state: HalmaState, seat: int | None) -> HalmaView:
        result = self.outcome(state)
        number = move_number(state)
        houses = [in_house(state, 0), in_house(state, 1)]
        return {
            "board": BOARD_VIEW,
            "seat": seat,
            "seat_names": list(SEAT_NAMES),
            "pieces": _pieces(state),
            "to_move": None if result else state.to_move,
            "move_number": number,
            "full_moves": full_moves(state),
            "move_limit": MOVE_LIMIT,
            "in_house": houses,
            "house_warning": [
                result is None and number >= 40 and houses[s] > 0 and state.plies < 2 * MOVE_LIMIT
                for s in (0, 1)
            ],
            "last_move": (
                {"seat": state.last_seat, "path": _coords(state.last)} if state.last else None
            ),
            # A side that could not move passed automatically since the last move.
            "passed": 1 - state.to_move
            if state.last and state.last_seat == state.to_move
            else None,
            "outcome": result,
        }

    def position_key(self, state: HalmaState) -> str:
        p0, p1 = state.pieces
        return f"{'.'.join(map(str, p0))}/{'.'.join(map(str, p1))}/{state.to_move}"

    # -- remis queue (RemisQueue) ------------------------------------------------
    # Brettspielnetz Halma (RULES.md §1): a player claims remis by repetition
    # (the third occurrence of a position, counting only positions after move
    # 51) or deadlock (once move 50 is complete); an admin decides on the
    # evidence computed here.

    def move_number_after(self, plies: int) -> int:
        return move_number_after(plies)

    def position_counts_after(self, plies: int) -> bool:
        return counts_after(plies)

    def deadlock_claim_from(self, state: HalmaState) -> int | None:
        return None if full_moves(state) >= MOVE_LIMIT else MOVE_LIMIT

    def repetition_candidates(
        self, history: Sequence[HalmaState], seat: int
    ) -> list[RepetitionCandidate]:
        current = history[-1]
        seen: dict[str, list[int]] = {}
        for plies, state in enumerate(history):
            if counts_after(plies):
                seen.setdefault(self.position_key(state), []).append(plies)
        found: list[RepetitionCandidate] = []
        for action in self.legal_actions(current, seat):
            after, _ = self.apply(current, seat, action)
            earlier = seen.get(self.position_key(after), [])
            if len(earlier) >= 2:
                numbers = [move_number_after(p) for p in earlier[-2:]]
                numbers.append(move_number_after(len(history)))
                found.append({"action": action, "move_numbers": numbers})
        return found

    def repetition_evidence(
        self,
        history: Sequence[HalmaState],
        seat: int,
        after: HalmaState,
        move_numbers: Sequence[int],
    ) -> RepetitionEvidence:
        key = self.position_key(after)
        positions: list[CitedPosition] = []
        for n in move_numbers[:-1]:
            plies = plies_after(n, seat)
            state = history[plies] if plies < len(history) else None
            positions.append(
                {
                    "move": n,
                    "pieces": _pieces(state) if state is not None else None,
                    "identical": state is not None and self.position_key(state) == key,
                    "past_51": counts_after(plies),
                }
            )
        positions.append(
            {
                "move": move_numbers[-1],
                "pieces": _pieces(after),
                "identical": True,
                "past_51": counts_after(len(history)),
                "proposed": True,
            }
        )
        return {
            "positions": positions,
            "identical": all(p["identical"] for p in positions),
            "past_51": all(p["past_51"] for p in positions),
            "move_legal": True,
        }

    # -- storage -------------------------------------------------------------------
    def encode(self, state: HalmaState) -> dict[str, Any]:
        return {
            "pieces": _pieces(state),
            "plies": state.plies,
            "last": _coords(state.last),
            "last_seat": state.last_seat,
        }

    def decode(self, data: dict[str, Any]) -> HalmaState:
        p0, p1 = data["pieces"]
        return HalmaState(
            pieces=(_indices(p0), _indices(p1)),
            plies=int(data["plies"]),
            last=tuple(r * SIZE + c for r, c in data["last"]),
            last_seat=int(data.get("last_seat", -1)),
        )


# [row, col] of every field, built once: views and encodings share these
# small lists (treat them as read-only), which keeps per-move work low.
COORDS = tuple([r, c] for r in range(SIZE) for c in range(SIZE))


def _coords(fields: tuple[int, ...]) -> list[list[int]]:
    return [COORDS[i] for i in fields]


def _pieces(state: HalmaState) -> list[list[list[int]]]:
    """Each seat's fields as ``[row, col]`` (the view's and the encoding's ``pieces``)."""
    return [_coords(state.pieces[0]), _coords(state.pieces[1])]


def _indices(coords: list[list[int]]) -> tuple[int, ...]:
    return tuple(sorted(r * SIZE + c for r, c in coords))


# The static part of every view, built once (read-only, shared by all views).
BOARD_VIEW: BoardView = {
    "rows": SIZE,
    "cols": SIZE,
    "houses": [_coords(HOUSES[0]), _coords(HOUSES[1])],
}
