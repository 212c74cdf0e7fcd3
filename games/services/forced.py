"""Forced turns (issue 36): a player who opts in per game has the site play
a turn with exactly one legal action for them (Malefiz: a roll that leaves
one move; a roll that leaves none already passes by itself).

Every event sets ``Game.forced_at`` (``clocks.set_forced``): when the seat to
act opted in and its ruleset names a forced action, ``FORCED_TURN_SECONDS``
after the event, else empty. The sweeper reads only the due rows through the
partial index on that column (``forced_turns_play_due``), never every game, and plays
each through a player's checks and the one write funnel
(``deciding.decide_seat_act``, ``events.store_event``). Never the client.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from .. import clocks
from ..errors import GameError, no_such_game
from ..models import Game, Seat
from ..rules import get_ruleset
from .internal.deciding import decide_seat_act
from .internal.events import store_event
from .internal.guards import conflicts_are_stale, locked_player_seat, parse_game_id

if TYPE_CHECKING:
    from ..users import Visitor

log = logging.getLogger(__name__)
BATCH = 50


def game_forced_turns(*, game_id: object, user: Visitor | None, on: bool) -> bool:
    """Opt in (or out) for the caller's seat; a forced turn waiting now is
    scheduled at once. Returns whether the seat is opted in."""
    with transaction.atomic():
        game, seat = locked_player_seat(game_id, user)
        rs = get_ruleset(game.ruleset)
        if not rs.offers_forced_turns:
            raise GameError(
                "not_supported",
                gettext_noop("This game has no forced turns to play for you."),
                version=game.version,
            )
        seats = {s for s in game.autoplay if s != seat} | ({seat} if on else set())
        game.autoplay = sorted(seats)
        clocks.set_forced(game, rs, rs.decode(game.started_state), timezone.now())
        game.save(update_fields=["autoplay", "forced_at"])
    return on


def game_forced_turns_on(*, game_id: object, user: Visitor | None) -> bool:
    """Whether the caller's seat in the game is opted in (False without a
    seat); no such game: the error saying so."""
    pk = parse_game_id(game_id)
    autoplay = Game.objects.filter(pk=pk).values_list("autoplay", flat=True).first()
    if autoplay is None:
        raise no_such_game()
    if user is None or not user.is_authenticated:
        return False
    index = Seat.objects.filter(game_id=pk, user=user).values_list("index", flat=True).first()
    return index is not None and index in autoplay


@conflicts_are_stale
def _game_forced_act(*, game_id: int, now: datetime | None = None) -> int | None:
    """Play the game's due forced turn; the new version, or None when another
    process has it or the game moved on (its ``forced_at`` is then cleared)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, forced_at__lte=now)
            .first()
        )
        if game is None:
            return None
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.started_state) if game.status == Game.Status.ACTIVE else None
        seat = game.to_act[0] if len(game.to_act) == 1 else -1
        action = (
            rs.forced_action(state, seat) if seat in game.autoplay and state is not None else None
        )
        if action is None or game.paused:
            game.forced_at = None  # nothing forced any more: off the index
            game.save(update_fields=["forced_at"])
            return None
        return store_event(decide_seat_act(game, seat, game.version, action, now)).version


def forced_turns_play_due(limit: int = BATCH) -> int:
    """Every forced turn due now, read from the partial index; how many were played."""
    due = list(
        Game.objects.filter(forced_at__lte=timezone.now())
        .order_by("forced_at")
        .values_list("pk", flat=True)[:limit]
    )
    played = 0
    for game_id in due:
        try:
            played += _game_forced_act(game_id=game_id) is not None
        except GameError as exc:  # the game moved on meanwhile: no error
            log.info("forced turn in game %s not played: %s", game_id, exc.code)
        except Exception:  # one broken game must not stop the others
            log.exception("forced turn in game %s failed", game_id)
    return played
