"""What a game page shows of a rematch offer."""

from __future__ import annotations

from typing import Any

from ..models import Game, Rematch


def rematch_summary(rematch: Rematch | None) -> dict[str, Any] | None:
    """The offer as every page of the old game sees it (None: nobody offered)."""
    if rematch is None:
        return None
    if rematch.new_game_id is not None:
        status = "accepted"
    elif rematch.declined_by is not None:
        status = "declined"
    else:
        status = "pending"
    return {
        "game": rematch.game_id,
        "status": status,
        "accepted": sorted(rematch.accepted),
        "declined_by": rematch.declined_by,
        "new_game": rematch.new_game_id,
    }


def rematch_of(game: Game) -> dict[str, Any] | None:
    """The summary for a game page: one query, and only once the game is finished."""
    if game.status != Game.Status.FINISHED:
        return None
    return rematch_summary(Rematch.objects.filter(game_id=game.pk).first())
