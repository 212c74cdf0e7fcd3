"""Creating a tournament: every field checked, per-user limits."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_noop

from games import clocks
from games.errors import GameError
from games.models import Game, Seat
from games.rules import RULESETS, InvalidOptions, get_ruleset
from games.services.internal.guards import clean_seat_count, lock_user, refuse_rated_options
from games.users import is_guest, signed_in
from lobby.models import Tournament, TournamentPlayer
from lobby.selectors.clubs import club_or_404, is_staff_of
from moderation.standing import refuse_if_suspended

from .internal.common import locked_tournament, tell_lobby
from .internal.eligibility import refuse_entry, refuse_unfit_player
from .internal.standings import place_entrant

if TYPE_CHECKING:
    from accounts.models import User
    from games.rules.base import Ruleset
    from games.users import Visitor

MAX_SWISS_ROUNDS = 20
MAX_PAUSE_SECONDS = 7 * 86400
MAX_OPEN_PER_USER = 3  # open or running tournaments one player has created
MAX_DAYS_AHEAD = 60
MAX_ROUND_DAYS = 60
NO_TOURNAMENTS = {"hexenhalma"}  # Hexenhalma keeps its own campaigns


def tournament_create(
    *,
    creator: Visitor | None,
    name: object,
    ruleset: object,
    system: object,
    seat_count: object = None,
    rounds: object = None,
    clock: object = None,
    rated: object = False,
    starts_at: object = None,
    round_pause_seconds: object = 0,
    options: object = None,
    double: object = False,
    min_rating: object = None,
    min_games: object = None,
    round_days: object = None,
    featured: object = False,
    play: object = False,
    club: object = None,
) -> Tournament:
    """A new open tournament; ``starts_at`` None: its creator starts it. Every
    field is what a client sent, checked here. ``play``: the creator is entered
    as its first player, refused as a joiner would be (the API and the page
    send true unless the creator only organises; callers in the code say so).
    ``club``: a club-only tournament of that club, created by its owner or an
    admin (else 403 ``club_only``); only its members join."""
    account = signed_in(creator)
    refuse_if_suspended(account)
    if is_guest(account):
        raise GameError("guest", gettext_noop("Sign up to create tournaments."), status=403)
    plays = _flag("play", play)
    if plays:
        refuse_unfit_player(account)
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
    fields["featured"] = _featured(account, featured)
    fields["club_id"] = _club(account, club)
    _refuse_without_games(account)
    with transaction.atomic():
        lock_user(account.pk)  # two creations at once count each other
        mine = Tournament.objects.filter(
            creator=account, status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING]
        ).count()
        if mine >= MAX_OPEN_PER_USER:
            raise GameError(
                "too_many_tournaments",
                gettext_noop("You already run %(n)s tournaments; wait until one ends."),
                n=mine,
            )
        tournament = Tournament.objects.create(creator=account, due=fields["starts_at"], **fields)
        if plays:  # a refusal rolls the tournament back: nothing is left half made
            refuse_entry(tournament, account)
            TournamentPlayer.objects.create(tournament=tournament, user=account)
            place_entrant(tournament, account.pk)
        tell_lobby(tournament)
    return tournament


def tournament_feature(
    *, tournament_id: object, user: Visitor | None, featured: object
) -> Tournament:
    """Staff mark a tournament featured (listed first) or not."""
    account = signed_in(user)
    value = _flag("featured", featured)
    _featured(account, True)  # staff only, whichever way
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        tournament.featured = value
        tournament.save(update_fields=["featured"])
        tell_lobby(tournament)
    return tournament


def _club(creator: User, value: object) -> int | None:
    if value is None:
        return None
    found = club_or_404(value)
    if not is_staff_of(found.pk, creator.pk):
        raise GameError(
            "club_only",
            gettext_noop("Only the club's owner and admins create its tournaments."),
            status=403,
        )
    return found.pk


def _refuse_without_games(user: User) -> None:
    """A setting may ask creators for some finished games first (default 0)."""
    needed = settings.TOURNAMENT_CREATOR_MIN_GAMES
    if needed <= 0:
        return
    played = Seat.objects.filter(
        user=user, game__status=Game.Status.FINISHED, game__one_screen__isnull=True
    ).count()
    if played < needed:
        raise GameError(
            "too_few_games",
            gettext_noop("Finish %(n)s games before you create a tournament."),
            n=needed,
        )


def _clean_fields(**raw: object) -> dict[str, Any]:
    rs = _ruleset(raw["ruleset"])
    system = raw["system"]
    if not isinstance(system, str) or system not in Tournament.System.values:
        raise GameError("bad_request", gettext_noop('"system" must be "swiss" or "round_robin".'))
    seats = clean_seat_count(rs, raw["seat_count"])
    if seats > 2 and system != Tournament.System.SWISS:
        raise GameError(
            "bad_request", gettext_noop("Tables of more than two seats are played as a Swiss.")
        )
    return {
        "name": _name(raw["name"]),
        "ruleset": rs.slug,
        "system": system,
        "seat_count": seats,
        "rounds": _rounds(system, raw["rounds"]),
        "double": _flag("double", raw["double"]) and system == Tournament.System.ROUND_ROBIN,
        "clock": clocks.clean_clock(raw["clock"]),
        "rated": _flag("rated", raw["rated"]),
        "options": _options(rs, raw["options"], rated=_flag("rated", raw["rated"])),
        "starts_at": _starts_at(raw["starts_at"]),
        "round_pause_seconds": _whole(
            "round_pause_seconds", raw["round_pause_seconds"], 0, MAX_PAUSE_SECONDS
        ),
        "min_rating": _optional_whole("min_rating", raw["min_rating"], 0, 4000),
        "min_games": _optional_whole("min_games", raw["min_games"], 0, 10_000),
        "round_days": _round_days(raw["round_days"], clocks.clean_clock(raw["clock"])),
    }


def _options(rs: Ruleset, options: object, *, rated: bool) -> dict[str, Any]:
    """The games' options, checked by their ruleset (None: its defaults); a
    rated tournament's games play the ruleset's ``rated_options``."""
    try:
        if options is None:
            return rs.validate_options({})
        if not isinstance(options, dict):
            raise InvalidOptions(gettext_noop("Options must be a JSON object."))
        clean = rs.validate_options(options)
    except InvalidOptions as exc:
        raise GameError("bad_options", exc.template, **exc.params) from None
    if rated:
        refuse_rated_options(rs, clean)
    return clean


def _round_days(value: object, clock: dict[str, Any]) -> int | None:
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


def _featured(creator: User, value: object) -> bool:
    """Staff only: a featured tournament is listed first."""
    featured = _flag("featured", value)
    if featured and not creator.is_staff:
        raise GameError("forbidden", gettext_noop("Only staff feature tournaments."), status=403)
    return featured


def _ruleset(slug: object) -> Ruleset:
    if not isinstance(slug, str) or slug not in RULESETS or slug in NO_TOURNAMENTS:
        raise GameError(
            "bad_request",
            gettext_noop("There are no tournaments of this game: %(slug)s."),
            slug=str(slug)[:40],
        )
    return get_ruleset(slug)


def _name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 80:
        raise GameError(
            "bad_request", gettext_noop("Give the tournament a name of 1 to 80 characters.")
        )
    return name.strip()


def _rounds(system: str, rounds: object) -> int:
    if system == Tournament.System.ROUND_ROBIN:
        return 0  # from the field at the start
    return _whole("rounds", rounds, 1, MAX_SWISS_ROUNDS)


def _whole(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise GameError(
            "bad_request",
            gettext_noop('"%(name)s" must be a whole number from %(lo)s to %(hi)s.'),
            name=name,
            lo=lo,
            hi=hi,
        )
    return value


def _optional_whole(name: str, value: object, lo: int, hi: int) -> int | None:
    return None if value is None else _whole(name, value, lo, hi)


def _flag(name: str, value: object) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise GameError("bad_request", gettext_noop('"%(name)s" must be true or false.'), name=name)
    return value


def _starts_at(value: object) -> datetime | None:
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
