"""Bots take their turns: found by a poll, claimed by one process, thought
about outside any transaction, applied through the same checks as a person's
move (``deciding.decide_seat_act``, ``events.store_event``).

The steps are separate so the in-process worker (games/realtime/bot_worker.py)
runs them in threads with a human-like pause between thinking and moving;
``play_due_bots`` runs them one after another (tests, and a fresh process
picking up what a dead one left).

Safety with several processes: ``bot_turn_claim`` locks the row with
``select_for_update(skip_locked=True)`` and records the version it claims, so
one process thinks per bot turn (a claim older than ``BOT_CLAIM_SECONDS`` is
free again: its process died); ``_game_bot_act`` locks the row again (waiting
for it, as a person's move does) and refuses any version but the claimed
one, so a bot never moves twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from ..bots import decide
from ..bots.turns import turn_seed
from ..errors import GameError
from ..models import Game
from ..reasons import REASON_RESIGNED
from ..rules import get_ruleset
from .internal.deciding import decide_seat_act
from .internal.draw_offers import offer_once
from .internal.events import store_event
from .internal.guards import conflicts_are_stale
from .internal.leaving import leave_or_end

log = logging.getLogger(__name__)
BATCH = 50
# A refusal that means someone else changed the game first: think again later
# ("conflict": a write clashed with another at the same moment; try again).
BENIGN = {"stale_version", "not_your_turn", "paused", "deadline_passed", "game_over", "conflict"}


@dataclass(frozen=True)
class BotTurn:
    game_id: int
    version: int
    seat: int
    level: str
    ruleset: str


def bot_turn_seed(game_id: int, *, version: int, seat: int) -> int:
    """The bot's seed for one action: from the game, so a turn is reproducible
    (the bot processes compute the same seeds for a whole turn)."""
    return turn_seed(game_id, version=version, seat=seat)


def _claim_is_fresh(claim: int, claim_at: datetime | None, version: int, now: datetime) -> bool:
    lease = timedelta(seconds=settings.BOT_CLAIM_SECONDS)
    return claim >= version and claim_at is not None and claim_at > now - lease


def bot_turns_due(limit: int = BATCH) -> list[BotTurn]:
    """Bot turns nobody is thinking about: only the games where a bot seat is
    to act (``bot_due``, derived on every save, its partial index holding just
    those rows) and no fresh claim stands, so the poll's cost follows the bot
    turns due, not the games stored."""
    now = timezone.now()
    lease = now - timedelta(seconds=settings.BOT_CLAIM_SECONDS)
    unclaimed = Q(bot_claim__lt=F("version")) | Q(bot_claim_at__isnull=True)
    rows = (
        Game.objects.filter(unclaimed | Q(bot_claim_at__lte=lease), bot_due=True)
        .order_by("pk")
        .values_list(
            "pk", "version", "to_act", "bots", "ruleset", "left_seats", "bot_claim", "bot_claim_at"
        )[:limit]
    )
    turns = []
    for pk, version, to_act, bots, ruleset, left, claim, claim_at in rows:
        seat = next((s for s in to_act if str(s) in bots and s not in left), None)
        if seat is None or _claim_is_fresh(claim, claim_at, version, now):
            continue
        turns.append(BotTurn(pk, version, seat, bots[str(seat)], ruleset))
    return turns


def bot_turn_after(game_id: int) -> BotTurn | None:
    """The game's next bot turn right after a bot moved (one row, no poll):
    the worker goes on at once, so the rest of a bot's turn follows its first
    action without waiting for the next poll."""
    row = (
        Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE, has_bots=True, paused=False)
        .values_list("version", "to_act", "bots", "ruleset", "left_seats")
        .first()
    )
    if row is None:
        return None
    version, to_act, bots, ruleset, left = row
    seat = next((s for s in to_act if str(s) in bots and s not in left), None)
    return None if seat is None else BotTurn(game_id, version, seat, bots[str(seat)], ruleset)


def bot_turn_claim(turn: BotTurn) -> dict[str, Any] | None:
    """This process takes ``turn``: returns the encoded state to think about,
    or None when the game moved on or another process has it."""
    now = timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=turn.game_id, status=Game.Status.ACTIVE, version=turn.version)
            .first()
        )
        if game is None or _claim_is_fresh(game.bot_claim, game.bot_claim_at, turn.version, now):
            return None
        game.bot_claim, game.bot_claim_at = turn.version, now
        game.save(update_fields=["bot_claim", "bot_claim_at"])
        return game.state


def bot_turn_release(turn: BotTurn) -> None:
    """Free this process's claim on ``turn`` (its thinking machinery failed):
    the next poll, here or in another process, may take it again."""
    Game.objects.filter(pk=turn.game_id, bot_claim=turn.version).update(bot_claim_at=None)


def bot_turn_think_args(
    turn: BotTurn, *, encoded: dict[str, Any]
) -> tuple[str, str, dict[str, Any], int, int]:
    """``games.bots.decide``'s arguments for this turn (plain data: the
    worker sends them to a bot process)."""
    seed = bot_turn_seed(turn.game_id, version=turn.version, seat=turn.seat)
    return (turn.ruleset, turn.level, encoded, turn.seat, seed)


def _think(turn: BotTurn, encoded: dict[str, Any]) -> dict[str, Any]:
    """The bot's action (pure CPU, no database)."""
    return decide(*bot_turn_think_args(turn, encoded=encoded))


@conflicts_are_stale
def _game_bot_act(*, game_id: int, seat: int, version: int, action: dict[str, Any]) -> int | None:
    """A bot's action through a person's checks (the claim made this process
    the only one here: it waits for the row like a person's move)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return None
        if str(seat) not in game.bots or seat in game.left_seats or version != game.version:
            # Strict even in simultaneous phases: the bot thought about this version.
            raise GameError(
                "stale_version", gettext_noop("The game has moved on."), version=game.version
            )
        change = decide_seat_act(game, seat, version, action, timezone.now())
        stored = store_event(change).version
        return offer_once(game, change.rs, seat) or stored


def bot_turn_move(turn: BotTurn, *, action: dict[str, Any]) -> int | None:
    """Apply the bot's action; a game that moved on meanwhile is no error."""
    try:
        return _game_bot_act(
            game_id=turn.game_id, seat=turn.seat, version=turn.version, action=action
        )
    except GameError as exc:
        if exc.code == "conflict":
            bot_turn_release(turn)  # the game did not move on: the next poll tries again
        if exc.code in BENIGN:
            return None
        log.error("bot action refused in game %s: %s; the bot resigns", turn.game_id, exc)
        return bot_turn_give_up(turn)


def bot_turn_give_up(turn: BotTurn) -> int | None:
    """The bot found no action at all (even Guarded's random one failed): it
    resigns its seat rather than stall the game."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update()
            .filter(pk=turn.game_id, status=Game.Status.ACTIVE, version=turn.version)
            .first()
        )
        if game is None:
            return None
        rs = get_ruleset(game.ruleset)
        now = timezone.now()
        event = leave_or_end(
            game, rs, turn.seat, reason=REASON_RESIGNED, event_type="resigned", now=now
        )
        return event.version


def _think_or_give_up(turn: BotTurn, encoded: dict[str, Any]) -> dict[str, Any] | None:
    """The action, or None after logging why there is none."""
    try:
        return _think(turn, encoded)
    except Exception:
        log.exception("the %s bot found no action in game %s", turn.level, turn.game_id)
        return None


def _play_turn(turn: BotTurn) -> int | None:
    """Claim, think and move at once; the new version or None."""
    encoded = bot_turn_claim(turn)
    if encoded is None:
        return None
    action = _think_or_give_up(turn, encoded)
    if action is None:
        return bot_turn_give_up(turn)
    return bot_turn_move(turn, action=action)


def play_due_bots() -> int:
    """Every due bot turn, one after another; returns how many moved."""
    return sum(1 for turn in bot_turns_due() if _play_turn(turn) is not None)
