"""Keeping ``ClubGame`` (a club's members' running games) true when members
come and go; lobby/clubs/live_games.py keeps it when games start and end."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from games.models import Game, Seat
from lobby.models import Club, ClubGame, ClubMember


def add_member_games(club: Club, user_id: int) -> None:
    """A new member's running games are the club's too."""
    running = Seat.objects.filter(user_id=user_id, game__status=Game.Status.ACTIVE).values_list(
        "game_id", flat=True
    )
    ClubGame.objects.bulk_create(
        [ClubGame(club=club, game_id=g) for g in running], ignore_conflicts=True
    )


def drop_member_games(club: Club, user_id: int) -> None:
    """A member gone (their row deleted first): their games leave the club's
    list unless another member plays in them."""
    other_member = ClubMember.objects.filter(club=club, user_id=OuterRef("user_id"))
    shared = (
        Seat.objects.filter(game_id=OuterRef("game_id"))
        .exclude(user_id=user_id)
        .filter(Exists(other_member))
    )
    mine = Seat.objects.filter(user_id=user_id, game_id=OuterRef("game_id"))
    ClubGame.objects.filter(club=club).filter(Exists(mine)).exclude(Exists(shared)).delete()
