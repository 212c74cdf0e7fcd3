"""A club's members' running games (``ClubGame``), kept with the games:
a game's start adds it to each of its players' clubs, its end removes it
(both inside the game's own transaction; connected in lobby/apps.py)."""

from __future__ import annotations

from games.models import Game, Seat
from lobby.models import ClubGame, ClubMember


def on_games_started(sender: object, game_ids: list[int], **kwargs: object) -> None:
    seats = list(
        Seat.objects.filter(game_id__in=game_ids, user__isnull=False).values_list(
            "game_id", "user_id"
        )
    )
    clubs: dict[int, set[int]] = {}
    for club_id, user_id in ClubMember.objects.filter(
        user_id__in={u for _, u in seats}
    ).values_list("club_id", "user_id"):
        clubs.setdefault(user_id, set()).add(club_id)
    rows = {(club, game) for game, user in seats for club in clubs.get(user, ())}
    if rows:
        ClubGame.objects.bulk_create(
            [ClubGame(club_id=c, game_id=g) for c, g in rows], ignore_conflicts=True
        )


def on_game_over(sender: object, game: Game, **kwargs: object) -> None:
    ClubGame.objects.filter(game=game).delete()
