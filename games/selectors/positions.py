"""A position as spectators see it, now or after a past version: what the
position pictures (frontend/pictures) draw. Past versions come from the
replay's checkpoints (``replays.frames_page``), so they cost what a replay
page costs and never show more than a spectator's replay shows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from ..errors import GameError, no_such_game
from ..models import Game
from ..rules import get_ruleset
from .replays import frames_page
from .walk import opening


def position_game(game_id: int) -> Game:
    """The game whose position may be drawn: started (an open table has no board yet)."""
    game = (
        Game.objects.filter(pk=game_id)
        .exclude(state=None)
        .only("id", "ruleset", "version", "status", "state", "options", "seat_count", "seed")
        .first()
    )
    if game is None:
        raise no_such_game()
    return game


def spectator_view(game: Game, version: int | None) -> dict[str, Any]:
    """The spectators' view after ``version`` (None: now). Raises GameError
    for a version the game has not reached, ReplayPending while the worker
    prepares a checkpoint near it."""
    rs = get_ruleset(game.ruleset)
    if version is None or version == game.version:
        return dict(rs.view(rs.decode(game.started_state), None))
    if not 0 <= version <= game.version:
        raise GameError("bad_request", gettext_noop("This game has no such version."), status=400)
    if version == 0:
        return dict(rs.view(opening(rs, game), None))
    frames = frames_page(game, None, version, 1)
    return dict(frames[0]["view"])
