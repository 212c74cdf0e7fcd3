"""Reads about remis requests (Brettspielnetz Halma): who may file one now,
which moves a claim can cite, and the admins' queue."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from ..errors import GameError, no_such_game
from ..models import Event, Game, RemisRequest
from ..rules import Ruleset, get_ruleset
from ..rules.base import RemisQueue, RepetitionCandidate, implements
from ..users import shown_name
from .seats import game_with_seats, seat_list, seat_of
from .walk import opening, position_of, walk

REMIS_KINDS = tuple(RemisRequest.Kind.values)


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


def history(game: Game, rs: Ruleset) -> list[Any]:
    """States after every ply, from the start (index = plies played)."""
    log = Event.objects.filter(game=game).order_by("version").values_list("kind", "seat", "action")
    states = [opening(rs, game)]
    position = position_of(game)
    for (kind, _seat, _action), state in walk(
        rs, game.options, game.seat_count, game.seed, log, position
    ):
        if kind in (Event.Kind.ACT, Event.Kind.TIMEOUT):
            states.append(state)
    return states


def repetition_candidates(game: Game, seat: int) -> list[RepetitionCandidate]:
    """Moves of ``seat`` that would produce a position for the third time
    (the ruleset says which positions count), with the move numbers to cite."""
    rs = get_ruleset(game.ruleset)
    if not implements(rs, RemisQueue):
        return []
    return rs.repetition_candidates(history(game, rs), seat)


def candidates_possible(game: Game) -> bool:
    """Whether a repetition claim can exist yet (cheap: no replay). Before the
    first position that counts, none can stand a third time."""
    rs = get_ruleset(game.ruleset)
    if not implements(rs, RemisQueue):
        return False
    plies = Event.objects.filter(game=game, kind__in=[Event.Kind.ACT, Event.Kind.TIMEOUT]).count()
    return rs.position_counts_after(plies)


def request_summary(request: RemisRequest) -> dict[str, Any]:
    now = timezone.now()
    return {
        "id": request.pk,
        "game": request.game_id,
        "seat": request.seat,
        "requested_by": shown_name(request.requested_by),
        "kind": request.kind,
        "move_numbers": request.move_numbers,
        "path": (request.action or {}).get("path"),
        "reason": request.reason,
        "evidence": request.evidence,
        "status": request.status,
        "realtime": request.game.clock.get("kind") == "realtime",
        "created": request.created.isoformat(),
        "waited": int(((request.decided or now) - request.created).total_seconds()),
        "decided_by": request.decided_by.username if request.decided_by else None,
        "decided": request.decided.isoformat() if request.decided else None,
        "decision_reason": request.decision_reason,
        "position": deadlock_position(request),
    }


def deadlock_position(request: RemisRequest) -> dict[str, Any] | None:
    """The position a waiting deadlock claim is about: the game's own, as the
    game pauses while the claim waits. Pieces per seat, as the board shows
    them; None for other requests, decided ones and boards without pieces."""
    if request.kind != RemisRequest.Kind.DEADLOCK or request.status != RemisRequest.Status.PENDING:
        return None
    game = request.game
    if game.state is None:
        return None
    rs = get_ruleset(game.ruleset)
    view = rs.view(rs.decode(game.started_state), None)
    pieces = view.get("pieces") if isinstance(view, dict) else None
    if not isinstance(pieces, list):
        return None
    return {"pieces": pieces}


# Counting stops here: the nav link and the queue's header say "1000+"
# rather than walking every waiting request (issue 31).
COUNT_CAP = 1000


def waiting_count() -> int:
    """How many remis requests wait for an admin (the staff's nav link), up to
    ``COUNT_CAP``: one bounded walk of the pending-only index."""
    pending = RemisRequest.objects.filter(status=RemisRequest.Status.PENDING)
    return pending.order_by()[:COUNT_CAP].count()


def _pending(older_than_hours: float) -> QuerySet[RemisRequest]:
    qs = RemisRequest.objects.filter(status=RemisRequest.Status.PENDING)
    if older_than_hours > 0:
        hours = min(older_than_hours, 10**6)  # timedelta overflows past ~2.7e9 days
        qs = qs.filter(created__lte=timezone.now() - timedelta(hours=hours))
    return qs


def _after(
    qs: QuerySet[RemisRequest], realtime: bool, mark: RemisRequest | None, limit: int
) -> list[Any]:
    """One group's requests (realtime or not) past ``mark``, oldest first:
    a seek on ``remis_queue_order``, however long the queue."""
    group = qs.filter(realtime=realtime)
    if mark is not None and mark.realtime == realtime:
        group = group.filter(created__gte=mark.created).exclude(
            created=mark.created, pk__lte=mark.pk
        )
    return list(group.order_by("created", "pk").values_list("pk", flat=True)[:limit])


def queue_page(
    *, page: int = 1, per_page: int = 25, older_than_hours: float = 0, after: int | None = None
) -> dict[str, Any]:
    """Pending requests, realtime games' first (their players sit waiting),
    then oldest first, ``per_page`` at a time: the page after request
    ``after`` (``next`` of the page before; none: the first page), read by
    keyset from an index; optionally only those waiting long. ``page`` is the
    client's own page number, shown back. ``total`` counts to ``COUNT_CAP``."""
    qs = _pending(older_than_hours)
    # Beyond the ids' range: no such row, the first page.
    known = after is not None and 0 < after < 2**63
    mark = RemisRequest.objects.filter(pk=after).first() if after is not None and known else None
    ids = [] if mark is not None and not mark.realtime else _after(qs, True, mark, per_page + 1)
    if len(ids) <= per_page:
        ids += _after(qs, False, mark, per_page + 1 - len(ids))
    more = len(ids) > per_page
    ids = ids[:per_page]
    rows = RemisRequest.objects.select_related("game", "requested_by", "decided_by").in_bulk(ids)
    total = qs.order_by()[:COUNT_CAP].count()
    return {
        "total": total,
        "total_capped": total >= COUNT_CAP,
        "page": min(max(page, 1), 10**9),
        "per_page": per_page,
        "next": ids[-1] if more else None,
        "items": [request_summary(rows[pk]) for pk in ids],
    }


def move_list(game: Game) -> list[dict[str, Any]]:
    """The moves as the admin needs them (Halma has no secrets)."""
    return [
        {"version": e.version, "seat": e.seat, "events": e.events}
        for e in Event.objects.filter(game=game, kind=Event.Kind.ACT).order_by("version")
    ]


def candidates_for(game_id: int, user: Any) -> list[dict[str, Any]]:
    """The repetition claims ``user`` could file now: none unless the same rule
    as the service's (``remis_allowed``) lets them file one. Found once per
    version and seat (finding them replays the game)."""
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        raise no_such_game() from None
    seat = seat_of(game, user)
    rs = get_ruleset(game.ruleset)
    state = rs.decode(game.state) if game.state is not None else None
    allowed = remis_allowed(game, rs, state, seat, timezone.now())
    if seat is None or RemisRequest.Kind.REPETITION not in allowed:
        return []
    if not candidates_possible(game):
        return []
    key = f"remis-candidates:{game.pk}:{game.version}:{seat}"
    found = cache.get(key)
    if found is None:
        found = repetition_candidates(game, seat)
        cache.set(key, found, 600)
    return found


def request_detail(request_id: int) -> dict[str, Any]:
    """One remis request as the admin decides it: with the seats and the
    moves; or the error saying there is no such request."""
    item = (
        RemisRequest.objects.select_related("game", "requested_by", "decided_by")
        .filter(pk=request_id)
        .first()
    )
    if item is None:
        raise GameError("not_found", gettext_noop("There is no such remis request."), status=404)
    return {
        **request_summary(item),
        "seats": seat_list(game_with_seats(item.game_id)),
        "moves": move_list(item.game),
    }
