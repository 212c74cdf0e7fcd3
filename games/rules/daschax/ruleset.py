"""The Daschax ruleset (RULES.md section 2; docs/rules/daschax.md documents
the actions, views and events)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..base import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    OptionField,
    Options,
    Outcome,
    Ruleset,
    draw,
    gettext_noop,
)
from .actions import apply_place, apply_remove, apply_turn, placements
from .geometry import (
    CELLS,
    COLS,
    FACINGS,
    LETTER_POINTS,
    POINTS_LETTER,
    ROWS,
    SIZES,
    START_COUNTS,
    START_FACING,
    START_ROW,
    Counts,
    Piece,
    cell_of,
    xy,
)
from .state import (
    STALL_MAX,
    STALL_TURNS,
    STALL_WARNING,
    DaschaxState,
    Variants,
    counts_pair,
    decode_last,
    decode_taken,
    encode_last,
    encode_taken,
    on_board,
    placing,
    stalled,
)
from .tree import turn_actions
from .views import last_view, options_view, sizes_view, taken_view

# The house rule's draw (RULES.md section 2); ``turns`` is the table's limit.
REASON_STALL = gettext_noop(
    "Drawn: %(turns)s turns in a row without a capture (the site's house rule)."
)


class DaschaxRuleset(Ruleset[DaschaxState]):
    slug: ClassVar[str] = "daschax"
    title: ClassVar[str] = "Daschax"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    views_are_public: ClassVar[bool] = True
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        "place": frozenset({"type", "size", "at"}),
        "turn": frozenset({"type", "at", "steps"}),
        "remove": frozenset({"type", "at"}),
    }
    # Options a rated table keeps at these values (lobby services refuse
    # others): the house rule's limit is the same in every rated game.
    rated_options: ClassVar[dict[str, Any]] = {"stall_turns": STALL_TURNS}

    # -- options ---------------------------------------------------------
    def option_fields(self) -> list[OptionField]:
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
            {
                "name": "stall_turns",
                "kind": "int",
                "label": gettext_noop("Turns without a capture to a draw"),
                "default": STALL_TURNS,
                "min": 0,
                "max": STALL_MAX,
                "help": gettext_noop(
                    "The site's house rule: this many turns in a row without a capture "
                    "(placing does not count) end the game drawn. 0 turns it off. "
                    "Rated tables always play 150."
                ),
            },
        ]

    def validate_options(self, options: Options) -> Options:
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
    def setup(self, options: Options, seats: int, seed: int) -> DaschaxState:
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
            stall_turns=opts["stall_turns"],
        )
        counter = 0
        tosses: list[tuple[str, int, str]] = []
        board: list[Piece | None] = [None] * CELLS
        empty: Counts = (0, 0, 0)
        if variants.formation:
            for col, letter in enumerate(variants.formation):
                points = LETTER_POINTS[letter]
                board[cell_of(col, 0)] = (0, points, START_FACING[0])
                board[cell_of(COLS - 1 - col, ROWS - 1)] = (1, points, START_FACING[1])
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
    def single_action_turns(self, state: DaschaxState) -> bool:
        # A placement or a turn is one action, except where removals may precede it.
        return not state.variants.removal

    def to_act(self, state: DaschaxState) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [state.to_move]

    def outcome(self, state: DaschaxState) -> Outcome | None:
        if placing(state):
            return None
        for seat in (0, 1):
            if on_board(state, seat) == 0:
                return {"winners": [1 - seat], "draw": False, "reason": "all pieces captured"}
        if stalled(state):
            limit = state.variants.stall_turns
            return {
                "winners": [],
                "draw": True,
                "reason": REASON_STALL,
                "reason_params": {"turns": limit},
            }
        return None

    def legal_actions(self, state: DaschaxState, seat: int) -> list[Action]:
        if seat != state.to_move or self.outcome(state) is not None:
            return []
        if placing(state):
            return placements(state, seat)
        out = turn_actions(state.board, seat, state.variants.move_on, state.variants.backward)
        if state.variants.removal and on_board(state, seat) > 1:
            out.extend(
                {"type": "remove", "at": xy(cell)}
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
            return apply_place(state, seat, action)
        if placing(state):
            raise IllegalAction(gettext_noop("all pieces must be placed before the first move"))
        if kind == "remove":
            return apply_remove(state, seat, action)
        return apply_turn(state, seat, action)

    # -- views -----------------------------------------------------------
    def view(self, state: DaschaxState, seat: int | None) -> dict[str, Any]:
        result = self.outcome(state)
        phase = "placement" if placing(state) else ("over" if result else "play")
        pieces = [
            {"at": xy(cell), "seat": p[0], "size": SIZES[p[1] - 1], "facing": FACINGS[p[2]]}
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
            **_stall_view(state),
            "to_place": [sizes_view(c) for c in state.to_place],
            "captured": [sizes_view(c) for c in state.captured],
            "removed": [sizes_view(c) for c in state.removed],
            "on_board": [on_board(state, 0), on_board(state, 1)],
            "coin_tosses": {name: {"seat": s, "by": by} for name, s, by in state.tosses},
            "first_mover": state.first_mover,
            "options": options_view(state.variants),
            "last": last_view(state.last),
            "recent_boards": list(state.recent),
            "removed_this_turn": [taken_view(c, p) for c, p in state.pending],
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
            "variants": options_view(v),  # the stored format is the view's
            "turns": state.turns,
            "last": None if state.last is None else encode_last(state.last),
            "pending": encode_taken(state.pending),
            "recent": list(state.recent),
            "since_capture": state.since_capture,
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
            to_place=counts_pair(data["to_place"]),
            captured=counts_pair(data["captured"]),
            removed=counts_pair(data["removed"]),
            first_mover=data["first_mover"],
            tosses=tuple((str(a), int(b), str(c)) for a, b, c in data["tosses"]),
            # A game stored before the house rule keeps playing without it.
            variants=Variants(**{"stall_turns": 0, **data["variants"]}),
            turns=data["turns"],
            last=None if data["last"] is None else decode_last(data["last"]),
            pending=decode_taken(data["pending"]),
            seed=data["seed"],
            counter=data["counter"],
            recent=tuple(data.get("recent", ())),  # games stored before it have none
            since_capture=data.get("since_capture", 0),
        )


# -- helpers of the ruleset -------------------------------------------------------


def _stall_view(state: DaschaxState) -> dict[str, Any]:
    """The house rule's count for both players: ``stall_warning`` once at most
    STALL_WARNING capture-free turns are left (from 100 of 150 on) in play."""
    limit = state.variants.stall_turns
    return {
        "capture_free_turns": state.since_capture,
        "stall_turns": limit,
        "stall_warning": limit > 0
        and not placing(state)
        and state.since_capture >= limit - STALL_WARNING,
    }


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
