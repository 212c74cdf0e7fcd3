"""Rebuilding a game from its seed and action log: replays, export, import.

A game is fully reproducible from its options, seed and stored actions; the
same walk serves the replay page and proves an imported export genuine.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .errors import GameError
from .models import Event, Game, Seat
from .rules import RULESETS, IllegalAction, InvalidOptions, Ruleset, get_ruleset
from .rules.base import LongWork, implements
from .selectors import client_event

EXPORT_FORMAT = "brettspiele/1"
REPLAYED_KINDS = {Event.Kind.ACT, Event.Kind.TIMEOUT, Event.Kind.LEAVE, Event.Kind.WORK}


def step(rs: Ruleset, state: Any, kind: str, seat: int | None, action: Any) -> Any:
    """The state after one logged event (platform-only events change nothing)."""
    if kind in (Event.Kind.ACT, Event.Kind.TIMEOUT):
        return rs.apply(state, seat, action)[0]
    if kind == Event.Kind.LEAVE:
        return rs.leave(state, seat)[0]
    if kind == Event.Kind.WORK:
        if not implements(rs, LongWork):
            raise IllegalAction(gettext_noop("There is nothing to resolve."))
        return rs.do_work(state)[0]
    return state


def walk(
    rs: Ruleset, options: dict, seats: int, seed: int, log: Iterable
) -> Iterator[tuple[Any, Any]]:
    """Yield (entry, state after it) for every entry (kind, seat, action) of a log."""
    state = rs.setup(options, seats, seed)
    for entry in log:
        state = step(rs, state, entry[0], entry[1], entry[2])
        yield entry, state


def replay_frames(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """Every version as ``seat`` saw it: the event and the view after it."""
    if game.status == Game.Status.ACTIVE and seat is not None:
        raise GameError(
            "forbidden",
            gettext_noop("A game in progress replays only what spectators may see."),
            status=403,
        )
    rs = get_ruleset(game.ruleset)
    rows = list(Event.objects.filter(game=game).order_by("version"))
    log = [(row.kind, row.seat, row.action) for row in rows]
    frames = []
    for row, (_, state) in zip(
        rows, walk(rs, game.options, game.seat_count, game.seed, log), strict=True
    ):
        frames.append(
            {
                "version": row.version,
                "event": client_event(rs, row, seat),
                "view": rs.view(state, seat),
            }
        )
    return frames


def export_game(game: Game) -> dict[str, Any]:
    if game.status != Game.Status.FINISHED:
        raise GameError(
            "not_finished", gettext_noop("Only finished games can be exported."), status=403
        )
    events = Event.objects.filter(game=game).order_by("version")
    return {
        "format": EXPORT_FORMAT,
        "ruleset": game.ruleset,
        "options": game.options,
        "seat_count": game.seat_count,
        "seed": game.seed,
        "result": game.result,
        "log": [
            {
                "version": e.version,
                "seat": e.seat,
                "kind": e.kind,
                "action": e.action,
                "events": e.events,
            }
            for e in events
        ],
        "final_state": game.state,
    }


def _bad(message: str, **params: Any) -> GameError:
    return GameError("bad_export", message, **params)


def _check_header(data: Any) -> tuple[Ruleset, dict, int, int, list]:
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise _bad(gettext_noop("This is not a game export of this site."))
    rs = RULESETS.get(data.get("ruleset")) if isinstance(data.get("ruleset"), str) else None
    if rs is None:
        raise _bad(gettext_noop("The export names an unknown game."))
    seats, seed, log = data.get("seat_count"), data.get("seed"), data.get("log")
    if not isinstance(seats, int) or not rs.min_seats <= seats <= rs.max_seats:
        raise _bad(gettext_noop("The export has an impossible number of seats."))
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(log, list) or not log:
        raise _bad(gettext_noop("The export lacks its seed or its log."))
    try:
        options = rs.validate_options(data.get("options", {}))
    except InvalidOptions as exc:
        raise _bad(exc.template, **exc.params) from None
    return rs, options, seats, seed, log


def _check_log(rs: Ruleset, options: dict, seats: int, seed: int, log: list) -> Any:
    entries = []
    for i, item in enumerate(log, start=1):
        if (
            not isinstance(item, dict)
            or item.get("version") != i
            or item.get("kind") not in Event.Kind.values
        ):
            raise _bad(gettext_noop("Log entry %(n)s is malformed."), n=i)
        if (item["kind"] == Event.Kind.START) != (i == 1):
            raise _bad(gettext_noop("Log entry %(n)s is malformed."), n=i)
        entries.append((item["kind"], item.get("seat"), item.get("action")))
    state = rs.setup(options, seats, seed)
    for n, (kind, seat, action) in enumerate(entries, start=1):
        try:
            state = step(rs, state, kind, seat, action)
        except (IllegalAction, TypeError, KeyError, AttributeError, ValueError):
            raise _bad(
                gettext_noop("Log entry %(n)s is not a legal action here; the export was changed."),
                n=n,
            ) from None
    return state


@transaction.atomic
def import_game(*, user: Any, data: Any) -> Game:
    """Rebuild a finished game from an export; refuses anything tampered with."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to import games."), status=403)
    rs, options, seats, seed, log = _check_header(data)
    state = _check_log(rs, options, seats, seed, log)
    if rs.encode(state) != data.get("final_state"):
        raise _bad(
            gettext_noop("The final position does not match the log; the export was changed.")
        )
    result = data.get("result")
    outcome = rs.outcome(state)
    if not isinstance(result, dict) or (
        outcome is not None and outcome.get("winners") != result.get("winners")
    ):
        raise _bad(gettext_noop("The result does not match the log; the export was changed."))
    now = timezone.now()
    game = Game.objects.create(
        ruleset=rs.slug,
        options=options,
        seat_count=seats,
        seed=seed,
        host=user,
        status=Game.Status.FINISHED,
        version=len(log),
        state=rs.encode(state),
        result=result,
        started=now,
        ended=now,
        imported=True,
        clock={"kind": "none"},
    )
    Seat.objects.bulk_create([Seat(game=game, index=i) for i in range(seats)])
    Event.objects.bulk_create(
        [
            Event(
                game=game,
                version=item["version"],
                seat=item.get("seat"),
                kind=item["kind"],
                action=item.get("action"),
                events=item.get("events") if isinstance(item.get("events"), list) else [],
            )
            for item in log
        ]
    )
    return game
