"""Conditional moves at play time: the opponent's move meets its owner's lines.

``services/internal/events.py`` asks ``decide`` inside the transaction of every move
while a seat holds lines (``Game.plan_seats``, read with the row lock, so a
game without plans costs nothing). It reads only the owner's row of this
game (the unique (game, seat) index), whatever other games store. The lines
whose next action is the move just made (both normalised, compared as
canonical JSON) stay; the first of their replies that is legal now and hands
the turn back (one action, one turn) is the reply; lines with another reply,
an illegal one, or none left are dropped. A reply is a move like any other:
an owner suspended or closed since saving the lines makes none (the same
``refuse_sanctioned_move`` as every move), and the lines go. The funnel
decides the reply on the same game and stores it as its own event in the
same commit. The move on the event loop (``services/moves_on_loop.py``)
reads and writes the same rows with its own statements (``store/rows.py``)
around the same ``match``, in its one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from moderation.models import Standing
from moderation.standing import refuse_sanctioned_move

from ...errors import GameError
from ...models import ConditionalPlan, Event, Game
from ...rules import IllegalAction, Ruleset
from ...store.rows import MoverStanding

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


Plans = dict[int, tuple[list[Line] | None, MoverStanding]]
"""Each owner's lines (None: no row) and sanctions, as read for a move."""


@dataclass(frozen=True)
class PlanWrite:
    """What becomes of an owner's row: its lines left, or gone (None)."""

    seat: int
    lines: list[Line] | None


def owners(game: Game, event: Event) -> list[int]:
    """The seats whose lines ``event`` meets (``wanted`` said there are some)."""
    return [seat for seat in game.plan_seats if seat != event.seat]


def decide(game: Game, rs: Ruleset, state: object, event: Event) -> Reply | None:
    """The reply to ``event`` (already applied: ``game`` and ``state`` are
    after it), with the owner's lines advanced or dropped in the caller's
    transaction; None when no line answers it. (The move on the event loop
    reads and writes the same rows with its own statements, around ``match``.)"""
    plans = {owner: _plan_of(game, owner) for owner in owners(game, event)}
    reply, writes = match(game, rs, state, event, plans)
    for write in writes:
        mine = ConditionalPlan.objects.filter(game_id=game.pk, seat=write.seat)
        if write.lines is not None:
            mine.update(lines=write.lines, updated=timezone.now())  # auto_now: set by hand
        else:
            mine.delete()
    return reply


def match(
    game: Game, rs: Ruleset, state: object, event: Event, plans: Plans
) -> tuple[Reply | None, list[PlanWrite]]:
    """``decide`` without the database: the reply to ``event`` from the
    owners' ``plans``, and what becomes of their rows (``game.plan_seats``
    follows in memory)."""
    assert event.seat is not None  # wanted() said so
    mover, reply = event.seat, None
    moved = _canonical(event.action)
    writes: list[PlanWrite] = []
    for owner, (plan, standing) in plans.items():
        rest = [line[1:] for line in (plan or []) if _canonical(line[0]) == moved]
        left: list[Line] = []
        if reply is None and _may_reply(game, rs, state, owner):
            reply, left = _first_legal(rs, state, owner, mover, rest)
            if reply is not None and _sanctioned(standing, event):
                reply, left = None, []
        write = _keep(game, owner, plan, [line[1:] for line in left if len(line) > 1])
        if write is not None:
            writes.append(write)
    return reply, writes


def _plan_of(game: Game, owner: int) -> tuple[list[Line] | None, MoverStanding]:
    """The owner's lines in this game (None: no row) and the owner's
    sanctions, in one statement on the unique (game, seat) index."""
    theirs = Standing.objects.filter(
        user__seats__game_id=OuterRef("game_id"), user__seats__index=OuterRef("seat")
    )
    found = (
        ConditionalPlan.objects.filter(game_id=game.pk, seat=owner)
        .annotate(
            suspended=Subquery(theirs.values("suspended_until")[:1]),
            closed=Subquery(theirs.values("closed")[:1]),
        )
        .values_list("lines", "suspended", "closed")
    )
    for lines, suspended, closed in found:
        return lines, MoverStanding(suspended, bool(closed))
    return None, MoverStanding()


def _sanctioned(standing: MoverStanding, event: Event) -> bool:
    """The owner is suspended or closed now: the decision refuses their
    reply (the same check as every move's, deciding.decide_act)."""
    try:
        refuse_sanctioned_move(standing, event.created)
    except GameError:
        return True
    return False


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


def _keep(game: Game, seat: int, plan: list[Line] | None, lines: list[Line]) -> PlanWrite | None:
    """What is left of a seat's lines; none left: the plan and its flag go."""
    if lines and plan is not None:
        return PlanWrite(seat, lines)
    game.plan_seats = [s for s in game.plan_seats if s != seat]
    return PlanWrite(seat, None) if plan is not None else None


def drop_all(game: Game) -> None:
    """A game that ends keeps no plans (in its ending's transaction)."""
    ConditionalPlan.objects.filter(game=game).delete()
    game.plan_seats = []
