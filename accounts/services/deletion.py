"""What deleting an account does to games (the admin's delete, say).

Shared game records stay: Game.host, Seat.user, ChatMessage.user and
RemisRequest.requested_by are SET_NULL, so the other players keep their
events, chat and rating history. Only a table of theirs that never started
goes: nobody could start it without its host. A game still running is
resigned first (as closing a lichess account does): else the others would
wait on a seat that nobody holds.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from games.errors import GameError
from games.models import Game, Notification, Rating, RatingChange, Seat
from games.services.endings import game_resign

if TYPE_CHECKING:
    from accounts.models import User


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_account_deletion")
def _drop_open_tables(sender: object, instance: User, **kwargs: object) -> None:
    Game.objects.filter(host=instance, status=Game.Status.OPEN).delete()


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_account_resigns")
def _resign_running_games(sender: object, instance: User, **kwargs: object) -> None:
    running = Seat.objects.filter(user=instance, game__status=Game.Status.ACTIVE)
    for game_id in set(running.values_list("game_id", flat=True)):
        # A game master's seat, one a bot plays, one already left: nothing to give up.
        with suppress(GameError):
            game_resign(game_id=game_id, user=instance)
    # The delete gathered the account's rows before this signal: what resigning
    # just wrote for it (its notices, a rating's change) goes too.
    for model in (Notification, RatingChange, Rating):
        model.objects.filter(user=instance).delete()
