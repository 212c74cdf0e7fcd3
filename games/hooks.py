"""Signals other apps hear inside a game's own transaction.

``game_over`` is sent once, when an event ends a game (finished or aborted),
after the game and its event are saved and before the commit: a receiver's
writes (a tournament's next round) commit or roll back with the ending. It
lets the lobby react without the games' services importing the lobby.
"""

from __future__ import annotations

from django.dispatch import Signal

game_over = Signal()  # keyword argument: game
