"""Signals other apps hear inside a game's own transaction.

``game_over`` is sent once, when an event ends a game (finished or aborted),
after the game and its event are saved and before the commit: a receiver's
writes (a tournament's next round) commit or roll back with the ending. It
lets the lobby react without the games' services importing the lobby.

``seat_no_show`` is sent when a seat of a game of three or more seats runs
out of time without ever having moved, inside the timeout's transaction; a
receiver that returns True (a tournament: it withdraws and bans the player)
has the seat handed to a bot at once, so the table plays on
(``services/internal/seat_offers.no_show_to_bot``).
"""

from __future__ import annotations

from django.dispatch import Signal

game_over = Signal()  # keyword argument: game
# Games that just started (``game_start``, or a tournament round's games in
# bulk), in the starting transaction, their seats stored: clubs list their
# members' running games from it (lobby/clubs/live_games.py).
games_started = Signal()  # keyword argument: game_ids
seat_no_show = Signal()  # keyword arguments: game, seat
