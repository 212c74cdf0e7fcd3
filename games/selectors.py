"""Reads: what a seat, a spectator or the lobby may see of a game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext

from .clocks import clock_view
from .models import Event, Game, Presence, Seat
from .rules import Ruleset, get_ruleset

PRESENCE_TTL = timedelta(seconds=90)


def seat_of(game: Game, user: Any) -> int | None:
    """The seat ``user`` holds in ``game`` (None: a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def seat_list(game: Game) -> list[dict[str, Any]]:
    rs = get_ruleset(game.ruleset)
    names = rs.seat_names(game.seat_count)
    return [
        {
            "index": seat.index,
            "name": gettext(names[seat.index])
            if seat.index < len(names)
            else gettext("Seat %(n)s") % {"n": seat.index + 1},
            "user": seat.user.username if seat.user_id else None,
        }
        for seat in game.seats.all()
    ]


def result_text(result: Any) -> str:
    """A game's result in the reader's language; never raises, whatever is stored."""
    if not isinstance(result, dict):
        return ""
    reason, params = result.get("reason"), result.get("reason_params")
    if not isinstance(reason, str) or not reason:
        return ""
    text = gettext(reason)
    if not isinstance(params, dict) or not params:
        return text
    try:
        return text % params
    except (KeyError, TypeError, ValueError):  # a template its params do not fit
        return text


def snapshot(
    game: Game, rs: Ruleset, state: Any, seat: int | None, clock: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The uniform game state for one seat: one shape for every ruleset."""
    active = game.status == Game.Status.ACTIVE and state is not None
    to_act = list(game.to_act) if active else []
    legal = rs.legal_actions(state, seat) if active and seat in to_act and not game.paused else None
    return {
        "version": game.version,
        "status": game.status,
        "to_act": to_act,
        "result": game.result,
        "result_text": result_text(game.result),
        "view": rs.view(state, seat) if state is not None else None,
        "legal": legal or [],
        "clock": clock if clock is not None else clock_view(game, timezone.now()),
        "draw_offers": list(game.draw_offers),
        "left": list(game.left_seats),
        "paused": game.paused,
        "remis": game.remis_pending,
    }


def client_event(rs: Ruleset, event: Event, seat: int | None) -> dict[str, Any]:
    """One stored event as ``seat`` may see it (raw actions never leave)."""
    visible = []
    for item in event.events:
        shown = rs.view_event(item, seat)
        if shown is not None:
            visible.append(shown)
    return {
        "version": event.version,
        "seat": event.seat,
        "kind": event.kind,
        "events": visible,
        "time": event.created.isoformat(),
    }


def events_since(game: Game, version: int, seat: int | None) -> list[dict[str, Any]]:
    """Events after ``version`` up to the state read in ``game``: never ahead of
    it, even when a move commits between the two reads (a client taking the
    events would otherwise hold a state older than its version)."""
    rs = get_ruleset(game.ruleset)
    rows = Event.objects.filter(
        game=game, version__gt=max(version, 0), version__lte=game.version
    ).order_by("version")
    return [client_event(rs, row, seat) for row in rows]


def game_with_seats(game_id: int) -> Game:
    return (
        Game.objects.select_related("host")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .get(pk=game_id)
    )


def watcher_count(game_id: int) -> int:
    cutoff = timezone.now() - PRESENCE_TTL
    return Presence.objects.filter(
        game_id=game_id, seat__isnull=True, last_seen__gte=cutoff
    ).count()


def table_summary(game: Game) -> dict[str, Any]:
    """What the lobby lists about a table or a live game."""
    rs = get_ruleset(game.ruleset)
    seats = list(game.seats.all())
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "title": gettext(rs.title),
        "options": game.options,
        "status": game.status,
        "seat_count": game.seat_count,
        "seats": [s.user.username if s.user_id else None for s in seats],
        "taken": sum(1 for s in seats if s.user_id),
        "host": game.host.username,
        "challenged": game.challenged.username if game.challenged_id else None,
        "quickplay": game.is_quickplay,
        "auto_start": game.auto_start,
        "clock": game.clock,
        "created": game.created.isoformat(),
        "started": game.started.isoformat() if game.started else None,
        "version": game.version,
    }


def lobby_tables() -> list[dict[str, Any]]:
    games = (
        Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .select_related("host", "challenged")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created")[:200]
    )
    return [table_summary(g) for g in games]


def chat_history(game_id: int) -> list[dict[str, Any]]:
    from .chat import chat_history as history

    return history(game_id)


def hello_frame(game_id: int, user: Any, since: int = 0) -> dict[str, Any] | None:
    """Everything a freshly connected page needs; None if the game does not exist."""
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        return None
    rs = get_ruleset(game.ruleset)
    seat = seat_of(game, user)
    state = rs.decode(game.state) if game.state is not None else None
    return {
        "type": "hello",
        "game": game.pk,
        "ruleset": game.ruleset,
        "seat": seat,
        "seats": seat_list(game),
        "table": table_summary(game),
        "state": snapshot(game, rs, state, seat),
        "chat": chat_history(game.pk),
        "since": since if 0 <= since <= game.version else 0,
        "events": events_since(game, since if 0 <= since <= game.version else 0, seat),
    }


def sync_frame(game_id: int, user: Any, version: int) -> tuple[dict[str, Any], int | None]:
    """Events after ``version`` and the current state; also the caller's seat."""
    game = game_with_seats(game_id)
    rs = get_ruleset(game.ruleset)
    seat = seat_of(game, user)
    state = rs.decode(game.state) if game.state is not None else None
    if version > game.version:
        version = 0
    frame = {
        "type": "sync",
        "game": game.pk,
        "version": game.version,
        "seat": seat,
        "seats": seat_list(game),
        "table": table_summary(game),
        "events": events_since(game, version, seat),
        "state": snapshot(game, rs, state, seat),
    }
    return frame, seat


def current_version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
