"""Who has a game open: rows per socket, so several processes agree on counts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from ..models import Presence
from ..selectors.tables import watcher_count

REFRESH = timedelta(seconds=30)


def presence_join(*, game_id: int, channel_name: str, user: Any, seat: int | None) -> int:
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "game_id": game_id,
            "user": user if user is not None and user.is_authenticated else None,
            "seat": seat,
            "last_seen": timezone.now(),
        },
    )
    return watcher_count(game_id)


def presence_leave(*, channel_name: str, game_id: int) -> int:
    Presence.objects.filter(channel_name=channel_name).delete()
    return watcher_count(game_id)


def presence_touch(*, channel_name: str) -> None:
    """Refresh a socket's row now and then (a killed process leaves stale rows)."""
    now = timezone.now()
    Presence.objects.filter(channel_name=channel_name, last_seen__lt=now - REFRESH).update(
        last_seen=now
    )
