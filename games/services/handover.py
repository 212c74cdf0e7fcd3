"""The players' answers to a seat offered to a bot, and the leave when nobody answers.

Each remaining player agrees with one call (``game_handover_agree``); with the
last agreement a bot plays the seat from the next move on. A player declining
(``game_handover_decline``), or nobody deciding before the offer's limit
(``handover_offers_expire``, run by the sweeper), withdraws the offer of a seat still in
play, or applies the leave the rules give to a seat that left (RULES.md: a
Malefiz leaver's pieces go, its turns are skipped) and play resumes. The
offer itself, and what a bot taking over changes: seat_offers.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from ..models import Event, Game
from ..rules import get_ruleset
from .internal import seat_offers
from .internal.guards import conflicts_are_stale, locked_seat
from .internal.leaving import leave_or_end

if TYPE_CHECKING:
    from ..users import Visitor

BATCH = 50  # games a sweep expires offers in; the next sweep takes the rest


def _apply_leave(game: Game, seat: int, item: dict[str, Any], now: datetime) -> Event:
    """Close the leave offer of ``seat`` (``item`` says how) and apply the leave."""
    leave = game.handovers[str(seat)]["leave"]
    game.handovers = {k: v for k, v in game.handovers.items() if k != str(seat)}
    return leave_or_end(
        game,
        get_ruleset(game.ruleset),
        seat,
        reason=leave["reason"],
        event_type=leave["event"],
        now=now,
        offer=False,
        before=[item],
        paused=seat_offers.still_paused(game),
    )


def _vote(game_id: int, user: Visitor, seat: object) -> tuple[Game, int, int, dict[str, Any]]:
    """The locked game, the voter's seat, the seat offered and its open offer:
    each other player votes once, never on their own seat."""
    target = seat_offers.parse_seat(seat)
    game, voter = locked_seat(game_id, user)
    offer = seat_offers.open_offer_of(game, target)
    if voter == target or voter in offer["votes"]:
        raise seat_offers.not_needed(game)
    return game, voter, target, offer


@conflicts_are_stale
def game_handover_agree(*, game_id: int, user: Visitor, seat: object) -> int:
    """One player agrees to let a bot play ``seat``; returns the new version."""
    with transaction.atomic():
        game, voter, target, offer = _vote(game_id, user, seat)
        votes = sorted({*offer["votes"], voter})
        item: dict[str, Any] = {"type": "handover_agreed", "seat": target, "votes": votes}
        game.handovers = {**game.handovers, str(target): {**offer, "votes": votes}}
        paused = None
        if set(seat_offers.voters(game, target)) <= set(votes):
            item = seat_offers.take_over(game, target)
            if "leave" in offer:
                paused = seat_offers.still_paused(game)
        rs = get_ruleset(game.ruleset)
        return seat_offers.handover_event(game, rs, voter, [item], timezone.now(), paused).version


@conflicts_are_stale
def game_handover_decline(*, game_id: int, user: Visitor, seat: object) -> int:
    """One remaining player declines: the leaver's seat leaves as the rules say."""
    with transaction.atomic():
        game, voter, target, offer = _vote(game_id, user, seat)
        item = {"type": "handover_declined", "seat": target, "by": voter}
        if "leave" not in offer:  # a seat still in play: the offer is withdrawn
            game.handovers = {k: v for k, v in game.handovers.items() if k != str(target)}
            rs = get_ruleset(game.ruleset)
            return seat_offers.handover_event(game, rs, voter, [item], timezone.now()).version
        return _apply_leave(game, target, item, timezone.now()).version


def handover_offers_expire(now: datetime | None = None) -> int:
    """Apply the leave of every offer nobody decided in time; returns how many.
    Only games whose earliest open offer has run out are read (``offer_due``,
    derived on every save and cleared with the offer; a partial index)."""
    now = now or timezone.now()
    waiting = Game.objects.filter(offer_due__lte=now)  # only running games have one (mark_due)
    done = 0
    for game_id, offers in waiting.values_list("pk", "handovers")[:BATCH]:
        for seat, offer in offers.items():
            leave = offer.get("leave")
            if (
                leave
                and offer.get("move") is None
                and datetime.fromisoformat(leave["until"]) <= now
            ):
                done += _expire_one(game_id=game_id, seat=int(seat), now=now)
    return done


@conflicts_are_stale
def _expire_one(*, game_id: int, seat: int, now: datetime) -> int:
    """``handover_offers_expire`` for one seat, under the row lock (another process or a
    last vote may have decided it first)."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.Status.ACTIVE)
            .first()
        )
        offer = game.handovers.get(str(seat)) if game is not None else None
        if game is None or not offer or "leave" not in offer or offer.get("move") is not None:
            return 0
        if datetime.fromisoformat(offer["leave"]["until"]) > now:
            return 0
        _apply_leave(game, seat, {"type": "handover_expired", "seat": seat}, now)
        return 1
