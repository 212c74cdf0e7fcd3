"""Play-bans for leavers, as lichess's: aborting or letting the clock run out
in realtime games 3 times within 24 hours blocks new realtime tables and quick
play for 15 minutes, doubling with every ban of the last 7 days up to a day.

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

from games.models import Game, Seat

from .models import Offence, PlayBan


def realtime(game: Game) -> bool:
    return (game.clock or {}).get("kind") == "realtime"


def ban_minutes(earlier_bans: int) -> int:
    """15, 30, 60 ... minutes, at most a day."""
    first = settings.PLAYBAN_FIRST_MINUTES
    return int(min(first * 2 ** min(earlier_bans, 16), settings.PLAYBAN_MAX_MINUTES))


def record_offence(game: Game, seat: int, kind: str, now: datetime | None = None) -> PlayBan | None:
    """Count ``seat``'s player's offence; ban them if it is one too many."""
    now = now or timezone.now()
    user_id = (
        Seat.objects.filter(game=game, index=seat, user__is_bot=False)
        .values_list("user_id", flat=True)
        .first()
    )
    if user_id is None:
        return None
    quick = realtime(game)
    Offence.objects.create(
        user_id=user_id, game=game, kind=kind, correspondence=not quick, created=now
    )
    if not quick:
        return None
    return ban_if_due(user_id, kind, now)


def ban_if_due(user_id: int, kind: str, now: datetime) -> PlayBan | None:
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
    minutes = ban_minutes(earlier)
    return PlayBan.objects.create(
        user_id=user_id,
        minutes=minutes,
        reason=kind,
        created=now,
        until=now + timedelta(minutes=minutes),
    )
