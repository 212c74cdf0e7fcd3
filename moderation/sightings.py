"""Where an account logs in from: the client's address and its device cookie,
kept so staff see other accounts seen from the same ones (never shown to
players). One upsert per login."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone

from accounts.devices import device_for
from games.addresses import request_address

from .models import Sighting


@receiver(user_logged_in, dispatch_uid="moderation-sighting")
def seen(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is None:
        return
    address = (request_address(request) or "")[:64]
    device = (device_for(request, user.get_username()) or "")[:64]
    Sighting.objects.update_or_create(
        user=user, address=address, device=device, defaults={"last": timezone.now()}
    )
