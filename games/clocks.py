"""Time controls: validation, charging the clock, and the next deadline.

Deadlines live in the database (``Game.deadline``); the sweeper in every
server process applies them. Nothing here trusts a client's clock.

``Game.clocks`` holds each seat's time left as of ``Game.turn_started``:
the whole game's time for realtime clocks, the current turn's for
correspondence ones. Every event charges it once (``charge_event``, called
by ``services.next_event``), so no event can give back time already used.

A correspondence control may add a time bank (``{"days": N, "bank": M}``):
``Game.banks`` holds each seat's bank in seconds; a turn that outlasts its
N days draws the rest from the bank, and the seat loses on time only when
both are gone. Seats in ``Game.away`` (their player is on vacation) are
never charged and set no deadline; the earliest vacation end is a deadline
of its own (timer ``vacation``) that lets the clocks run again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

from .errors import GameError
from .models import Event, Game
from .rules import Ruleset
from .rules.base import LongWork, PhaseDeadline, PhaseTimer, implements

DAY = 86400.0
DEFAULT_CLOCK = {"kind": "correspondence", "days": 3}
LIMITS = {"days": (1, 14, 3), "minutes": (1, 180, 10), "increment": (0, 120, 5), "bank": (0, 30, 0)}


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
    wanted = {
        "none": (),
        "correspondence": ("days", "bank"),
        "realtime": ("minutes", "increment"),
    }[kind]
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
    if not clean.get("bank", 1):
        del clean["bank"]  # plain days per move, stored as before banks existed
    return clean


def bank_period(game: Game) -> float:
    """A correspondence seat's whole bank in seconds (0: no bank)."""
    if game.clock.get("kind") != "correspondence":
        return 0.0
    return float(game.clock.get("bank") or 0) * DAY


def _ensure_banks(game: Game) -> None:
    if len(game.banks or []) != game.seat_count:
        game.banks = [bank_period(game)] * game.seat_count


def counting(game: Game) -> list[int]:
    """The seats to act whose clocks run: not those whose player is away."""
    away = game.away or {}
    return [s for s in game.to_act if str(s) not in away]


def _period(game: Game) -> float | None:
    """A clock's full time: the whole game (realtime) or one turn (correspondence)."""
    kind = game.clock.get("kind")
    if kind == "realtime":
        return float(game.clock["minutes"] * 60)
    if kind == "correspondence":
        return float(game.clock["days"] * DAY)
    return None


def _ensure_clocks(game: Game) -> None:
    """Correspondence games from before per-seat correspondence clocks have none:
    give every seat a full turn, charged from ``turn_started`` as usual."""
    period = _period(game)
    if period is not None and len(game.clocks or []) != game.seat_count:
        game.clocks = [period] * game.seat_count


def start_clocks(game: Game, now: datetime) -> None:
    period = _period(game)
    game.clocks = [period] * game.seat_count if period is not None else []
    game.banks = [bank_period(game)] * game.seat_count if bank_period(game) else []
    game.turn_started = now


# Events after which a new turn begins. Every other event (a draw offer or
# its answer, a remis request filed or rejected, a seat out of turn leaving)
# leaves the turn running with the time it has left.
NEW_TURN = frozenset({Event.Kind.START, Event.Kind.ACT, Event.Kind.TIMEOUT, Event.Kind.WORK})


def charge_event(game: Game, kind: str, seat: int | None, now: datetime, *, stopped: bool) -> None:
    """Charge the clocks for one event: the only place time is charged.

    The time since the previous event goes to the seats that were to act
    (unless the clocks were ``stopped``: a remis request waiting is nobody's
    time); a mover gets the increment. Called before the event changes who is
    to act; ``set_deadline`` then says how the clocks go on.
    """
    if not stopped:
        charge(game, now)
    if kind == Event.Kind.ACT:
        credit(game, seat)
    game.turn_started = now


def charge(game: Game, now: datetime) -> None:
    """Charge the time since ``turn_started`` to every seat that had to act."""
    if _period(game) is None or game.turn_started is None:
        return
    _ensure_clocks(game)
    elapsed = max((now - game.turn_started).total_seconds(), 0.0)
    has_bank = bank_period(game) > 0
    if has_bank:
        _ensure_banks(game)
    for seat in counting(game):
        left = game.clocks[seat] - elapsed
        if left < 0 and has_bank:  # the turn's days are gone: the bank pays the rest
            game.banks[seat] = max(game.banks[seat] + left, 0.0)
        game.clocks[seat] = max(left, 0.0)
    game.turn_started = now


def time_left(game: Game, seat: int) -> float:
    """A seat's time as of ``turn_started``: its clock plus what its bank holds."""
    bank = game.banks[seat] if bank_period(game) and len(game.banks) == game.seat_count else 0.0
    return game.clocks[seat] + bank


def credit(game: Game, seat: int | None) -> None:
    """The increment for a seat that just acted."""
    if game.clock.get("kind") == "realtime" and seat is not None:
        game.clocks[seat] += game.clock.get("increment", 0)


def begins_turn(kind: str, to_act_before: list[int], to_act_after: list[int]) -> bool:
    """Whether an event starts a new turn (a correspondence turn's time starts afresh)."""
    if kind in NEW_TURN:
        return True
    return kind == Event.Kind.LEAVE and to_act_before != to_act_after


def set_forced(game: Game, rs: Ruleset, state: Any, now: datetime) -> None:
    """When the sweeper plays the forced turn of a seat whose player opted in
    (``Game.autoplay``): ``FORCED_TURN_SECONDS`` from now, or never."""
    game.forced_at = None
    if not game.autoplay or game.status != Game.Status.ACTIVE or game.paused or state is None:
        return
    if len(game.to_act) != 1 or game.to_act[0] not in game.autoplay:
        return
    if rs.forced_action(state, game.to_act[0]) is not None:
        game.forced_at = now + timedelta(seconds=settings.FORCED_TURN_SECONDS)


def set_deadline(
    game: Game, rs: Ruleset, state: Any, now: datetime, *, new_turn: bool = False
) -> None:
    """The earliest of: a realtime clock running out, the correspondence
    deadline, the ruleset's own phase timer. Stopped clocks (a paused game, a
    finished one) have none.

    Call after ``charge_event``: the clocks hold what is left as of ``now``.
    A ``new_turn`` gives the correspondence seats to act a full turn; otherwise
    the turn goes on with what it has left (nothing refills a clock).
    """
    game.deadline, game.timer = None, ""
    if game.status != Game.Status.ACTIVE or game.paused or state is None:
        return
    work_due = implements(rs, LongWork) and rs.work_due(state)
    if not game.to_act:
        if work_due:
            game.deadline, game.timer = now, "work"
        return
    options: list[tuple[datetime, str]] = []
    kind = game.clock.get("kind")
    # A seat that runs the game (a game master) has no clock to run out.
    clocked = [s for s in game.to_act if not rs.is_referee(s)]
    if kind in ("realtime", "correspondence") and clocked:
        _ensure_clocks(game)
        if new_turn and kind == "correspondence":
            for seat in clocked:
                game.clocks[seat] = _period(game)
        running = [s for s in counting(game) if s in clocked]
        if running:
            left = min(time_left(game, s) for s in running)
            timer = "clock" if kind == "realtime" else "move"
            options.append((now + timedelta(seconds=left), timer))
    back = vacation_end(game)
    if back is not None:
        options.append((back, "vacation"))
    phase, key = _phase_timer(rs, state)
    if phase is None:
        game.phase_deadline, game.timer_key = None, ""
    else:
        if not key or key != game.timer_key or game.phase_deadline is None:
            game.phase_deadline = now + timedelta(seconds=phase)
        game.timer_key = key
        options.append((game.phase_deadline, "phase"))
    absolute = rs.phase_deadline(state) if implements(rs, PhaseDeadline) else None
    if absolute:
        when = datetime.fromisoformat(absolute)
        options.append((when if when.tzinfo else when.replace(tzinfo=UTC), "phase"))
    if work_due:
        options.append((now, "work"))
    if options:
        game.deadline, game.timer = min(options)


def vacation_end(game: Game) -> datetime | None:
    """The earliest end of a seated player's vacation in this game."""
    ends = [datetime.fromisoformat(a["until"]) for a in (game.away or {}).values()]
    return min(ends) if ends else None


def _phase_timer(rs: Ruleset, state: Any) -> tuple[float | None, str]:
    """The ruleset's own phase timer in seconds (None: none runs) and the key
    naming the timed phase."""
    if not implements(rs, PhaseTimer):
        return None, ""
    phase = rs.phase_timer(state)
    return phase, (rs.timer_key(state) or "") if phase is not None else ""


def timed_out_seat(game: Game) -> int | None:
    """Which seat the due deadline is against (phase timers: the first to act)."""
    if not game.to_act:
        return None
    if game.timer == "clock":
        return min(game.to_act, key=lambda s: game.clocks[s])
    if game.timer == "move":  # never a seat whose player is away
        running = counting(game)
        if not running:
            return None
        # Banks differ per seat: the first whose bank ran dry; else the first.
        return min(running, key=lambda s: time_left(game, s)) if bank_period(game) else running[0]
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
        data["bank"] = game.clock.get("bank", 0)
        if bank_period(game):
            data["banks"] = _banks_now(game, now)
    return data


def _banks_now(game: Game, now: datetime) -> list[float]:
    """Each seat's bank as of ``now``: a running turn past its days draws on it."""
    _ensure_clocks(game)
    _ensure_banks(game)
    banks = list(game.banks)
    if game.status == Game.Status.ACTIVE and game.turn_started and not game.paused:
        elapsed = max((now - game.turn_started).total_seconds(), 0.0)
        for seat in counting(game):
            over = elapsed - game.clocks[seat]
            if over > 0:
                banks[seat] = max(banks[seat] - over, 0.0)
    return [round(b, 1) for b in banks]
