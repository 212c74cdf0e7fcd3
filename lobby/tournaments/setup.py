"""Creating a tournament: every field checked, per-user limits."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_noop

from games import clocks
from games.errors import GameError
from games.models import Game, Seat
from games.rules import RULESETS, InvalidOptions, get_ruleset
from games.services.guards import clean_seat_count, lock_user
from games.users import is_guest
from lobby.models import Tournament
from moderation.standing import refuse_if_suspended

from .common import locked_tournament, require_account, tell_lobby

MAX_SWISS_ROUNDS = 20
MAX_PAUSE_SECONDS = 7 * 86400
MAX_OPEN_PER_USER = 3  # open or running tournaments one player has created
MAX_DAYS_AHEAD = 60
MAX_ROUND_DAYS = 60
NO_TOURNAMENTS = {"hexenhalma"}  # Hexenhalma keeps its own campaigns


def tournament_create(
    *,
    creator: Any,
    name: Any,
    ruleset: Any,
    system: Any,
    seat_count: Any = None,
    rounds: Any = None,
    clock: Any = None,
    rated: Any = False,
    starts_at: Any = None,
    round_pause_seconds: Any = 0,
    options: Any = None,
    double: Any = False,
    min_rating: Any = None,
    min_games: Any = None,
    round_days: Any = None,
    featured: Any = False,
) -> Tournament:
    """A new open tournament; ``starts_at`` None: its creator starts it."""
    require_account(creator)
    refuse_if_suspended(creator)
    if is_guest(creator):
        raise GameError("guest", gettext_noop("Sign up to create tournaments."), status=403)
    fields = _clean_fields(
        name=name,
        ruleset=ruleset,
        system=system,
        seat_count=seat_count,
        rounds=rounds,
        clock=clock,
        rated=rated,
        starts_at=starts_at,
        round_pause_seconds=round_pause_seconds,
        options=options,
        double=double,
        min_rating=min_rating,
        min_games=min_games,
        round_days=round_days,
    )
    fields["featured"] = _featured(creator, featured)
    _refuse_without_games(creator)
    with transaction.atomic():
        lock_user(creator.pk)  # two creations at once count each other
        mine = Tournament.objects.filter(
            creator=creator, status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING]
        ).count()
        if mine >= MAX_OPEN_PER_USER:
            raise GameError(
                "too_many_tournaments",
                gettext_noop("You already run %(n)s tournaments; wait until one ends."),
                n=mine,
            )
        tournament = Tournament.objects.create(creator=creator, due=fields["starts_at"], **fields)
        tell_lobby(tournament)
    return tournament


def tournament_feature(*, tournament_id: Any, user: Any, featured: Any) -> Tournament:
    """Staff mark a tournament featured (listed first) or not."""
    require_account(user)
    value = _flag("featured", featured)
    _featured(user, True)  # staff only, whichever way
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        tournament.featured = value
        tournament.save(update_fields=["featured"])
        tell_lobby(tournament)
    return tournament


def _refuse_without_games(user: Any) -> None:
    """A setting may ask creators for some finished games first (default 0)."""
    needed = settings.TOURNAMENT_CREATOR_MIN_GAMES
    if needed <= 0:
        return
    played = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).count()
    if played < needed:
        raise GameError(
            "too_few_games",
            gettext_noop("Finish %(n)s games before you create a tournament."),
            n=needed,
        )


def _clean_fields(**raw: Any) -> dict[str, Any]:
    rs = _ruleset(raw["ruleset"])
    system = raw["system"]
    if system not in Tournament.System.values:
        raise GameError("bad_request", gettext_noop('"system" must be "swiss" or "round_robin".'))
    seats = clean_seat_count(rs, raw["seat_count"])
    if seats > 2 and system != Tournament.System.SWISS:
        raise GameError(
            "bad_request", gettext_noop("Tables of more than two seats are played as a Swiss.")
        )
    try:
        options = rs.validate_options(raw["options"] if raw["options"] is not None else {})
    except InvalidOptions as exc:
        raise GameError("bad_options", exc.template, **exc.params) from None
    return {
        "name": _name(raw["name"]),
        "ruleset": rs.slug,
        "system": system,
        "seat_count": seats,
        "rounds": _rounds(system, raw["rounds"]),
        "double": _flag("double", raw["double"]) and system == Tournament.System.ROUND_ROBIN,
        "clock": clocks.clean_clock(raw["clock"]),
        "rated": _flag("rated", raw["rated"]),
        "options": options,
        "starts_at": _starts_at(raw["starts_at"]),
        "round_pause_seconds": _whole(
            "round_pause_seconds", raw["round_pause_seconds"], 0, MAX_PAUSE_SECONDS
        ),
        "min_rating": _optional_whole("min_rating", raw["min_rating"], 0, 4000),
        "min_games": _optional_whole("min_games", raw["min_games"], 0, 10_000),
        "round_days": _round_days(raw["round_days"], clocks.clean_clock(raw["clock"])),
    }


def _round_days(value: Any, clock: dict[str, Any]) -> int | None:
    """Correspondence only, and long enough for one full move period."""
    days = _optional_whole("round_days", value, 1, MAX_ROUND_DAYS)
    if days is None:
        return None
    if clock.get("kind") != "correspondence":
        raise GameError(
            "bad_request", gettext_noop('"round_days" needs a correspondence time control.')
        )
    if days < clock["days"]:
        raise GameError(
            "bad_request",
            gettext_noop('"round_days" must be at least the days per move (%(n)s).'),
            n=clock["days"],
        )
    return days


def _featured(creator: Any, value: Any) -> bool:
    """Staff only: a featured tournament is listed first."""
    featured = _flag("featured", value)
    if featured and not creator.is_staff:
        raise GameError("forbidden", gettext_noop("Only staff feature tournaments."), status=403)
    return featured


def _ruleset(slug: Any) -> Any:
    if not isinstance(slug, str) or slug not in RULESETS or slug in NO_TOURNAMENTS:
        raise GameError(
            "bad_request",
            gettext_noop("There are no tournaments of this game: %(slug)s."),
            slug=str(slug)[:40],
        )
    return get_ruleset(slug)


def _name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 80:
        raise GameError(
            "bad_request", gettext_noop("Give the tournament a name of 1 to 80 characters.")
        )
    return name.strip()


def _rounds(system: str, rounds: Any) -> int:
    if system == Tournament.System.ROUND_ROBIN:
        return 0  # from the field at the start
    return _whole("rounds", rounds, 1, MAX_SWISS_ROUNDS)


def _whole(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise GameError(
            "bad_request",
            gettext_noop('"%(name)s" must be a whole number from %(lo)s to %(hi)s.'),
            name=name,
            lo=lo,
            hi=hi,
        )
    return value


def _optional_whole(name: str, value: Any, lo: int, hi: int) -> int | None:
    return None if value is None else _whole(name, value, lo, hi)


def _flag(name: str, value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise GameError("bad_request", gettext_noop('"%(name)s" must be true or false.'), name=name)
    return value


def _starts_at(value: Any) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed but no such time
        parsed = None
    if parsed is None or timezone.is_naive(parsed):
        raise GameError(
            "bad_request",
            gettext_noop('"starts_at" must be an ISO-8601 time with its offset, or null.'),
        )
    now = timezone.now()
    if not now < parsed <= now + timedelta(days=MAX_DAYS_AHEAD):
        raise GameError(
            "bad_request",
            gettext_noop('"starts_at" must lie in the next %(days)s days.'),
            days=MAX_DAYS_AHEAD,
        )
    return parsed
