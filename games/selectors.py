"""Reads: what a seat, a spectator or the lobby may see of a game."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from .clocks import clock_view
from .errors import GameError
from .models import Event, Game, Presence, RemisRequest, Seat
from .rules import Ruleset, get_ruleset
from .rules.base import RemisQueue, implements

PRESENCE_TTL = timedelta(seconds=90)
REMIS_KINDS = tuple(RemisRequest.Kind.values)


def seat_of(game: Game, user: Any) -> int | None:
    """The seat ``user`` holds in ``game`` (None: a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def seat_holders(game: Game) -> dict[int, int | None]:
    """Who holds each seat: read with the game's row lock on the move path
    (``store.lock_game``), otherwise from the seats."""
    holders = getattr(game, "seat_users", None)
    if holders is None:
        holders = dict(Seat.objects.filter(game_id=game.pk).values_list("index", "user_id"))
    return holders


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


# A player may file at most this many deadlock remis requests per game (RULES.md §1).
DEADLOCK_REQUESTS = 2


def remis_refusal(
    game: Game, rs: Ruleset, state: Any, seat: int, kind: str, now: datetime
) -> GameError | None:
    """Why ``seat`` may not file a ``kind`` remis request now; None if it may.

    The one rule for both the service that files and the page that offers the
    control (RULES.md §1: the queue must not be a way to stall). Reads only
    the game row: the snapshot is built on the event loop, without queries.
    """
    if not implements(rs, RemisQueue):
        return GameError(
            "not_supported", gettext_noop("This game has no remis requests; offer a draw instead.")
        )
    if game.paused or game.remis_pending:
        return GameError(
            "remis_pending", gettext_noop("A remis request is already waiting for an admin.")
        )
    if seat not in game.to_act:
        return GameError(
            "not_your_turn", gettext_noop("Only the player to move can request remis.")
        )
    if game.deadline is not None and game.deadline <= now:
        return GameError(
            "deadline_passed",
            gettext_noop("Time is up for this move; the server is applying the timeout."),
        )
    if kind == "deadlock":
        complete_first = rs.deadlock_claim_from(state)
        if complete_first is not None:
            return GameError(
                "remis_too_early",
                gettext_noop("A deadlock remis can be requested once move %(n)s is complete."),
                n=complete_first,
            )
        filed = (game.deadlock_requests or [])[seat : seat + 1]
        if filed and filed[0] >= DEADLOCK_REQUESTS:
            return GameError(
                "remis_limit",
                gettext_noop(
                    "You have already requested a deadlock remis %(n)s times in this game."
                ),
                n=DEADLOCK_REQUESTS,
            )
    return None


def remis_allowed(
    game: Game, rs: Ruleset, state: Any, seat: int | None, now: datetime
) -> list[str]:
    """The kinds of remis request ``seat`` may file now (the page shows the control)."""
    if seat is None or state is None or game.status != Game.Status.ACTIVE:
        return []
    if not implements(rs, RemisQueue):
        return []
    return [kind for kind in REMIS_KINDS if remis_refusal(game, rs, state, seat, kind, now) is None]


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
        "remis_allowed": remis_allowed(game, rs, state, seat, timezone.now()),
    }


def client_event(rs: Ruleset, event: Event, seat: int | None) -> dict[str, Any]:
    """One stored event as ``seat`` may see it (raw actions never leave)."""
    visible = []
    for item in event.events:
        shown = rs.view_event(item, seat)
        if shown is not None:
            visible.append(shown)
    # An event another seat may see nothing of (a Hexenhalma team writing its
    # secret orders) does not say whose it was: only that the version moved.
    actor = event.seat if visible or seat == event.seat or not event.events else None
    return {
        "version": event.version,
        "seat": actor,
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


def table_by_invite(code: Any) -> Game:
    """The table an invite link names, with its seats and host."""
    game = (
        Game.objects.select_related("host", "challenged")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .filter(invite_code=str(code)[:16])
        .first()
    )
    if game is None:
        raise GameError("not_found", gettext_noop("This invitation is not valid."), status=404)
    return game


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


def ping_state(game_id: int) -> dict[str, Any] | None:
    """What a pong tells: the version, and for a table still filling up its
    status and seats taken (joins and leaves move no version), so a page that
    missed a push catches up at its next ping."""
    return (
        Game.objects.filter(pk=game_id)
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .values("version", "status", "taken")
        .first()
    )
