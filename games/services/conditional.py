"""Conditional moves: a player's planned answers, stored server-side.

``PUT /api/games/<id>/conditional/`` saves a seat's lines (the opponent's
action, my reply, the opponent's next, my reply, ...), replacing any it had.
Only two-seat correspondence games whose ruleset says a turn is one action
in this position (``Ruleset.single_action_turns``: Halma; Daschax without
the removal variant; Idiotenspiel's set-up) take them, and only while the
opponent is to act: the lines start from the position the opponent moves in.
Each line is checked now, step by step from the current position (legal, and
each action hands the turn to the other seat), and stored normalised, so the
move made later compares equal; services/internal/replies.py plays them. The plans
live in ``ConditionalPlan`` rows (their owner's secret), never in the state
or the log; ``Game.plan_seats`` only says which seats hold some.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext_noop

from ..errors import GameError, no_such_game, rules_message
from ..models import ConditionalPlan, Game, Seat
from ..rules import IllegalAction, Ruleset, get_ruleset
from .internal.guards import locked_player_seat, parse_game_id, require_json_object, user_id_of
from .internal.replies import Line

if TYPE_CHECKING:
    from ..users import Visitor

MAX_LINES = 20
MAX_ACTIONS = 10


def _parse_lines(lines: object) -> list[Line]:
    """The lines' shape: a list of at most 20 lists of 2..10 actions, an even count."""
    if not isinstance(lines, list):
        raise GameError("bad_request", gettext_noop("lines must be a list of lines."))
    if len(lines) > MAX_LINES:
        raise GameError("too_many", gettext_noop("At most %(n)s lines may be stored."), n=MAX_LINES)
    for line in lines:
        if not isinstance(line, list) or not line:
            raise GameError("bad_request", gettext_noop("Each line must be a list of actions."))
        if len(line) > MAX_ACTIONS:
            raise GameError(
                "too_long", gettext_noop("A line has at most %(n)s moves."), n=MAX_ACTIONS
            )
        if len(line) % 2:
            raise GameError(
                "bad_request",
                gettext_noop("Each line pairs the opponent's move with your reply."),
            )
        for action in line:
            if not isinstance(require_json_object(action).get("type"), str):
                raise GameError("bad_request", gettext_noop("Each action needs a type."))
    return lines


def _require_supported(game: Game, rs: Ruleset, state: object) -> None:
    supported = (
        game.seat_count == 2
        and game.clock.get("kind") == "correspondence"
        and rs.single_action_turns(state)
    )
    if not supported:
        raise GameError(
            "not_supported",
            gettext_noop(
                "Conditional moves are for two-player correspondence games in which"
                " a turn is one move."
            ),
            version=game.version,
        )


def _checked_line(rs: Ruleset, state: object, seat: int, number: int, line: Line) -> Line:
    """``line`` played out from ``state`` (the opponent to act), normalised;
    a clear 400 naming the line and move where it fails."""
    return _played_out(rs, state, seat, number, line)[0]


def _played_out(
    rs: Ruleset, state: object, seat: int, number: int, line: Line
) -> tuple[Line, object]:
    """``_checked_line`` and the position it leads to."""
    clean: Line = []
    for step, action in enumerate(line):
        actor = 1 - seat if step % 2 == 0 else seat
        where = {"line": number + 1, "move": step + 1}
        if rs.outcome(state) is not None or rs.to_act(state) != [actor]:
            raise GameError(
                "not_supported",
                gettext_noop("Line %(line)s, move %(move)s: the game does not go on so."),
                **where,
            )
        if not rs.single_action_turns(state):
            raise GameError(
                "not_supported",
                gettext_noop("Line %(line)s, move %(move)s: a turn of several moves."),
                **where,
            )
        try:
            action = rs.normalize_action(state, actor, action)
            state, _items = rs.apply(state, actor, action)
        except IllegalAction as exc:
            raise GameError(
                "illegal",
                gettext_noop("Line %(line)s, move %(move)s: %(why)s"),
                why=rules_message(exc),
                **where,
            ) from None
        clean.append(action)
    return clean, state


def _planning_position(game_id: object, user: Visitor | None) -> tuple[Game, int, Ruleset, object]:
    """The locked game, the caller's seat, its ruleset and the state, where
    the caller may plan now: a game that takes lines, the opponent to move."""
    game, seat = locked_player_seat(game_id, user)
    rs = get_ruleset(game.ruleset)
    state = rs.decode(game.started_state)
    _require_supported(game, rs, state)
    if game.to_act != [1 - seat] or game.paused:
        raise GameError(
            "not_opponents_turn",
            gettext_noop("Plan moves while your opponent is to move."),
            version=game.version,
        )
    return game, seat, rs, state


def conditional_save(*, game_id: object, user: Visitor | None, lines: object) -> list[Line]:
    """Replace the caller's lines in a running game (an empty list clears them)."""
    parsed = _parse_lines(lines)
    with transaction.atomic():
        game, seat, rs, state = _planning_position(game_id, user)
        clean = [_checked_line(rs, state, seat, i, line) for i, line in enumerate(parsed)]
        _store(game, seat, clean)
    return clean


def conditional_preview(
    *, game_id: object, user: Visitor | None, line: object
) -> dict[str, object]:
    """The position a line being planned leads to, as the planner's board
    draws it: the caller's view and the legal actions of whoever is to act
    there. Only where lines are allowed (no hidden dice: nothing leaks)."""
    if not isinstance(line, list) or len(line) >= MAX_ACTIONS:
        raise GameError("too_long", gettext_noop("A line has at most %(n)s moves."), n=MAX_ACTIONS)
    for action in line:
        if not isinstance(require_json_object(action).get("type"), str):
            raise GameError("bad_request", gettext_noop("Each action needs a type."))
    with transaction.atomic():
        _game, seat, rs, state = _planning_position(game_id, user)
        _clean, after = _played_out(rs, state, seat, 0, line)
    to_act = rs.to_act(after)
    legal = rs.legal_actions(after, to_act[0]) if len(to_act) == 1 else []
    return {"view": rs.view(after, seat), "legal": legal or [], "to_act": to_act}


def conditional_clear(*, game_id: object, user: Visitor | None) -> None:
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
        _store(game, seat, [])


def _store(game: Game, seat: int, lines: list[Line]) -> None:
    """The seat's lines and the game's flag, under the game's row lock."""
    if lines:
        ConditionalPlan.objects.update_or_create(game=game, seat=seat, defaults={"lines": lines})
    else:
        ConditionalPlan.objects.filter(game=game, seat=seat).delete()
    seats = {s for s in game.plan_seats if s != seat} | ({seat} if lines else set())
    if sorted(seats) != sorted(game.plan_seats):
        game.plan_seats = sorted(seats)
        game.save(update_fields=["plan_seats"])


def conditional_lines(*, game_id: object, user: Visitor | None) -> list[Line]:
    """The caller's own lines; anyone without a seat has none."""
    pk = parse_game_id(game_id)
    if not Game.objects.filter(pk=pk).exists():
        raise no_such_game()
    uid = user_id_of(user)
    if uid is None:
        return []
    seat = Seat.objects.filter(game_id=pk, user_id=uid).values_list("index", flat=True).first()
    if seat is None:
        return []
    plan = ConditionalPlan.objects.filter(game_id=pk, seat=seat).values_list("lines", flat=True)
    return list(plan.first() or [])
