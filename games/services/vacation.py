"""Vacation: a player's correspondence clocks stand still while they are away.

Decisions (docs/time-controls.md): the allowance is 30 days per
calendar year (UTC); a vacation crossing New Year counts in each year for
its part there. Days are counted exactly, to the second: twelve hours are
half a day, and a vacation ended early counts only up to its end. A
vacation always starts now and ends at a chosen moment (a date means the
end of that day, UTC) or, without one, when the year's allowance runs out.

Every running correspondence game the player sits in gets the seat in
``Game.away`` through a ``vacation`` event, so open pages hear of it; the
clocks (games/clocks.py) skip those seats, and the sweeper lifts the
entry when the vacation ends (its end is the game's ``vacation`` deadline).
Realtime games are untouched.

Each start and end is an event in every such game (a version the opponents'
pages move to), so toggling is bounded: a new vacation starts at the
earliest 12 hours after the last one ended and 24 hours after it began
(``vacation_next_start``), which keeps the "away" notices to one per game a
day and a start and an end per game for any burst of toggles.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .. import clocks
from ..errors import GameError
from ..models import Event, Game, Seat, Vacation
from ..rules import get_ruleset
from .internal.events import append_event
from .internal.guards import lock_user

if TYPE_CHECKING:
    from accounts.models import User

ALLOWANCE = timedelta(days=30)  # per calendar year
REST_AFTER_END = timedelta(hours=12)  # before the next vacation may start
STARTS_APART = timedelta(days=1)  # at most one "away" notice per game a day


def vacation_current(user_id: int, *, now: datetime) -> Vacation | None:
    return Vacation.objects.filter(user_id=user_id, start__lte=now, end__gt=now).first()


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def _used_in_year(user_id: int, year: int, now: datetime) -> timedelta:
    """Vacation taken or planned in ``year`` (UTC), exactly; ``now`` is unused
    but kept so callers and tests state the moment they ask about."""
    lo, hi = _year_bounds(year)
    used = timedelta()
    for start, end in Vacation.objects.filter(
        user_id=user_id, start__lt=hi, end__gt=lo
    ).values_list("start", "end"):
        used += min(end, hi) - max(start, lo)
    return used


def vacation_next_start(user_id: int, *, now: datetime) -> datetime | None:
    """When a new vacation may start, if not now: 12 hours after the last one
    ended and a day after it began."""
    last = Vacation.objects.filter(user_id=user_id, start__lte=now).order_by("-end").first()
    if last is None:
        return None
    earliest = max(last.end + REST_AFTER_END, last.start + STARTS_APART)
    return earliest if earliest > now else None


def vacation_status(user_id: int, *, now: datetime) -> dict[str, Any]:
    """What the settings page and the API show."""
    away = vacation_current(user_id, now=now)
    used = _used_in_year(user_id, now.year, now)
    following = None if away else vacation_next_start(user_id, now=now)
    return {
        "on_vacation": away is not None,
        "next_start": following.isoformat() if following else None,
        "start": away.start.isoformat() if away else None,
        "until": away.end.isoformat() if away else None,
        "year": now.year,
        "days_used": round(used.total_seconds() / clocks.DAY, 2),
        "days_left": round(max(ALLOWANCE - used, timedelta()).total_seconds() / clocks.DAY, 2),
        "allowance_days": ALLOWANCE.days,
    }


def vacation_until_parse(raw: object) -> datetime | None:
    """A vacation's end as a client sends it: absent, a date (``2026-12-03``:
    through that day, UTC) or an ISO date and time (without a zone: UTC)."""
    if raw in (None, ""):
        return None
    message = gettext_noop("Give the end as a date (YYYY-MM-DD) or an ISO date and time.")
    if not isinstance(raw, str) or len(raw) > 40:
        raise _bad("bad_until", message)
    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
        when = datetime.fromisoformat(raw)
    except (ValueError, OverflowError):  # not a date, or past the calendar's end
        raise _bad("bad_until", message) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _bad(code: str, message: str, **params: Any) -> GameError:
    return GameError(code, message, **params)


def _planned_end(user_id: int, until: datetime | None, now: datetime) -> datetime:
    """The vacation's end, checked against the past and each year's allowance."""
    left = ALLOWANCE - _used_in_year(user_id, now.year, now)
    if left <= timedelta():
        raise _bad(
            "over_allowance",
            gettext_noop("You have used all %(days)s vacation days of this year."),
            days=ALLOWANCE.days,
        )
    end = until or now + left
    if end <= now:
        raise _bad("end_in_past", gettext_noop("The vacation's end must lie in the future."))
    for year in range(now.year, end.year + 1):
        lo, hi = _year_bounds(year)
        wanted = min(end, hi) - max(now, lo)
        if _used_in_year(user_id, year, now) + wanted > ALLOWANCE:
            raise _bad(
                "over_allowance",
                gettext_noop(
                    "That is more than the %(days)s vacation days a year allows: "
                    "%(left)s days are left in %(year)s."
                ),
                days=ALLOWANCE.days,
                left=round((ALLOWANCE - _used_in_year(user_id, year, now)) / timedelta(days=1), 2),
                year=year,
            )
    return end


def vacation_start(*, user: User, until: datetime | None, now: datetime | None = None) -> Vacation:
    """Start a vacation now, until ``until`` (None: as long as the allowance lasts)."""
    now = now or timezone.now()
    with transaction.atomic():
        lock_user(user.pk)  # one at a time
        if vacation_current(user.pk, now=now) is not None:
            raise _bad("already_on_vacation", gettext_noop("You are already on vacation."))
        _refuse_too_soon(user.pk, now)
        end = _planned_end(user.pk, until, now)
        vacation = Vacation.objects.create(user=user, start=now, end=end)
        entry = {"username": user.username, "until": end.isoformat()}
        for game, seat in _correspondence_seats(user.pk):
            _mark(game, seat, entry, now)
    return vacation


def _refuse_too_soon(user_id: int, now: datetime) -> None:
    following = vacation_next_start(user_id, now=now)
    if following is not None:
        raise GameError(
            "vacation_too_soon",
            gettext_noop(
                "Your last vacation ended less than 12 hours ago (or began less than a day "
                "ago): you can start the next one at %(at)s."
            ),
            status=409,
            at=following.strftime("%Y-%m-%d %H:%M UTC"),
        )


def vacation_stop(*, user: User, now: datetime | None = None) -> Vacation:
    """End the current vacation now: the days not taken stay in the allowance."""
    now = now or timezone.now()
    with transaction.atomic():
        lock_user(user.pk)
        vacation = vacation_current(user.pk, now=now)
        if vacation is None:
            raise _bad("not_on_vacation", gettext_noop("You are not on vacation."))
        vacation.end = now
        vacation.save(update_fields=["end"])
        for game, seat in _correspondence_seats(user.pk):
            if str(seat) in (game.away or {}):
                _mark(game, seat, None, now)
    return vacation


def _correspondence_seats(user_id: int) -> list[tuple[Game, int]]:
    """The user's running correspondence games, locked, with the user's seat."""
    seats = dict(
        Seat.objects.filter(
            user_id=user_id,
            game__status=Game.Status.ACTIVE,
            game__clock__kind="correspondence",
        ).values_list("game_id", "index")
    )
    # Still running once locked: a game that ended while we waited for its
    # lock must not be marked (that would reopen its turns).
    games = (
        Game.objects.select_for_update()
        .filter(pk__in=list(seats), status=Game.Status.ACTIVE)
        .order_by("pk")
    )
    return [(game, seats[game.pk]) for game in games]


def _mark(game: Game, seat: int, entry: dict[str, Any] | None, now: datetime) -> Event:
    """Put ``seat`` away (``entry``) or back (None), as a versioned event that
    open pages receive; the clocks are charged up to ``now`` first."""
    rs = get_ruleset(game.ruleset)
    state = rs.decode(game.started_state)
    if not game.paused:
        clocks.charge(game, now)  # the time before the change counts as it ran
    away = dict(game.away or {})
    if entry is None:
        away.pop(str(seat), None)
        item = {"type": "vacation_end", "seat": seat}
    else:
        away[str(seat)] = entry
        item = {"type": "vacation", "seat": seat, "until": entry["until"]}
    game.away = away
    return append_event(
        game, rs, state, seat=seat, kind=Event.Kind.VACATION, events=[item], now=now
    )
