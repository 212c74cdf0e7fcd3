"""A seat offered to a bot or handed to one: the offer's state on a ``Game``.

Shared by the services that end, play and pause a game (endings, play,
moves_on_loop) and by the players' answers (handover.py): nothing here is an
entry point.

In a game of three or more seats, a seat whose own clock ran out and that is
still in play (the ruleset applied its timeout action, e.g. a Hexenhalma team's
orders locked) is offered: ``open_offer`` runs in the timeout's transaction.
With the last agreement (handover.py) the seat is played by the medium bot
from the next move on (``Game.bots``, ``take_over``), and the game's result
names it. A seat that left (resigned, or a timeout that removes it) is out of
play: no offer, unless its ruleset says ``leave_offered`` (Malefiz: RULES.md
removes a leaver's pieces, so the others are asked first whether a bot keeps
the seat: ``offer_leave``). The player coming back and moving before that
withdraws the offer (``player_returns``). A tournament's no-show is handed to
a bot without a vote (``no_show_to_bot``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext_noop

from ... import hooks
from ...errors import GameError
from ...models import Event, Game
from ...rules import Ruleset
from .events import append_event

HANDOVER_LEVEL = "medium"
OWN_TIMERS = ("clock", "move")  # a seat's own time, not a game master's round deadline
REALTIME_DECISION = 120.0  # seconds the others have to decide, on a realtime clock
DAY = 86400.0


def _decision_seconds(game: Game) -> float:
    """How long the others have to decide: 2 minutes (realtime), else one move period."""
    if game.clock.get("kind") == "realtime":
        return REALTIME_DECISION
    return float(game.clock.get("days") or 3) * DAY


def _leaving(game: Game, seat: int) -> bool:
    """``seat`` resigned or timed out and waits for the others (or a bot plays it)."""
    return "leave" in (game.handovers.get(str(seat)) or {})


def pending_leaves(game: Game) -> list[int]:
    return [int(s) for s, o in game.handovers.items() if "leave" in o and o.get("move") is None]


def still_paused(game: Game) -> bool:
    """Whether the game stays paused once one offer is decided: another offer or a
    remis request still waits."""
    return bool(pending_leaves(game) or game.remis_pending)


def offer_leave(
    game: Game, rs: Ruleset, seat: int, *, event_type: str, reason: str, now: datetime
) -> Event | None:
    """Offer a leaving seat to a bot instead of applying the leave (None: not offered)."""
    if not rs.leave_offered or str(seat) in game.bots or _leaving(game, seat):
        return None
    others = [
        s
        for s in range(game.seat_count)
        if s != seat and s not in game.left_seats and not _leaving(game, s)
    ]
    if game.seat_count < 3 or len(others) < 2 or not voters(game, seat):
        return None  # no person would play on to decide: leaving.leave_or_end
    game.draw_offers = [s for s in game.draw_offers if s != seat]
    until = now + timedelta(seconds=_decision_seconds(game))
    leave = {"reason": reason, "event": event_type, "until": until.isoformat()}
    game.handovers = {**game.handovers, str(seat): {"votes": [], "move": None, "leave": leave}}
    items = [
        {"type": event_type, "seat": seat},
        {"type": "handover_offered", "seat": seat, "until": leave["until"]},
    ]
    return handover_event(game, rs, seat, items, now, paused=True)


def take_over(game: Game, seat: int) -> dict[str, Any]:
    """The medium bot plays ``seat`` from the next move on (in memory); its event item."""
    move = Event.objects.filter(game=game, kind=Event.Kind.ACT).count() + 1
    offer = game.handovers.get(str(seat)) or {"votes": []}
    # The level rides along so every snapshot names who plays the seat now.
    game.handovers = {**game.handovers, str(seat): {**offer, "move": move, "level": HANDOVER_LEVEL}}
    game.bots = {**game.bots, str(seat): HANDOVER_LEVEL}
    game.has_bots = True
    _refill_clock(game, seat)
    return {"type": "handed_to_bot", "seat": seat, "level": HANDOVER_LEVEL, "move": move}


def no_show_to_bot(game: Game, rs: Ruleset, seat: int, now: datetime) -> Event | None:
    """A seat of a 3+-seat game ran out of time without a move of its own:
    if a receiver of ``hooks.seat_no_show`` claims it (a tournament), a bot
    plays it from now on, no vote asked (None: not claimed)."""
    if game.seat_count < 3 or str(seat) in game.bots or seat in game.left_seats:
        return None
    if Event.objects.filter(game=game, kind=Event.Kind.ACT, seat=seat).exists():
        return None
    answers = hooks.seat_no_show.send(sender=Game, game=game, seat=seat)
    if not any(claimed for _, claimed in answers):
        return None
    items = [{"type": "no_show", "seat": seat}, take_over(game, seat)]
    return handover_event(game, rs, seat, items, now)


def handover_event(
    game: Game,
    rs: Ruleset,
    seat: int,
    items: list[dict[str, Any]],
    now: datetime,
    paused: bool | None = None,
) -> Event:
    """A seat's handover step (offered, a vote, or handed to a bot) as its event."""
    return append_event(
        game,
        rs,
        rs.decode(game.started_state),
        seat=seat,
        kind=Event.Kind.HANDOVER,
        events=items,
        paused=paused,
        now=now,
    )


def _refill_clock(game: Game, seat: int) -> None:
    """A seat that timed out has no time left: the bot gets a fresh period for it."""
    kind = game.clock.get("kind")
    if kind not in ("realtime", "correspondence") or len(game.clocks or []) <= seat:
        return
    full = game.clock["minutes"] * 60 if kind == "realtime" else game.clock["days"] * DAY
    clocks = list(game.clocks)
    clocks[seat] = max(clocks[seat], float(full))
    game.clocks = clocks


def open_offer(game: Game, seat: int) -> None:
    """After ``seat`` timed out and stays in play: offer it to a bot (in memory)."""
    if game.seat_count < 3 or game.timer not in OWN_TIMERS or str(seat) in game.bots:
        return
    if str(seat) not in game.handovers:
        game.handovers = {**game.handovers, str(seat): {"votes": [], "move": None}}


def player_returns(game: Game, seat: int) -> None:
    """A player acts on their own seat: refused if a bot plays it now; an open
    offer of it is withdrawn (they are back)."""
    if str(seat) in game.bots or _leaving(game, seat):
        raise GameError(
            "handed_over", gettext_noop("A bot plays this seat now."), version=game.version
        )
    if str(seat) in game.handovers:
        game.handovers = {k: v for k, v in game.handovers.items() if k != str(seat)}


def held_by_person(game: Game, seat: int) -> bool:
    """Whether a person still plays ``seat``: not a bot's, not left or leaving."""
    return str(seat) not in game.bots and seat not in game.left_seats and not _leaving(game, seat)


def voters(game: Game, seat: int) -> list[int]:
    """Who must agree: every seat still in play that a person holds, but ``seat``."""
    return [s for s in range(game.seat_count) if s != seat and held_by_person(game, s)]


def parse_seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError("bad_request", gettext_noop("Name the seat by its number."))
    return value


def open_offer_of(game: Game, seat: int) -> dict[str, Any]:
    """The offer of ``seat`` still waiting for votes, or the error saying there is none."""
    offer = game.handovers.get(str(seat))
    if offer is None or offer.get("move") is not None or seat in game.left_seats:
        raise GameError(
            "no_handover",
            gettext_noop("No handover to a bot is open for that seat."),
            version=game.version,
        )
    return offer


def not_needed(game: Game) -> GameError:
    return GameError(
        "already_agreed",
        gettext_noop("Your agreement is not needed (again) for this seat."),
        version=game.version,
    )
