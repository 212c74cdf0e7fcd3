"""Remis requests (Brettspielnetz Halma): filed by the player to move, decided by an admin.

The player files instead of moving; the game pauses (both clocks stopped,
time already used stays used) until an admin approves (the game ends as
remis) or rejects with a reason (play resumes, the clocks where they stood).
The ruleset computes the evidence (``games.rules.base.RemisQueue``: which
positions count, the move numbers), the admin decides. The queue must not be a
way to stall (RULES.md §1): deadlock requests only once move 50 is complete
and at most two per player and game (``selectors.remis.remis_refusal``), a
game that ends closes its waiting request, realtime games come first in the queue.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from moderation import roles

from .. import publish
from ..errors import GameError
from ..models import (
    Event,
    Game,
    Notification,
    RemisRequest,
    Seat,
)
from ..reasons import REASON_APPROVED
from ..rules import IllegalAction, get_ruleset
from ..rules.base import Outcome, RemisQueue, implements
from ..selectors.remis import history, remis_refusal
from .internal import notifications
from .internal.events import append_event
from .internal.guards import locked_game, locked_seat, require_json_object

if TYPE_CHECKING:
    from accounts.models import User

    from ..users import Visitor


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
    game_id: int,
    user: Visitor,
    kind: str,
    action: dict[str, Any] | None = None,
    move_numbers: list[int] | None = None,
    reason: str = "",
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
        game, seat = locked_seat(game_id, user)
        rs = get_ruleset(game.ruleset)
        now = timezone.now()
        refusal = remis_refusal(game, rs, rs.decode(game.started_state), seat, kind, now)
        if refusal is not None:
            raise refusal
        assert implements(rs, RemisQueue)  # remis_refusal refused every other game
        states = history(game, rs)
        current_move = rs.move_number_after(len(states))
        evidence: Mapping[str, Any] = {}  # a repetition claim's RepetitionEvidence
        if kind == RemisRequest.Kind.REPETITION:
            numbers = _check_numbers(move_numbers, current_move)
            action = require_json_object(action)
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
                    requested_by=cast("User", user),  # locked_seat refused anonymous callers
                    kind=kind,
                    action=action,
                    move_numbers=numbers,
                    reason=reason,
                    evidence=evidence,
                    realtime=game.clock.get("kind") == "realtime",
                )
        except IntegrityError:
            raise _bad(
                "remis_pending", gettext_noop("A remis request is already waiting for an admin.")
            ) from None
        if kind == RemisRequest.Kind.DEADLOCK:
            game.deadlock_requests = _counted_deadlock(game, seat)
        game.remis_pending = {
            "id": request.pk,
            "seat": seat,
            "kind": kind,
            "move_numbers": numbers,
            "reason": reason,
        }
        append_event(
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
        publish.after_commit(partial(publish.publish_queue, request.pk))
    return request


def _counted_deadlock(game: Game, seat: int) -> list[int]:
    """The game's deadlock requests per seat, with one more for ``seat``."""
    counts = list(game.deadlock_requests or [])
    counts += [0] * (game.seat_count - len(counts))
    counts[seat] += 1
    return counts


def remis_decide(
    *, request_id: int, admin: Visitor, approve: bool, reason: str = ""
) -> RemisRequest:
    """Approve (the game ends as remis) or reject with a reason (play resumes)."""
    if not roles.is_arbiter(admin):
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
        locked = locked_game(game_id)
        game = locked.game
        request = RemisRequest.objects.select_for_update().filter(pk=request_id).first()
        if request is None:
            raise GameError(
                "not_found", gettext_noop("There is no such remis request."), status=404
            )
        if request.status != RemisRequest.Status.PENDING or game.is_over:
            raise _bad("already_decided", gettext_noop("This request has already been decided."))
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.started_state)
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
        result: Outcome | None = None
        if approve:
            result = {
                "winners": [],
                "draw": True,
                "reason": REASON_APPROVED[request.kind],
            }
        append_event(
            game,
            rs,
            state,
            holders=locked.holders,
            seat=None,
            kind=Event.Kind.REMIS if not approve else Event.Kind.END,
            events=[item],
            result=result,
            paused=False,
            now=now,
        )
        if not approve:  # an approval's notice is the game's end (its reason says remis)
            _tell_rejected(game, reason)
        publish.after_commit(partial(publish.publish_queue, request.pk))
    return request


def _tell_rejected(game: Game, reason: str) -> None:
    users = list(
        Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True)
    )
    notifications.notify(
        user_ids=users,
        kind=Notification.Kind.DECISION,
        game=game,
        params={"game": game.pk, "approved": False, "reason": reason},
    )


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
