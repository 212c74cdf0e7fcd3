"""Reads of a game row itself."""

from __future__ import annotations

from ..errors import no_such_game
from ..models import Game


def game_or_404(game_id: int) -> Game:
    """The game, or the error saying there is no such game."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise no_such_game()
    return game
