"""What an account's event stream (games/realtime/stream_events.py) says
when it opens: the challenges waiting for the account and its running games.
One read each, bounded; after that the stream only relays pushes."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from ..models import Game, Seat
from .tables import table_summary

# Enough for any account: open tables are capped per host, and nobody plays more at once.
AT_MOST = 100


def waiting_challenges(user: Any) -> list[dict[str, Any]]:
    """Open tables that challenge ``user``, oldest first."""
    with_seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    rows = (
        Game.objects.filter(status=Game.Status.OPEN, challenged=user)
        .select_related("host", "challenged")
        .prefetch_related(with_seats)
        .order_by("created")[:AT_MOST]
    )
    return [table_summary(game) for game in rows]


def running_games(user: Any) -> list[dict[str, Any]]:
    """``user``'s running games and seats, oldest first."""
    rows = (
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE)
        .order_by("game__started", "game_id")
        .values_list("game_id", "game__ruleset", "index")[:AT_MOST]
    )
    return [{"id": game, "ruleset": ruleset, "seat": seat} for game, ruleset, seat in rows]


def account_start(user: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return waiting_challenges(user), running_games(user)
