"""Time controls: validation, charging the clock, and the next deadline.

Deadlines live in the database (``Game.deadline``); the sweeper in every
server process applies them. Nothing here trusts a client's clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.translation import gettext_noop

from .errors import GameError
from .models import Game
from .rules import Ruleset

DEFAULT_CLOCK = {"kind": "correspondence", "days": 3}
LIMITS = {"days": (1, 14, 3), "minutes": (1, 180, 10), "increment": (0, 120, 5)}


def clean_clock(clock: Any) -> dict[str, Any]:
    """Validate a table's time control; None gives the default (3 days per move)."""
    if clock in (None, {}):
        return dict(DEFAULT_CLOCK)
    if not isinstance(clock, dict) or clock.get("kind") not in {
        "none",
        "correspondence",
        "realtime",
    }:
        raise GameError(
            "bad_clock",
            gettext_noop("Choose a time control: none, correspondence or realtime."),
        )
    kind = clock["kind"]
    wanted = {"none": (), "correspondence": ("days",), "realtime": ("minutes", "increment")}[kind]
    clean: dict[str, Any] = {"kind": kind}
    for name in wanted:
        lo, hi, default = LIMITS[name]
        value = clock.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise GameError(
                "bad_clock",
                gettext_noop("The time control's %(name)s must lie between %(lo)s and %(hi)s."),
                name=name,
                lo=lo,
                hi=hi,
            )
        clean[name] = value
    return clean


def start_clocks(game: Game, now: datetime) -> None:
    if game.clock.get("kind") == "realtime":
        game.clocks = [float(game.clock["minutes"] * 60)] * game.seat_count
    game.turn_started = now


def charge(game: Game, now: datetime) -> None:
    """Charge the time since the turn began to every seat that had to act."""
    if game.clock.get("kind") != "realtime" or game.turn_started is None or game.paused:
        return
    elapsed = max((now - game.turn_started).total_seconds(), 0.0)
    for seat in game.to_act:
        game.clocks[seat] = max(game.clocks[seat] - elapsed, 0.0)
    game.turn_started = now


def credit(game: Game, seat: int | None) -> None:
    """The increment for a seat that just acted."""
    if game.clock.get("kind") == "realtime" and seat is not None:
        game.clocks[seat] += game.clock.get("increment", 0)


def set_deadline(game: Game, rs: Ruleset, state: Any, now: datetime) -> None:
    """The earliest of: a realtime clock running out, the correspondence
    deadline, the ruleset's own phase timer."""
    game.deadline, game.timer = None, ""
    if game.status != Game.Status.ACTIVE or game.paused or state is None:
        return
    if not game.to_act:
        if rs.work_due(state):
            game.deadline, game.timer = now, "work"
        return
    game.turn_started = now
    options: list[tuple[datetime, str]] = []
    kind = game.clock.get("kind")
    if kind == "realtime":
        left = min(game.clocks[s] for s in game.to_act)
        options.append((now + timedelta(seconds=left), "clock"))
    elif kind == "correspondence":
        options.append((now + timedelta(days=game.clock["days"]), "move"))
    phase = rs.phase_timer(state)
    if phase is None:
        game.phase_deadline, game.timer_key = None, ""
    else:
        key = rs.timer_key(state) or ""
        if not key or key != game.timer_key or game.phase_deadline is None:
            game.phase_deadline = now + timedelta(seconds=phase)
        game.timer_key = key
        options.append((game.phase_deadline, "phase"))
    absolute = rs.phase_deadline(state)
    if absolute:
        when = datetime.fromisoformat(absolute)
        options.append((when if when.tzinfo else when.replace(tzinfo=UTC), "phase"))
    if rs.work_due(state):
        options.append((now, "work"))
    if options:
        game.deadline, game.timer = min(options)


def timed_out_seat(game: Game) -> int | None:
    """Which seat the due deadline is against (phase timers: the first to act)."""
    if not game.to_act:
        return None
    if game.timer == "clock":
        return min(game.to_act, key=lambda s: game.clocks[s])
    return game.to_act[0]


def clock_view(game: Game, now: datetime) -> dict[str, Any]:
    """What the page needs to draw the countdowns, from the server's clock."""
    data: dict[str, Any] = {
        "kind": game.clock.get("kind", "none"),
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "timer": game.timer,
        "paused": game.paused,
        "now": now.isoformat(),
    }
    if data["kind"] == "realtime" and game.clocks:
        remaining = list(game.clocks)
        if game.status == Game.Status.ACTIVE and game.turn_started and not game.paused:
            elapsed = max((now - game.turn_started).total_seconds(), 0.0)
            for seat in game.to_act:
                remaining[seat] = max(remaining[seat] - elapsed, 0.0)
        data["remaining"] = [round(r, 1) for r in remaining]
        data["increment"] = game.clock.get("increment", 0)
    if data["kind"] == "correspondence":
        data["days"] = game.clock.get("days")
    return data
