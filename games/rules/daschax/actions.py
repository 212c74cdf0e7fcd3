"""Applying Daschax actions: placing, removing own pieces, and turns."""

from __future__ import annotations

from ..base import Action, Event, IllegalAction, gettext_noop
from .geometry import (
    COLS,
    FACINGS,
    NEIGHBOUR,
    ROWS,
    SIZE_POINTS,
    SIZES,
    START_FACING,
    START_ROW,
    Board,
    Piece,
    Taken,
    cell_of,
    field_name,
    xy,
)
from .state import (
    RECENT,
    DaschaxState,
    Last,
    board_digest,
    on_board,
    pair_with,
    placing,
    plus_one,
    replace_state,
    stalled,
    total,
)
from .views import taken_view

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


def parse_at(action: Action) -> int:
    at = action.get("at")
    if (
        not isinstance(at, list | tuple)
        or len(at) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
        or not (0 <= at[0] < COLS and 0 <= at[1] < ROWS)
    ):
        raise IllegalAction(COORD_MSG)
    return cell_of(at[0], at[1])


def parse_steps(action: Action, backward: bool) -> tuple[str, ...]:
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


def run_steps(
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


def placements(state: DaschaxState, seat: int) -> list[Action]:
    row = START_ROW[seat]
    free = [col for col in range(COLS) if state.board[cell_of(col, row)] is None]
    return [
        {"type": "place", "size": SIZES[i], "at": [col, row]}
        for i, left in enumerate(state.to_place[seat])
        if left
        for col in free
    ]


def apply_place(state: DaschaxState, seat: int, action: Action) -> tuple[DaschaxState, list[Event]]:
    if not placing(state):
        raise IllegalAction(gettext_noop("all pieces are placed already"))
    size = action.get("size")
    if not isinstance(size, str) or size not in SIZE_POINTS:
        raise IllegalAction(gettext_noop('the size is "small", "medium" or "large"'))
    cell = parse_at(action)
    points = SIZE_POINTS[size]
    if state.to_place[seat][points - 1] == 0:
        raise IllegalAction(NONE_LEFT[points])
    if cell // COLS != START_ROW[seat]:
        raise IllegalAction(
            gettext_noop("pieces are placed in your own start row (row %(row)s)"),
            row=START_ROW[seat],
        )
    if state.board[cell] is not None:
        raise IllegalAction(gettext_noop("that field is occupied: %(at)s"), at=field_name(cell))
    piece = (seat, points, START_FACING[seat])
    board = list(state.board)
    board[cell] = piece
    left = list(state.to_place[seat])
    left[points - 1] -= 1
    to_place = pair_with(state.to_place, seat, (left[0], left[1], left[2]))
    other = 1 - seat
    if total(to_place[0]) + total(to_place[1]) == 0:
        nxt = state.first_mover
    else:
        nxt = other if total(to_place[other]) else seat
    new = replace_state(
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
        "at": xy(cell),
        "facing": FACINGS[piece[2]],
    }
    return new, [event]


def _own_piece(state: DaschaxState, seat: int, action: Action) -> tuple[int, Piece]:
    cell = parse_at(action)
    piece = state.board[cell]
    if piece is None or piece[0] != seat:
        raise IllegalAction(
            gettext_noop("there is no piece of yours at %(at)s"), at=field_name(cell)
        )
    return cell, piece


def apply_remove(
    state: DaschaxState, seat: int, action: Action
) -> tuple[DaschaxState, list[Event]]:
    if not state.variants.removal:
        raise IllegalAction(gettext_noop("removing own pieces is not allowed at this table"))
    cell, piece = _own_piece(state, seat, action)
    if on_board(state, seat) <= 1:
        raise IllegalAction(gettext_noop("you may not remove your last piece"))
    board = list(state.board)
    board[cell] = None
    new = replace_state(
        state,
        board=tuple(board),
        removed=pair_with(state.removed, seat, plus_one(state.removed[seat], piece[1])),
        pending=(*state.pending, (cell, piece)),
    )
    return new, [{"type": "removed", "seat": seat, **taken_view(cell, piece)}]


def apply_turn(state: DaschaxState, seat: int, action: Action) -> tuple[DaschaxState, list[Event]]:
    v = state.variants
    cell, piece = _own_piece(state, seat, action)
    steps = parse_steps(action, v.backward)
    end, facing, captures, path = run_steps(state.board, seat, cell, steps, v.move_on)
    board = list(state.board)
    board[cell] = None
    for c, _ in captures:
        board[c] = None
    board[end] = (seat, piece[1], facing)
    taken = state.captured[seat]
    for _, p in captures:
        taken = plus_one(taken, p[1])
    new = replace_state(
        state,
        board=tuple(board),
        captured=pair_with(state.captured, seat, taken),
        to_move=1 - seat,
        turns=state.turns + 1,
        recent=(*state.recent, board_digest(board))[-RECENT:],
        last=Last("turn", seat, cell, piece, steps, captures, state.pending),
        pending=(),
        # Removing own pieces is no capture: only taking an enemy restarts the count.
        since_capture=0 if captures else state.since_capture + 1,
    )
    event: Event = {
        "type": "turned",
        "seat": seat,
        "size": SIZES[piece[1] - 1],
        "from": xy(cell),
        "facing_from": FACINGS[piece[2]],
        "steps": list(steps),
        "path": [
            {"step": s, "at": xy(c), "facing": FACINGS[f]}
            for s, (c, f) in zip(steps, path, strict=True)
        ],
        "to": xy(end),
        "facing": FACINGS[facing],
        "captures": [taken_view(c, p) for c, p in captures],
    }
    events = [event]
    if on_board(new, 1 - seat) == 0:
        events.append({"type": "won", "seat": seat, "reason": "all pieces captured"})
    elif stalled(new):
        events.append({"type": "stalled", "turns": new.since_capture})
    return new, events
