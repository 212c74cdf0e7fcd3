"""Malefiz (RULES.md §3): race five pieces to the goal through movable barricades.

The state is a handful of ints: one bitmask of board fields per seat, one for
the barricades, counts of pieces at home. ``apply`` therefore copies a few
small tuples, never a board. Every simple path of 1..6 fields from every field
is precomputed at import, each with a bitmask of the fields it passes over, so
a move is legal when ``passed & barricades == 0`` and its target is not an own
piece.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from .base import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    Options,
    Outcome,
    Ruleset,
    draw,
    gettext_noop,
)

# -- the board ---------------------------------------------------------------

_BOARD_FILE = Path(__file__).resolve().parent / "data" / "malefiz-board.json"
_BOARD: dict[str, Any] = json.loads(_BOARD_FILE.read_text(encoding="utf-8"))

FIELDS: tuple[tuple[int, int], ...] = tuple((x, y) for x, y in _BOARD["fields"])
INDEX: dict[tuple[int, int], int] = {xy: i for i, xy in enumerate(FIELDS)}
EDGES: tuple[tuple[int, int], ...] = tuple(
    (INDEX[(a[0], a[1])], INDEX[(b[0], b[1])]) for a, b in _BOARD["edges"]
)
GOAL: int = INDEX[(_BOARD["goal"][0], _BOARD["goal"][1])]
GOAL_BIT: int = 1 << GOAL
START_BARRICADES: tuple[int, ...] = tuple(INDEX[(x, y)] for x, y in _BOARD["barricades_start"])
PIECES_PER_SEAT: int = int(_BOARD["pieces_per_player"])
MAX_ROLL = 6

# Houses left to right; colour names double as seat names (msgids).
_COLOUR_NAMES = {
    "RED": gettext_noop("Red"),
    "GREEN": gettext_noop("Green"),
    "YELLOW": gettext_noop("Yellow"),
    "BLUE": gettext_noop("Blue"),
}
_HOUSES_LTR: tuple[tuple[str, int], ...] = tuple(
    sorted(
        ((colour, INDEX[(xy[0], xy[1])]) for colour, xy in _BOARD["house_entry"].items()),
        key=lambda item: FIELDS[item[1]][0],
    )
)
# Which of the four houses (0..3, left to right) each seat uses, by seat count.
HOUSES_FOR: dict[int, tuple[int, ...]] = {2: (1, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

_NEIGHBOURS: list[list[int]] = [[] for _ in FIELDS]
for _a, _b in EDGES:
    _NEIGHBOURS[_a].append(_b)
    _NEIGHBOURS[_b].append(_a)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(n)) for n in _NEIGHBOURS)

# A barricade may go on any field but the bottom row and the goal.
PLACEABLE: int = sum(1 << i for i, (_x, y) in enumerate(FIELDS) if y > 1 and i != GOAL)

# One precomputed path: (target, target bit, bits of the fields passed over, fields).
PathEntry = tuple[int, int, int, tuple[int, ...]]


def _simple_paths(start: int, length: int) -> list[tuple[int, ...]]:
    """All paths of exactly ``length`` steps from ``start`` visiting no field twice.

    Enumerated, not BFS'd: a target may be reachable by several routes round
    the board's cycles, and any one of them free of barricades makes it legal.
    """
    found: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...]) -> None:
        if len(path) == length + 1:
            found.append(path[1:])
            return
        for nxt in NEIGHBOURS[path[-1]]:
            if nxt not in path:
                extend((*path, nxt))

    if length == 0:
        return [()]
    extend((start,))
    return found


def _entries(paths: list[tuple[int, ...]]) -> tuple[PathEntry, ...]:
    out = []
    for path in paths:
        passed = 0
        for f in path[:-1]:
            passed |= 1 << f
        out.append((path[-1], 1 << path[-1], passed, path))
    return tuple(out)


# PATHS[n][field]: moves of n fields from a piece on ``field``.
PATHS: tuple[tuple[tuple[PathEntry, ...], ...], ...] = tuple(
    tuple(_entries(_simple_paths(f, n)) if n else () for f in range(len(FIELDS)))
    for n in range(MAX_ROLL + 1)
)
# HOUSE_PATHS[n][field]: moves of n fields out of the house whose entry is
# ``field``; the entry itself is the first field counted (RULES.md §3).
HOUSE_PATHS: tuple[dict[int, tuple[PathEntry, ...]], ...] = tuple(
    {
        entry: _entries([(entry, *p) for p in _simple_paths(entry, n - 1)]) if n else ()
        for _c, entry in _HOUSES_LTR
    }
    for n in range(MAX_ROLL + 1)
)

# -- the state ---------------------------------------------------------------

ROLL, MOVE, PLACE = 0, 1, 2
PHASE_NAMES = ("roll", "move", "barricade")
HOUSE = -1  # ``from`` of a piece leaving its house


# The last move: (seat, from field or HOUSE, path, knocked seat or -1,
# barricade placed at or -1).
LastMove = tuple[int, int, tuple[int, ...], int, int]


class MalefizState(NamedTuple):
    """One position. Plain tuples and ints: cheap to copy, hash and compare."""

    seats: int
    pieces: tuple[int, ...]  # per seat: bitmask of the fields its pieces stand on
    home: tuple[int, ...]  # per seat: pieces in the house
    bars: int  # bitmask of barricades on the board (one in hand is not counted)
    turn: int  # the seat to act (the winner once the game is over)
    phase: int  # ROLL, MOVE or PLACE
    last_roll: tuple[int, ...]  # (seat, value, passed 0/1) or ()
    counter: int  # draws taken from the seed so far
    seed: int
    left: tuple[int, ...]  # seats that left, ascending
    rolloff: tuple[tuple[tuple[int, int], ...], ...]  # rounds of (seat, value)
    starter: int
    # The last move, () before the first. While PLACE, the barricade in hand
    # was taken from path[-1].
    last: LastMove | tuple[()]


def _barricade_origin(state: MalefizState) -> int:
    """The field the barricade in hand was taken from (only while PLACE)."""
    last = state.last
    assert last, "a barricade is in hand only after a move took it"
    return last[2][-1]


def bits(mask: int) -> list[int]:
    """The fields whose bits are set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _with(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``values`` with entry ``i`` replaced."""
    out = list(values)
    out[i] = value
    return tuple(out)


def _xy(i: int) -> list[int]:
    x, y = FIELDS[i]
    return [x, y]


def _entry_of(seats: int, seat: int) -> int:
    return _HOUSES_LTR[HOUSES_FOR[seats][seat]][1]


_ENTRY_OF: dict[int, tuple[int, ...]] = {
    n: tuple(_entry_of(n, s) for s in range(n)) for n in HOUSES_FOR
}


REASON_GOAL = gettext_noop("a piece reached the goal")
REASON_LAST_SEAT = gettext_noop("every other player left the game")


def _winner(state: MalefizState) -> tuple[int, str] | None:
    for seat, mask in enumerate(state.pieces):
        if mask & GOAL_BIT:
            return seat, REASON_GOAL
    if len(state.left) >= state.seats - 1:
        for seat in range(state.seats):
            if seat not in state.left:
                return seat, REASON_LAST_SEAT
    return None


def _next_seat(state: MalefizState, seat: int, left: tuple[int, ...]) -> int:
    n = state.seats
    nxt = (seat + 1) % n
    while nxt in left and nxt != seat:
        nxt = (nxt + 1) % n
    return nxt


def _targets(state: MalefizState, seat: int, roll: int) -> list[tuple[int, int]]:
    """Distinct legal (from, to) pairs for ``seat`` with ``roll``; from may be HOUSE."""
    entry = _ENTRY_OF[state.seats][seat]
    return move_pairs(state.pieces[seat], state.home[seat], state.bars, entry, roll)


def move_pairs(own: int, in_house: int, bars: int, entry: int, roll: int) -> list[tuple[int, int]]:
    """Distinct legal (from, to) pairs with ``roll`` of a seat whose pieces
    stand on the fields of ``own`` (a bitmask), with ``in_house`` more in its
    house (entering the board at ``entry``), among the barricades ``bars``;
    from may be HOUSE. The bots' search enumerates moves with it too."""
    out: list[tuple[int, int]] = []
    if in_house:
        seen = 0
        for to, tobit, passed, _p in HOUSE_PATHS[roll][entry]:
            if not (passed & bars or tobit & own or tobit & seen):
                seen |= tobit
                out.append((HOUSE, to))
    paths = PATHS[roll]
    mask = own
    while mask:
        low = mask & -mask
        start = low.bit_length() - 1
        mask ^= low
        seen = 0
        for to, tobit, passed, _p in paths[start]:
            if not (passed & bars or tobit & own or tobit & seen):
                seen |= tobit
                out.append((start, to))
    return out


def _has_move(state: MalefizState, seat: int, roll: int) -> bool:
    own = state.pieces[seat]
    bars = state.bars
    if state.home[seat]:
        for _to, tobit, passed, _p in HOUSE_PATHS[roll][_ENTRY_OF[state.seats][seat]]:
            if not (passed & bars or tobit & own):
                return True
    paths = PATHS[roll]
    mask = own
    while mask:
        low = mask & -mask
        mask ^= low
        for _to, tobit, passed, _p in paths[low.bit_length() - 1]:
            if not (passed & bars or tobit & own):
                return True
    return False


# -- action parsing ------------------------------------------------------------


def _name(index: int) -> str:
    """A field as the board labels it ("e1": column letter from a, row from 1)."""
    x, y = FIELDS[index]
    return f"{'abcdefghijklmnopq'[x - 1]}{y}"


def _field(value: Any, key: str) -> int:
    """The field index a JSON ``[x, y]`` names, or IllegalAction."""
    if (
        type(value) in (list, tuple)
        and len(value) == 2
        and type(value[0]) is int
        and type(value[1]) is int
    ):
        idx = INDEX.get((value[0], value[1]))
        if idx is not None:
            return idx
        raise IllegalAction(gettext_noop("%(at)s is not a field of the board."), at=list(value))
    raise IllegalAction(
        gettext_noop('"%(key)s" must be a field [x, y] of the board.'),
        key=key,
    )


def _check_keys(action: dict[str, Any], allowed: frozenset[str]) -> None:
    if len(action) > len(allowed) or not allowed.issuperset(action):
        extra = sorted(str(k) for k in action if k not in allowed)
        raise IllegalAction(
            gettext_noop("Unexpected key in this action: %(key)s."),
            key=extra[0] if extra else "?",
        )


_ROLL_KEYS = frozenset({"type"})
_MOVE_KEYS = frozenset({"type", "from", "to"})
_PLACE_KEYS = frozenset({"type", "to"})


# -- the ruleset ---------------------------------------------------------------


class MalefizRuleset(Ruleset[MalefizState]):
    slug = "malefiz"
    title = gettext_noop("Malefiz")
    min_seats = 2
    max_seats = 4
    # The dice's seed and counter never appear in a view.
    views_are_public: ClassVar[bool] = True
    # RULES.md removes a leaver's pieces: the others may keep the seat with a bot instead.
    leave_offered = offers_forced_turns = True  # ClassVar[bool] in the base
    action_keys = {"roll": _ROLL_KEYS, "move": _MOVE_KEYS, "barricade": _PLACE_KEYS}

    # -- options / seats -----------------------------------------------------
    def seat_names(self, seats: int) -> list[str]:
        houses = HOUSES_FOR.get(seats)
        if houses is None:
            return super().seat_names(seats)
        return [_COLOUR_NAMES[_HOUSES_LTR[h][0]] for h in houses]

    # -- setup -----------------------------------------------------------------
    def setup(self, options: Options, seats: int, seed: int) -> MalefizState:
        self.validate_options(options)
        if type(seats) is not int or seats not in HOUSES_FOR:
            raise InvalidOptions(gettext_noop("Malefiz needs 2 to 4 players."))
        if type(seed) is not int:
            raise InvalidOptions(gettext_noop("The seed must be a whole number."))
        # Roll-off: everybody rolls, then only those tied for highest again.
        counter = 0
        rounds: list[tuple[tuple[int, int], ...]] = []
        rolling = list(range(seats))
        while True:
            rolls = []
            for seat in rolling:
                rolls.append((seat, draw(seed, counter, 6) + 1))
                counter += 1
            rounds.append(tuple(rolls))
            best = max(v for _s, v in rolls)
            rolling = [s for s, v in rolls if v == best]
            if len(rolling) == 1:
                break
        bars = 0
        for f in START_BARRICADES:
            bars |= 1 << f
        return MalefizState(
            seats=seats,
            pieces=(0,) * seats,
            home=(PIECES_PER_SEAT,) * seats,
            bars=bars,
            turn=rolling[0],
            phase=ROLL,
            last_roll=(),
            counter=counter,
            seed=seed,
            left=(),
            rolloff=tuple(rounds),
            starter=rolling[0],
            last=(),
        )

    # -- queries ---------------------------------------------------------------
    def to_act(self, state: MalefizState) -> list[int]:
        if _winner(state) is not None:
            return []
        return [state.turn]

    def outcome(self, state: MalefizState) -> Outcome | None:
        won = _winner(state)
        if won is None:
            return None
        return {"winners": [won[0]], "draw": False, "reason": won[1]}

    def forced_action(self, state: MalefizState, seat: int) -> Action | None:
        """A roll's one move (none: it passes by itself; barricades are choices)."""
        moves = self.legal_actions(state, seat) if state.phase == MOVE else []
        return moves[0] if len(moves) == 1 else None

    def legal_actions(self, state: MalefizState, seat: int) -> list[Action]:
        if seat != state.turn or type(seat) is not int or _winner(state) is not None:
            return []
        phase = state.phase
        if phase == ROLL:
            return [{"type": "roll"}]
        if phase == MOVE:
            return [
                {
                    "type": "move",
                    "from": "house" if f == HOUSE else [*FIELDS[f]],
                    "to": [*FIELDS[t]],
                }
                for f, t in _targets(state, seat, state.last_roll[1])
            ]
        occupied = state.bars
        for mask in state.pieces:
            occupied |= mask
        return [{"type": "barricade", "to": [*FIELDS[i]]} for i in bits(PLACEABLE & ~occupied)]

    def position_key(self, state: MalefizState) -> str:
        return json.dumps(
            [state.pieces, state.home, state.bars, state.turn, state.phase, state.left],
            separators=(",", ":"),
        )

    # -- acting ----------------------------------------------------------------
    def apply(
        self, state: MalefizState, seat: int, action: Action
    ) -> tuple[MalefizState, list[Event]]:
        if _winner(state) is not None:
            raise IllegalAction(gettext_noop("The game is over."))
        if type(seat) is not int or seat != state.turn:
            raise IllegalAction(gettext_noop("It is not your turn."))
        if type(action) is not dict:
            raise IllegalAction(gettext_noop("An action must be a JSON object."))
        kind = action.get("type")
        phase = state.phase
        if kind == "roll":
            if phase != ROLL:
                raise IllegalAction(gettext_noop("You have already rolled this turn."))
            _check_keys(action, _ROLL_KEYS)
            return self._roll(state, seat)
        if kind == "move":
            if phase == ROLL:
                raise IllegalAction(gettext_noop("Roll the die before you move."))
            if phase == PLACE:
                raise IllegalAction(gettext_noop("Place the barricade you took first."))
            _check_keys(action, _MOVE_KEYS)
            return self._move(state, seat, action)
        if kind == "barricade":
            if phase != PLACE:
                raise IllegalAction(
                    gettext_noop("You can only place a barricade after landing on one.")
                )
            _check_keys(action, _PLACE_KEYS)
            return self._place(state, seat, action)
        raise IllegalAction(
            gettext_noop('Unknown action type; expected "roll", "move" or "barricade".')
        )

    def _roll(self, state: MalefizState, seat: int) -> tuple[MalefizState, list[Event]]:
        value = draw(state.seed, state.counter, 6) + 1
        events: list[Event] = [{"type": "rolled", "seat": seat, "value": value}]
        if _has_move(state, seat, value):
            phase, turn, passed = MOVE, seat, 0
        else:
            # No legal move: the site passes for the player (RULES.md §3).
            phase, turn, passed = ROLL, _next_seat(state, seat, state.left), 1
            events.append({"type": "passed", "seat": seat, "roll": value, "next": turn})
        return (
            MalefizState(
                state.seats,
                state.pieces,
                state.home,
                state.bars,
                turn,
                phase,
                (seat, value, passed),
                state.counter + 1,
                state.seed,
                state.left,
                state.rolloff,
                state.starter,
                state.last,
            ),
            events,
        )

    def _move(
        self, state: MalefizState, seat: int, action: Action
    ) -> tuple[MalefizState, list[Event]]:
        roll = state.last_roll[1]
        own = state.pieces[seat]
        raw_from = action.get("from")
        if raw_from == "house":
            if not state.home[seat]:
                raise IllegalAction(gettext_noop("You have no piece left in your house."))
            start = HOUSE
            candidates = HOUSE_PATHS[roll][_ENTRY_OF[state.seats][seat]]
        else:
            start = _field(raw_from, "from")
            if not own >> start & 1:
                raise IllegalAction(gettext_noop("You have no piece on %(at)s."), at=_name(start))
            candidates = PATHS[roll][start]
        to = _field(action.get("to"), "to")
        path = None
        reachable = False
        bars = state.bars
        for target, _b, passed, p in candidates:
            if target == to:
                reachable = True
                if not passed & bars:
                    path = p
                    break
        if path is None:
            if reachable:
                raise IllegalAction(
                    gettext_noop("Barricades cannot be passed: every way to %(at)s is blocked."),
                    at=_name(to),
                )
            raise IllegalAction(
                gettext_noop("No way of exactly %(n)s fields leads to %(at)s."),
                n=roll,
                at=_name(to),
            )
        tobit = 1 << to
        if own & tobit:
            raise IllegalAction(
                gettext_noop("A move may not end on your own piece (%(at)s)."), at=_name(to)
            )

        pieces = list(state.pieces)
        home = state.home
        pieces[seat] = (own ^ (1 << start) if start != HOUSE else own) | tobit
        if start == HOUSE:
            home = _with(home, seat, home[seat] - 1)
        knocked = -1
        for other, mask in enumerate(pieces):
            if other != seat and mask & tobit:
                # Landing on an opponent sends that piece back to its house.
                knocked = other
                pieces[other] = mask ^ tobit
                home = _with(home, other, home[other] + 1)
                break
        taken = bool(bars & tobit)
        event: Event = {
            "type": "moved",
            "seat": seat,
            "from": "house" if start == HOUSE else [*FIELDS[start]],
            "to": [*FIELDS[to]],
            "path": [[*FIELDS[f]] for f in ((*(() if start == HOUSE else (start,)), *path))],
            "knocked": None if knocked < 0 else knocked,
        }
        events: list[Event] = [event]
        if taken:
            events.append({"type": "barricade_taken", "seat": seat, "at": [*FIELDS[to]]})
            phase, turn = PLACE, seat
        else:
            phase, turn = ROLL, _next_seat(state, seat, state.left)
        if to == GOAL:
            events.append({"type": "won", "seat": seat, "reason": REASON_GOAL})
            turn = seat
        return (
            MalefizState(
                state.seats,
                tuple(pieces),
                home,
                bars ^ tobit if taken else bars,
                turn,
                phase,
                state.last_roll,
                state.counter,
                state.seed,
                state.left,
                state.rolloff,
                state.starter,
                (seat, start, path, knocked, -1),
            ),
            events,
        )

    def _place(
        self, state: MalefizState, seat: int, action: Action
    ) -> tuple[MalefizState, list[Event]]:
        at = _field(action.get("to"), "to")
        bit = 1 << at
        if not PLACEABLE & bit:
            if at == GOAL:
                raise IllegalAction(gettext_noop("A barricade may not be placed on the goal."))
            raise IllegalAction(
                gettext_noop("A barricade may not be placed on the bottom row (%(at)s)."),
                at=_name(at),
            )
        if state.bars & bit:
            raise IllegalAction(
                gettext_noop("There is already a barricade on %(at)s."), at=_name(at)
            )
        for mask in state.pieces:
            if mask & bit:
                raise IllegalAction(
                    gettext_noop("A barricade may only go on a free field; %(at)s is occupied."),
                    at=_name(at),
                )
        last = state.last
        assert last, "PLACE follows the move that took the barricade"
        return (
            MalefizState(
                state.seats,
                state.pieces,
                state.home,
                state.bars | bit,
                _next_seat(state, seat, state.left),
                ROLL,
                state.last_roll,
                state.counter,
                state.seed,
                state.left,
                state.rolloff,
                state.starter,
                (last[0], last[1], last[2], last[3], at),
            ),
            [{"type": "barricade_placed", "seat": seat, "at": [*FIELDS[at]]}],
        )

    def leave(self, state: MalefizState, seat: int) -> tuple[MalefizState, list[Event]]:
        """``seat`` resigns or times out: its pieces go, its turns are skipped.

        If it was mid-turn holding a barricade, the barricade goes back to the
        field it was taken from (which the leaving piece now vacates).
        """
        if _winner(state) is not None:
            raise IllegalAction(gettext_noop("The game is over."))
        if type(seat) is not int or not 0 <= seat < state.seats or seat in state.left:
            raise IllegalAction(gettext_noop("That seat is not in the game."))
        left = tuple(sorted((*state.left, seat)))
        pieces = list(state.pieces)
        pieces[seat] = 0
        home = _with(state.home, seat, 0)
        bars = state.bars
        turn, phase = state.turn, state.phase
        event: Event = {"type": "left", "seat": seat, "barricade_returned": None}
        if seat == state.turn:
            if phase == PLACE:
                back = _barricade_origin(state)
                bars |= 1 << back
                event["barricade_returned"] = [*FIELDS[back]]
            turn, phase = _next_seat(state, seat, left), ROLL
        new = MalefizState(
            state.seats,
            tuple(pieces),
            home,
            bars,
            turn,
            phase,
            state.last_roll,
            state.counter,
            state.seed,
            left,
            state.rolloff,
            state.starter,
            state.last,
        )
        events: list[Event] = [event]
        won = _winner(new)
        if won is not None:
            events.append({"type": "won", "seat": won[0], "reason": won[1]})
        return new, events

    # timeout_action: the base default (None) stands: a seat that runs out of
    # time leaves (3-4 seats) or loses (2 seats). No auto-roll: a missing
    # player would otherwise be dragged through a game it no longer plays.

    # -- views -----------------------------------------------------------------
    def view(self, state: MalefizState, seat: int | None) -> dict[str, Any]:
        won = _winner(state)
        houses = HOUSES_FOR[state.seats]
        last = state.last
        last_move = None
        if last:
            m_seat, start, path, knocked, placed = last
            last_move = {
                "seat": m_seat,
                "from": "house" if start == HOUSE else _xy(start),
                "to": _xy(path[-1]),
                "path": [_xy(f) for f in ((*(() if start == HOUSE else (start,)), *path))],
                "knocked": None if knocked < 0 else knocked,
                "barricade_placed": None if placed < 0 else _xy(placed),
            }
        in_play = won is None
        view: dict[str, Any] = {
            "board": board_geometry(),
            "seats": state.seats,
            "houses": [
                {
                    "seat": s,
                    "colour": _HOUSES_LTR[h][0].lower(),
                    "entry": _xy(_HOUSES_LTR[h][1]),
                }
                for s, h in enumerate(houses)
            ],
            "pieces": [
                {
                    "seat": s,
                    "fields": [_xy(f) for f in bits(mask)],
                    "home": state.home[s],
                }
                for s, mask in enumerate(state.pieces)
            ],
            "barricades": [_xy(f) for f in bits(state.bars)],
            "barricade_in_hand": (
                _xy(_barricade_origin(state)) if in_play and state.phase == PLACE else None
            ),
            "turn": state.turn if in_play else None,
            "phase": PHASE_NAMES[state.phase] if in_play else "over",
            "roll": state.last_roll[1] if in_play and state.phase != ROLL else None,
            "last_roll": (
                {
                    "seat": state.last_roll[0],
                    "value": state.last_roll[1],
                    "passed": bool(state.last_roll[2]),
                }
                if state.last_roll
                else None
            ),
            "rolloff": [[{"seat": s, "value": v} for s, v in rnd] for rnd in state.rolloff],
            "starter": state.starter,
            "last_move": last_move,
            "left": list(state.left),
            "outcome": self.outcome(state),
        }
        if seat is not None and in_play and seat == state.turn:
            view["legal_actions"] = self.legal_actions(state, seat)
        return view

    # view_event: the base default stands; no event carries a secret (dice
    # are public once rolled, the seed and counter are never in an event).

    # -- storage ---------------------------------------------------------------
    def encode(self, state: MalefizState) -> dict[str, Any]:
        last = state.last
        return {
            "seats": state.seats,
            "pieces": [[_xy(f) for f in bits(m)] for m in state.pieces],
            "home": list(state.home),
            "barricades": [_xy(f) for f in bits(state.bars)],
            "turn": state.turn,
            "phase": PHASE_NAMES[state.phase],
            "last_roll": list(state.last_roll),
            "counter": state.counter,
            "seed": state.seed,
            "left": list(state.left),
            "rolloff": [[[s, v] for s, v in rnd] for rnd in state.rolloff],
            "starter": state.starter,
            "last": (
                {
                    "seat": last[0],
                    "from": "house" if last[1] == HOUSE else _xy(last[1]),
                    "path": [_xy(f) for f in last[2]],
                    "knocked": last[3],
                    "placed": None if last[4] < 0 else _xy(last[4]),
                }
                if last
                else None
            ),
        }

    def decode(self, data: dict[str, Any]) -> MalefizState:
        def idx(xy: list[int]) -> int:
            return INDEX[(xy[0], xy[1])]

        def mask(fields: list[list[int]]) -> int:
            m = 0
            for xy in fields:
                m |= 1 << idx(xy)
            return m

        raw_last = data["last"]
        last: LastMove | tuple[()] = ()
        if raw_last is not None:
            last = (
                raw_last["seat"],
                HOUSE if raw_last["from"] == "house" else idx(raw_last["from"]),
                tuple(idx(xy) for xy in raw_last["path"]),
                raw_last["knocked"],
                -1 if raw_last["placed"] is None else idx(raw_last["placed"]),
            )
        return MalefizState(
            seats=data["seats"],
            pieces=tuple(mask(p) for p in data["pieces"]),
            home=tuple(data["home"]),
            bars=mask(data["barricades"]),
            turn=data["turn"],
            phase=PHASE_NAMES.index(data["phase"]),
            last_roll=tuple(data["last_roll"]),
            counter=data["counter"],
            seed=data["seed"],
            left=tuple(data["left"]),
            rolloff=tuple(tuple((s, v) for s, v in rnd) for rnd in data["rolloff"]),
            starter=data["starter"],
            last=last,
        )


def board_geometry() -> dict[str, Any]:
    """The board for a renderer: fields, edges, goal, houses, start barricades.

    A fresh dict each call, so callers may change it freely.
    """
    return {
        "id": "malefiz-classic",
        "fields": [_xy(i) for i in range(len(FIELDS))],
        "edges": [[_xy(a), _xy(b)] for a, b in EDGES],
        "goal": _xy(GOAL),
        "houses": [{"colour": c.lower(), "entry": _xy(e)} for c, e in _HOUSES_LTR],
        "barricades_start": [_xy(i) for i in START_BARRICADES],
        "no_barricade_row": 1,
    }
