"""Play-bans for leavers, as lichess's: aborting, leaving or letting the clock
run out in realtime games 3 times within 24 hours blocks new realtime tables and
quick play for 15 minutes, doubling with every ban of the last 7 days up to a day.

What counts, as lichess counts it: an abort once an opponent has moved (before
that nobody was kept waiting), a resignation that leaves the others playing
(into a handover or the rules' leave) or that gives up before one's third
move, and a clock run out. Only against another person: a bot keeps no one
waiting.

Offences are recorded in the transaction that ends or aborts the game, so
a rolled-back ending counts nothing. Correspondence time-outs are recorded
apart (``correspondence``): they lower the completion rate but never ban,
as a day's absence is no leaver's trick. Only play-bans are automatic; every
other sanction is a moderator's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Event, Game, Seat

from ..models import Offence, PlayBan


def _realtime(game: Game) -> bool:
    return (game.clock or {}).get("kind") == "realtime"


def _ban_minutes(earlier_bans: int) -> int:
    """15, 30, 60 ... minutes, at most a day."""
    first = settings.PLAYBAN_FIRST_MINUTES
    return int(min(first * 2 ** min(earlier_bans, 16), settings.PLAYBAN_MAX_MINUTES))


def _own_moves(game: Game, seat: int, at_most: int) -> int:
    """How many actions ``seat`` made, counted up to ``at_most`` (a bounded read)."""
    acts = Event.objects.filter(game=game, seat=seat, kind=Event.Kind.ACT)
    return len(acts.values_list("pk", flat=True)[:at_most])


def _opponent_moved(game: Game, seat: int) -> bool:
    return (
        Event.objects.filter(game=game, kind=Event.Kind.ACT, seat__isnull=False)
        .exclude(seat=seat)
        .exists()
    )


def aborted(game: Game, seat: int) -> PlayBan | None:
    """An abort counts once an opponent has moved (the table was in play)."""
    if not _opponent_moved(game, seat):
        return None
    return record_offence(game, seat, Offence.Kind.ABORT)


def resigned(game: Game, seat: int, now: datetime) -> PlayBan | None:
    """Call after the resignation is applied: it counts when the game goes on
    without the seat (a handover offer or the rules' leave) or came before the
    seat's ``PLAYBAN_EARLY_MOVES``-th move."""
    early = settings.PLAYBAN_EARLY_MOVES
    if game.status != Game.Status.ACTIVE and _own_moves(game, seat, early) >= early:
        return None
    return record_offence(game, seat, Offence.Kind.LEAVE, now)


def record_offence(game: Game, seat: int, kind: str, now: datetime | None = None) -> PlayBan | None:
    """Count ``seat``'s player's offence; ban them if it is one too many."""
    now = now or timezone.now()
    people = dict(
        Seat.objects.filter(game=game, user__is_bot=False).values_list("index", "user_id")
    )
    user_id = people.pop(seat, None)
    if user_id is None or not people:  # a bot's seat, or no other person at the table
        return None
    quick = _realtime(game)
    Offence.objects.create(
        user_id=user_id, game=game, kind=kind, correspondence=not quick, created=now
    )
    if not quick:
        return None
    return _ban_if_due(user_id, kind, now)


def _ban_if_due(user_id: int, kind: str, now: datetime) -> PlayBan | None:
    count, hours = settings.PLAYBAN_OFFENCES
    last_ban = PlayBan.objects.filter(user_id=user_id).order_by("-created").first()
    since = now - timedelta(hours=hours)
    if last_ban is not None and last_ban.created > since:
        since = last_ban.created  # offences a ban already paid for count no more
    recent = Offence.objects.filter(
        user_id=user_id, correspondence=False, created__gt=since, created__lte=now
    ).count()
    if recent < count:
        return None
    earlier = PlayBan.objects.filter(
        user_id=user_id, created__gt=now - timedelta(days=settings.PLAYBAN_MEMORY_DAYS)
    ).count()
    minutes = _ban_minutes(earlier)
    return PlayBan.objects.create(
        user_id=user_id,
        minutes=minutes,
        reason=kind,
        created=now,
        until=now + timedelta(minutes=minutes),
    )
