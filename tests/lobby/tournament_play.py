"""Helpers: run a tournament's games to their end through the games' services."""

from __future__ import annotations

import random

from games.models import Game
from games.services.endings import game_resign
from lobby.models import Tournament, TournamentPairing
from tests.factories import every_seat_moves


def running_games(tournament: Tournament) -> list[Game]:
    ids = TournamentPairing.objects.filter(
        tournament=tournament, round=tournament.current_round, game__isnull=False
    ).values_list("game_id", flat=True)
    return list(Game.objects.filter(pk__in=list(ids), status=Game.Status.ACTIVE).order_by("pk"))


def finish_game(game: Game, rng: random.Random) -> None:
    """One move per seat, then a random seat resigns."""
    every_seat_moves(game, seed=rng.randrange(1000), limit=50)
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return
    loser = game.seats.get(index=rng.randrange(game.seat_count)).user
    game_resign(game_id=game.pk, user=loser)


def play_round(tournament: Tournament, rng: random.Random) -> None:
    tournament.refresh_from_db()
    for game in running_games(tournament):
        finish_game(game, rng)
    tournament.refresh_from_db()
