"""Remis requests (Brettspielnetz Halma): filed by the player to move, decided by an admin.

The player files instead of moving; the game pauses (both clocks stopped,
time already used stays used) until an admin approves (the game ends as
remis) or rejects with a reason (play resumes, the clocks where they stood).
The ruleset computes the evidence (``games.rules.base.RemisQueue``: which
positions count, the move numbers), the admin decides. The queue must not be a
way to stall (RULES.md §1): deadlock requests only once move 50 is complete
and at most two per player and game (``selectors.remis_refusal``), a game
that ends closes its waiting request, realtime games come first in the queue.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext_noop

from . import broadcast, notifications
from .errors import GameError
from .models import Event, Game, Notification, RemisRequest, Seat
from .replay import walk
from .rules import IllegalAction, Ruleset, get_ruleset
from .rules.base import RemisQueue, implements
from .selectors import remis_refusal
from .services import (
    _append_event,
    _locked_game,
    _require_active,
    _require_json_object,
    _require_seat,
)

REASON_APPROVED = {
    "repetition": gettext_noop("Remis by repetition, approved by an admin."),
    "deadlock": gettext_noop("Remis: neither side could win, approved by an admin."),
}
QUEUE_GROUP = "remis-queue"


# --- positions -----------------------------------------------------------------


def history(game: Game, rs: Ruleset) -> list[Any]:
    """States after every ply, from the start (index = plies played)."""
    log = Event.objects.filter(game=game).order_by("version").values_list("kind", "seat", "action")
    states = [rs.setup(game.options, game.seat_count, game.seed)]
    for (kind, _seat, _action), state in walk(rs, game.options, game.seat_count, game.seed, log):
        if kind in (Event.Kind.ACT, Event.Kind.TIMEOUT):
            states.append(state)
    return states


def repetition_candidates(game: Game, seat: int) -> list[dict[str, Any]]:
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


# --- filing --------------------------------------------------------------------


def _bad(code: str, message: str, **params: Any) -> GameError:
    return GameError(code, message, **params)


def _check_numbers(numbers: Any, current_move: int) -> list[int]:
    if (
        not isinstance(numbers, list)
        or len(numbers) != 3
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
    ):
        raise _bad("bad_request", gettext_noop("Name exactly three move numbers."))
    if numbers != sorted(set(numbers)) or numbers[0] < 1:
        raise _bad(
            "bad_move_numbers",
            gettext_noop("The move numbers must be three different moves in order."),
        )
    if numbers[-1] != current_move:
        raise _bad(
            "bad_move_numbers",
            gettext_noop("The last move number must be the move you are about to play (%(n)s)."),
            n=current_move,
        )
    return numbers


def _deadlock_reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 1000:
        raise _bad(
            "bad_request",
            gettext_noop("Say in a few words why neither side can win (at most 1000 characters)."),
        )
    return reason.strip()


def remis_request(
    *,
    game_id: Any,
    user: Any,
    kind: Any,
    action: Any = None,
    move_numbers: Any = None,
    reason: Any = "",
) -> RemisRequest:
    """File a request instead of moving; the game pauses until an admin decides."""
    if kind not in RemisRequest.Kind.values:
        raise _bad("bad_request", gettext_noop("A remis request is for repetition or deadlock."))
    # Malformed input is refused before any state is looked at.
    if kind == RemisRequest.Kind.DEADLOCK:
        reason = _deadlock_reason(reason)
    elif not isinstance(action, dict):
        raise _bad("bad_request", gettext_noop("Name the move that would repeat the position."))
    with transaction.atomic():
        game = _locked_game(game_id, user)
        seat = _require_seat(game, user)
        _require_active(game)
        rs = get_ruleset(game.ruleset)
        now = timezone.now()
        refusal = remis_refusal(game, rs, rs.decode(game.state), seat, kind, now)
        if refusal is not None:
            raise refusal
        states = history(game, rs)
        current_move = rs.move_number_after(len(states))
        evidence: dict[str, Any] = {}
        if kind == RemisRequest.Kind.REPETITION:
            numbers = _check_numbers(move_numbers, current_move)
            _require_json_object(action)
            try:
                after, _ = rs.apply(states[-1], seat, action)
            except IllegalAction as exc:
                raise GameError("illegal", exc.template, **exc.params) from None
            evidence = rs.repetition_evidence(states, seat, after, numbers)
            if not evidence["identical"]:
                wrong = next(p["move"] for p in evidence["positions"] if not p["identical"])
                raise _bad(
                    "bad_move_numbers",
                    gettext_noop(
                        "After move %(n)s the position was a different one; check the move numbers."
                    ),
                    n=wrong,
                )
            reason = ""
        else:
            numbers, action = [], None
        try:
            with transaction.atomic():
                request = RemisRequest.objects.create(
                    game=game,
                    seat=seat,
                    requested_by=user,
                    kind=kind,
                    action=action,
                    move_numbers=numbers,
                    reason=reason,
                    evidence=evidence,
                )
        except IntegrityError:
            raise _bad(
                "remis_pending", gettext_noop("A remis request is already waiting for an admin.")
            ) from None
        if kind == RemisRequest.Kind.DEADLOCK:
            game.deadlock_requests = counted_deadlock(game, seat)
        game.remis_pending = {
            "id": request.pk,
            "seat": seat,
            "kind": kind,
            "move_numbers": numbers,
            "reason": reason,
        }
        _append_event(
            game,
            rs,
            states[-1],
            seat=seat,
            kind=Event.Kind.REMIS,
            paused=True,
            now=now,
            events=[
                {
                    "type": "remis_requested",
                    "seat": seat,
                    "kind": kind,
                    "move_numbers": numbers,
                    "path": action.get("path") if action else None,
                    "reason": reason,
                }
            ],
        )
        broadcast.after_commit(partial(publish_queue, request.pk))
    return request


def counted_deadlock(game: Game, seat: int) -> list[int]:
    """The game's deadlock requests per seat, with one more for ``seat``."""
    counts = list(game.deadlock_requests or [])
    counts += [0] * (game.seat_count - len(counts))
    counts[seat] += 1
    return counts


# --- deciding ------------------------------------------------------------------


def remis_decide(*, request_id: Any, admin: Any, approve: Any, reason: Any = "") -> RemisRequest:
    """Approve (the game ends as remis) or reject with a reason (play resumes)."""
    if admin is None or not admin.is_authenticated or not admin.is_staff:
        raise GameError("forbidden", gettext_noop("Only admins decide remis requests."), status=403)
    if not isinstance(approve, bool):
        raise _bad("bad_request", gettext_noop("Say whether you approve or reject."))
    reason = reason.strip() if isinstance(reason, str) else ""
    if not approve and not reason:
        raise _bad("reason_required", gettext_noop("A rejection needs a reason for the players."))
    request_id, game_id = _request_and_game(request_id)
    with transaction.atomic():
        # The game row first, then the request: the order every game-ending
        # service takes too (it closes the waiting request), so none deadlocks.
        game = _locked_game(game_id)
        request = RemisRequest.objects.select_for_update().filter(pk=request_id).first()
        if request is None:
            raise GameError(
                "not_found", gettext_noop("There is no such remis request."), status=404
            )
        if request.status != RemisRequest.Status.PENDING or game.is_over:
            raise _bad("already_decided", gettext_noop("This request has already been decided."))
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state)
        now = timezone.now()
        request.status = RemisRequest.Status.APPROVED if approve else RemisRequest.Status.REJECTED
        request.decided_by, request.decided, request.decision_reason = admin, now, reason
        request.save()
        game.remis_pending = None
        item = {
            "type": "remis_approved" if approve else "remis_rejected",
            "seat": request.seat,
            "reason": reason,
        }
        result = None
        if approve:
            result = {
                "winners": [],
                "draw": True,
                "reason": REASON_APPROVED[request.kind],
            }
        _append_event(
            game,
            rs,
            state,
            seat=None,
            kind=Event.Kind.REMIS if not approve else Event.Kind.END,
            events=[item],
            result=result,
            paused=False,
            now=now,
        )
        users = list(
            Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True)
        )
        notifications.notify(
            user_ids=users,
            kind=Notification.Kind.DECISION,
            game=game,
            params={"game": game.pk, "approved": approve, "reason": reason},
        )
        broadcast.after_commit(partial(publish_queue, request.pk))
    return request


def _request_and_game(request_id: Any) -> tuple[int, int]:
    """A request's id and its game's, or the error saying there is no such request."""
    try:
        pk = int(request_id)
    except (TypeError, ValueError):
        pk = 0
    game_id = None
    if 0 < pk < 2**63:
        game_id = RemisRequest.objects.filter(pk=pk).values_list("game_id", flat=True).first()
    if game_id is None:
        raise GameError("not_found", gettext_noop("There is no such remis request."), status=404)
    return pk, game_id


def publish_queue(request_id: int) -> None:
    """Tell the admins' queue pages that a request was filed, decided or closed."""
    request = RemisRequest.objects.select_related("game", "requested_by", "decided_by").get(
        pk=request_id
    )
    broadcast._send(QUEUE_GROUP, {"type": "remis.changed", "request": request_summary(request)})


# --- the queue -----------------------------------------------------------------


def request_summary(request: RemisRequest) -> dict[str, Any]:
    now = timezone.now()
    return {
        "id": request.pk,
        "game": request.game_id,
        "seat": request.seat,
        "requested_by": request.requested_by.username,
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
    }


def queue_page(*, page: int = 1, per_page: int = 25, older_than_hours: float = 0) -> dict[str, Any]:
    """Pending requests, realtime games' first (their players sit waiting),
    then oldest first; paged; optionally only those waiting long."""
    qs = RemisRequest.objects.filter(status=RemisRequest.Status.PENDING).select_related(
        "game", "requested_by", "decided_by"
    )
    if older_than_hours > 0:
        hours = min(older_than_hours, 10**6)  # timedelta overflows past ~2.7e9 days
        qs = qs.filter(created__lte=timezone.now() - timedelta(hours=hours))
    total = qs.count()
    page = min(max(page, 1), 10**9)  # a huge page overflows the SQL OFFSET
    realtime_first = Case(When(game__clock__kind="realtime", then=Value(0)), default=Value(1))
    rows = qs.order_by(realtime_first, "created", "pk")[(page - 1) * per_page : page * per_page]
    return {
        "total": total,
        "page": page,
        "per_page": per_page,
        "items": [request_summary(r) for r in rows],
    }


def move_list(game: Game) -> list[dict[str, Any]]:
    """The moves as the admin needs them (Halma has no secrets)."""
    return [
        {"version": e.version, "seat": e.seat, "events": e.events}
        for e in Event.objects.filter(game=game, kind=Event.Kind.ACT).order_by("version")
    ]
