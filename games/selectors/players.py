"""Reads about one player: the games they sit in."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from ..models import Game, Seat


def games_of(user: Any, limit: int = 200) -> list[Game]:
    """The newest games ``user`` holds a seat in, aborted ones left out."""
    return list(
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.ABORTED)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created")[:limit]
    )
