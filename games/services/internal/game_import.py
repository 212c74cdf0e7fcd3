"""Importing an exported game: the log is walked again from the seed, so only
a genuine game (every action legal, the same result) is stored."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from django.utils.translation import gettext_noop

from ... import plain_json
from ...errors import GameError
from ...models import Event, Game, MatchRecord, ReplayCheckpoint, record_summary
from ...reasons import REASON_APPROVED, REASON_DRAW_AGREED, REASON_FLAGGED, REASON_RESIGNED
from ...rules import RULESETS, IllegalAction, InvalidOptions, Ruleset
from ...rules.base import Outcome
from ...selectors.replays import EXPORT_FORMAT
from ...selectors.walk import checkpoint_due, step_full
from ..creating import game_create_imported

if TYPE_CHECKING:
    from ...users import Visitor

# Entries a seat makes (or that happen to a seat): their ``seat`` may not be empty.
SEATED_KINDS = {
    Event.Kind.ACT,
    Event.Kind.TIMEOUT,
    Event.Kind.LEAVE,
    Event.Kind.DRAW_OFFER,
    Event.Kind.DRAW_DECLINE,
}


UNSEATED_KINDS = {Event.Kind.START, Event.Kind.WORK}


KINDS = frozenset(Event.Kind.values)  # the enum builds a new list at each call


TIMERS = {"clock", "move", "phase", "work", ""}


def _bad(message: str, **params: Any) -> GameError:
    return GameError("bad_export", message, **params)


def _check_header(data: Any) -> tuple[Ruleset, dict, int, int, list]:
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise _bad(gettext_noop("This is not a game export of this site."))
    slug = data.get("ruleset")
    rs = RULESETS.get(slug) if isinstance(slug, str) else None
    if rs is None:
        raise _bad(gettext_noop("The export names an unknown game."))
    seats, seed, log = data.get("seat_count"), data.get("seed"), data.get("log")
    if not isinstance(seats, int) or not rs.min_seats <= seats <= rs.max_seats:
        raise _bad(gettext_noop("The export has an impossible number of seats."))
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(log, list) or not log:
        raise _bad(gettext_noop("The export lacks its seed or its log."))
    if data.get("opening") is not None:  # its start would not be proved by its seed
        raise _bad(
            gettext_noop("A game continued from another game's position cannot be imported.")
        )
    try:
        options = rs.validate_options(data.get("options", {}))
    except InvalidOptions as exc:
        raise _bad(exc.template, **exc.params) from None
    return rs, options, seats, seed, log


class Rebuilt:
    """An export's log replayed: what the import stores, all of it computed here."""

    def __init__(self, rs: Ruleset, seats: int, state: Any) -> None:
        self.rs, self.seats, self.state = rs, seats, state
        self.events: list[Event] = []
        self.records: list[tuple[int, list[dict[str, Any]]]] = []
        self.checkpoints: list[tuple[int, dict[str, Any]]] = []
        self.left: list[int] = []
        self.remis_kind = ""
        self.end_item: dict[str, Any] = {}


def _seat_or_none(value: Any, seats: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats:
        return value
    return None


def _text(value: Any, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _whole_numbers(value: Any, limit: int) -> list[int]:
    if not isinstance(value, list):
        return []
    return [n for n in value[:limit] if isinstance(n, int) and not isinstance(n, bool)]


def _stored_item(item: dict[str, Any], types: tuple[str, ...]) -> dict[str, Any]:
    """The export's platform event item of one of ``types`` (any other content is ignored)."""
    stored = item.get("events")
    for candidate in stored if isinstance(stored, list) else []:
        if isinstance(candidate, dict) and candidate.get("type") in types:
            return candidate
    return {}


def _platform_items(built: Rebuilt, kind: str, seat: int | None, item: dict) -> list[dict]:
    """The platform's own event items of one log entry, as the services make them.

    What only the export can know (which timer ran out, who resigned or ran
    out of time, an admin's or a player's remis text) is taken from it, each
    value checked and bounded; everything else is computed.
    """
    seats = built.seats
    if kind == Event.Kind.START:
        return [{"type": "start"}]
    if kind == Event.Kind.TIMEOUT:
        timer = _stored_item(item, ("timeout",)).get("timer")
        return [{"type": "timeout", "seat": seat, "timer": timer if timer in TIMERS else ""}]
    if kind == Event.Kind.LEAVE:
        how = _stored_item(item, ("resigned", "flagged")).get("type", "resigned")
        return [{"type": how, "seat": seat}]
    if kind == Event.Kind.DRAW_OFFER:
        offers = _whole_numbers(_stored_item(item, ("draw_offered",)).get("offers"), seats)
        offers = sorted(
            {s for s in offers if 0 <= s < seats} | ({seat} if seat is not None else set())
        )
        return [{"type": "draw_offered", "seat": seat, "offers": offers}]
    if kind == Event.Kind.DRAW_DECLINE:
        return [{"type": "draw_declined", "seat": seat}]
    if kind == Event.Kind.REMIS:
        return [_remis_item(built, seat, item)]
    if kind == Event.Kind.END:
        return [_end_item(built, seat, item)]
    return []


def _remis_item(built: Rebuilt, seat: int | None, item: dict) -> dict[str, Any]:
    found = _stored_item(item, ("remis_requested", "remis_rejected"))
    if found.get("type") != "remis_requested":
        return {
            "type": "remis_rejected",
            "seat": _seat_or_none(found.get("seat"), built.seats),
            "reason": _text(found.get("reason"), 2000),
        }
    kind = found["kind"] if found.get("kind") in ("repetition", "deadlock") else "deadlock"
    built.remis_kind = kind
    path = found.get("path")
    fields = path[:64] if isinstance(path, list) else []
    return {
        "type": "remis_requested",
        "seat": seat,
        "kind": kind,
        "move_numbers": _whole_numbers(found.get("move_numbers"), 3),
        "path": [_whole_numbers(f, 2) for f in fields] if isinstance(path, list) else None,
        "reason": _text(found.get("reason"), 1000),
    }


def _end_item(built: Rebuilt, seat: int | None, item: dict) -> dict[str, Any]:
    found = _stored_item(item, ("resigned", "flagged", "draw_accepted", "remis_approved"))
    how = found.get("type")
    if how is None or (how != "remis_approved" and seat is None):
        raise _bad(gettext_noop("The end of the game does not match the log."))
    if how == "remis_approved":
        built.end_item = {
            "type": how,
            "seat": _seat_or_none(found.get("seat"), built.seats),
            "reason": _text(found.get("reason"), 2000),
        }
    else:
        built.end_item = {"type": how, "seat": seat}
    return built.end_item


def _platform_result(built: Rebuilt, exported: object) -> Outcome:
    """How the platform ended the game (resign, time, draw, remis), recomputed.

    Only a player's name comes from the export, as a parameter: never a template.
    """
    how, seat = built.end_item.get("type"), built.end_item.get("seat")
    if how == "draw_accepted":
        return {"winners": [], "draw": True, "reason": REASON_DRAW_AGREED, "reason_params": {}}
    if how == "remis_approved":
        if not built.remis_kind:
            raise _bad(gettext_noop("The end of the game does not match the log."))
        return {"winners": [], "draw": True, "reason": REASON_APPROVED[built.remis_kind]}
    params = exported.get("reason_params") if isinstance(exported, dict) else None
    name = params.get("player") if isinstance(params, dict) else None
    if not isinstance(name, str) or not name or len(name) > 150:
        name = str(cast(int, seat) + 1)  # _end_item: a seat unless remis_approved
    winners = [s for s in range(built.seats) if s != seat and s not in built.left]
    reason = REASON_RESIGNED if how == "resigned" else REASON_FLAGGED
    return {"winners": winners, "draw": False, "reason": reason, "reason_params": {"player": name}}


def _entry(item: Any, n: int, seats: int) -> tuple[str, int | None, Any]:
    """(kind, seat, action) of log entry ``n``, its shape checked."""
    if (
        not isinstance(item, dict)
        or item.get("version") != n
        or item.get("kind") not in KINDS
        or (item["kind"] == Event.Kind.START) != (n == 1)
    ):
        raise _bad(gettext_noop("Log entry %(n)s is malformed."), n=n)
    kind, seat = item["kind"], item.get("seat")
    if seat is not None and _seat_or_none(seat, seats) is None:
        raise _bad(gettext_noop("Log entry %(n)s is malformed."), n=n)
    if (kind in SEATED_KINDS and seat is None) or (kind in UNSEATED_KINDS and seat is not None):
        raise _bad(gettext_noop("Log entry %(n)s is malformed."), n=n)
    if kind in (Event.Kind.ACT, Event.Kind.TIMEOUT) and not isinstance(item.get("action"), dict):
        raise _bad(gettext_noop("Log entry %(n)s is malformed."), n=n)
    return kind, seat, item.get("action")


def _too_costly(cpu_seconds: float) -> GameError:
    return GameError(
        "too_costly",
        gettext_noop(
            "Checking this game took more than %(n)s seconds of work; it cannot be imported."
        ),
        n=cpu_seconds,
    )


def _rebuild(
    rs: Ruleset, options: dict, seats: int, seed: int, log: list, cpu_seconds: float
) -> Rebuilt:
    """Replay the log; every state, event item, record and the result are computed.

    Stops with ``_too_costly`` once the replay has used ``cpu_seconds`` of this
    thread's CPU (checked between entries: one entry is one round at most)."""
    started = time.thread_time()
    built = Rebuilt(rs, seats, rs.setup(options, seats, seed))
    last_checkpoint, since = 0, started
    for n, item in enumerate(log, start=1):
        if time.thread_time() - started > cpu_seconds:
            raise _too_costly(cpu_seconds)
        kind, seat, action = _entry(item, n, seats)
        if rs.outcome(built.state) is not None or (kind == Event.Kind.END and n != len(log)):
            raise _bad(gettext_noop("Log entry %(n)s comes after the end of the game."), n=n)
        try:
            if kind in (Event.Kind.ACT, Event.Kind.TIMEOUT):
                action = rs.normalize_action(built.state, cast(int, seat), action)  # _entry: seated
            else:
                action = None
            state, items, records = step_full(rs, built.state, kind, seat, action)
        except (IllegalAction, TypeError, KeyError, AttributeError, ValueError):
            raise _bad(
                gettext_noop("Log entry %(n)s is not a legal action here; the export was changed."),
                n=n,
            ) from None
        if kind == Event.Kind.LEAVE and seat is not None:  # _entry: a leave names its seat
            built.left.append(seat)
        built.state = state
        platform = _platform_items(built, kind, seat, item)
        # The platform's item leads where it caused the ruleset's (a timer, a leave).
        lead = kind in (Event.Kind.TIMEOUT, Event.Kind.LEAVE)
        items = platform + items if lead else items + platform
        built.events.append(Event(version=n, seat=seat, kind=kind, action=action, events=items))
        if records:
            built.records.append((n, records))
        if checkpoint_due(kind, n, last_checkpoint, time.thread_time() - since):
            built.checkpoints.append((n, rs.encode(state)))
            last_checkpoint, since = n, time.thread_time()
    return built


def _result(built: Rebuilt, exported: object) -> Outcome:
    """The result the log gives, checked against the export's; the game_over item added."""
    result = built.rs.outcome(built.state)
    if result is None:
        if built.events[-1].kind != Event.Kind.END:
            raise _bad(gettext_noop("The log ends before the game does."))
        result = _platform_result(built, exported)
    if (
        not isinstance(exported, dict)
        or exported.get("winners") != result["winners"]
        or bool(exported.get("draw")) != bool(result.get("draw"))
    ):
        raise _bad(gettext_noop("The result does not match the log; the export was changed."))
    built.events[-1].events.append({"type": "game_over", **result})
    return result


def check_export(*, user: Visitor | None, data: object) -> None:
    """What the request checks before it queues an import: a login and the
    export's header (cheap; the log is replayed later). ``data`` is plain JSON:
    the API's parser has refused text no database stores, and a walk of a
    big export costs about a second, so it is not walked twice."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to import games."), status=403)
    _check_header(data)


class Checked:
    """An export replayed and found genuine: everything ``store_game`` writes."""

    def __init__(self, data: dict[str, Any], cpu_seconds: float) -> None:
        rs, self.options, self.seats, self.seed, log = _check_header(data)
        self.built = _rebuild(rs, self.options, self.seats, self.seed, log, cpu_seconds)
        if rs.encode(self.built.state) != data.get("final_state"):
            raise _bad(
                gettext_noop("The final position does not match the log; the export was changed.")
            )
        self.result = _result(self.built, data.get("result"))


def replay_export(data: dict[str, Any], *, cpu_seconds: float) -> Checked:
    """Replay an export's log (no database work: a worker runs this without a
    connection); refuses anything tampered with, and anything that costs
    more than ``cpu_seconds`` of CPU, as ``_too_costly``.

    Only the options, seed and actions are taken from the export (and the
    few platform facts only it holds, each checked): states, event items,
    records and the result are computed by replaying the log.
    """
    found = plain_json.problem(data)  # the API's parser refused these already: not twice there
    if found:
        raise GameError("bad_request", found)
    return Checked(data, cpu_seconds)


def store_game(*, user_id: int, checked: Checked) -> Game:
    """The replayed game stored, finished (inside the caller's transaction)."""
    built, rs = checked.built, checked.built.rs
    game = game_create_imported(
        ruleset=rs.slug,
        options=checked.options,
        seat_count=checked.seats,
        seed=checked.seed,
        host=user_id,
        state=rs.encode(built.state),
        version=len(built.events),
        result=checked.result,
    )
    for event in built.events:
        event.game = game
    Event.objects.bulk_create(built.events)
    MatchRecord.objects.bulk_create(
        [
            MatchRecord(game=game, version=v, index=i, data=r, summary=record_summary(r))
            for v, records in built.records
            for i, r in enumerate(records)
        ]
    )
    ReplayCheckpoint.objects.bulk_create(
        [ReplayCheckpoint(game=game, version=v, state=state) for v, state in built.checkpoints]
    )
    return game
