"""Conditional moves at play time: the opponent's move meets its owner's lines.

``services/events.py`` asks ``decide`` inside the transaction of every move
while a seat holds lines (``Game.plan_seats``, read with the row lock, so a
game without plans costs nothing). The lines whose next action is the move
just made (both normalised, compared as canonical JSON) stay; the first of
their replies that is legal now and hands the turn back (one action, one
turn) is the reply; lines with another reply, an illegal one, or none left
are dropped. The funnel stores the reply as its own event in the same commit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..models import ConditionalPlan, Event, Game
from ..rules import IllegalAction, Ruleset

Line = list[dict[str, Any]]


@dataclass(frozen=True)
class Reply:
    seat: int
    action: dict[str, Any]
    state: object
    items: list[dict[str, Any]]


def _canonical(action: object) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def wanted(game: Game, event: Event) -> bool:
    """A move by one seat while another holds lines (no query)."""
    if not game.plan_seats or event.seat is None or event.action is None:
        return False
    return event.kind in (Event.Kind.ACT, Event.Kind.TIMEOUT) and any(
        seat != event.seat for seat in game.plan_seats
    )


def decide(game: Game, rs: Ruleset, state: object, event: Event) -> Reply | None:
    """The reply to ``event`` (already applied: ``game`` and ``state`` are
    after it), with the owner's lines advanced or dropped in the caller's
    transaction; None when no line answers it."""
    assert event.seat is not None  # wanted() said so
    mover, reply = event.seat, None
    for owner in [seat for seat in game.plan_seats if seat != mover]:
        plan = ConditionalPlan.objects.filter(game=game, seat=owner).first()
        moved = _canonical(event.action)
        rest = [line[1:] for line in (plan.lines if plan else []) if _canonical(line[0]) == moved]
        left: list[Line] = []
        if reply is None and _may_reply(game, rs, state, owner):
            reply, left = _first_legal(rs, state, owner, mover, rest)
        _keep(game, owner, plan, [line[1:] for line in left if len(line) > 1])
    return reply


def _may_reply(game: Game, rs: Ruleset, state: object, owner: int) -> bool:
    """The owner alone is to act, in a one-action turn, and no bot plays the seat."""
    return (
        game.status == Game.Status.ACTIVE
        and not game.paused
        and game.to_act == [owner]
        and str(owner) not in (game.bots or {})
        and rs.single_action_turns(state)
    )


def _first_legal(
    rs: Ruleset, state: object, owner: int, mover: int, lines: list[Line]
) -> tuple[Reply | None, list[Line]]:
    """The first reply among ``lines`` (each starting with the owner's reply)
    that is legal and hands the turn back; the lines that give it."""
    tried: set[str] = set()
    for line in lines:
        key = _canonical(line[0])
        if key in tried:
            continue
        tried.add(key)
        reply = _apply_reply(rs, state, owner, mover, line[0])
        if reply is not None:
            return reply, [other for other in lines if _canonical(other[0]) == key]
    return None, []


def _apply_reply(
    rs: Ruleset, state: object, owner: int, mover: int, action: dict[str, Any]
) -> Reply | None:
    """The stored reply applied, if it is legal and ends the owner's turn."""
    try:
        action = rs.normalize_action(state, owner, action)
        after, items = rs.apply(state, owner, action)
    except (IllegalAction, KeyError, TypeError, ValueError):
        return None  # illegal now: the line is dropped
    if rs.outcome(after) is None and rs.to_act(after) != [mover]:
        return None  # not a turn of one action: never half a turn
    return Reply(owner, action, after, items)


def _keep(game: Game, seat: int, plan: ConditionalPlan | None, lines: list[Line]) -> None:
    """Store what is left of a seat's lines; none left: the plan and its flag go."""
    if lines and plan is not None:
        plan.lines = lines
        plan.save(update_fields=["lines", "updated"])
        return
    if plan is not None:
        plan.delete()
    game.plan_seats = [s for s in game.plan_seats if s != seat]


def drop_all(game: Game) -> None:
    """A game that ends keeps no plans (in its ending's transaction)."""
    ConditionalPlan.objects.filter(game=game).delete()
    game.plan_seats = []
