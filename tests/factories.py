"""Small builders for users and games, used across the suite."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from games.models import Game
from lobby import services as lobby

_names = itertools.count(1)


def make_user(name: str | None = None, *, staff: bool = False):
    name = name or f"user{next(_names)}"
    return get_user_model().objects.create_user(
        username=name, password="pw-123456789", is_staff=staff
    )


def started_game(
    ruleset: str = "halma", players: list | None = None, clock: dict | None = None, **options
) -> Game:
    """A running game with every seat taken (host at seat 0); ``clock`` as the
    lobby takes it (default: correspondence)."""
    players = players or [make_user(), make_user()]
    game = lobby.table_create(
        host=players[0], ruleset=ruleset, options=options, seat_count=len(players), clock=clock
    )
    for user in players[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=players[0])
    game.refresh_from_db()
    return game


FIRST_MOVE = {"type": "move", "path": [[5, 9], [4, 9]]}  # White (seat 0) steps up
BLACK_MOVE = {"type": "move", "path": [[4, 0], [5, 0]]}  # Black (seat 1) steps down
