"""``Game.listed_players`` stays true: an account deleted or renamed drops
the copy from its games (None: lists read their seats again), in the same
transaction as the change."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import pre_delete, pre_save
from django.dispatch import receiver

from ...models import Game


def _drop(user_id: int) -> None:
    """The games that name ``user_id`` in ``listed_players`` keep no copy."""
    Game.objects.filter(seats__user_id=user_id, listed_players__isnull=False).update(
        listed_players=None
    )


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_listed_deleted")
def _deleted(sender: object, instance: Any, **kwargs: object) -> None:
    _drop(instance.pk)


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_listed_renamed")
def _renamed(sender: object, instance: Any, update_fields: Any = None, **kwargs: object) -> None:
    """A save that may change the name (the admin's form, say): one read by key."""
    if instance.pk is None or (update_fields is not None and "username" not in update_fields):
        return
    before = get_user_model().objects.filter(pk=instance.pk).values_list("username", flat=True)
    if before.first() not in (None, instance.username):
        _drop(instance.pk)
