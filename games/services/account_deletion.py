"""What deleting an account does to games (the admin's delete, say).

Shared game records stay: Game.host, Seat.user, ChatMessage.user and
RemisRequest.requested_by are SET_NULL, so the other players keep their
events, chat and rating history. Only a table of theirs that never started
goes: nobody could start it without its host.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from ..models import Game


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_account_deletion")
def drop_open_tables(sender: Any, instance: Any, **kwargs: Any) -> None:
    Game.objects.filter(host=instance, status=Game.Status.OPEN).delete()
