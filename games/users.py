"""Who calls a service: a site user, or Django's anonymous user (the services
refuse the latter where a seat or an account is needed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeAlias

    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

    Visitor: TypeAlias = User | AnonymousUser


def is_bot(user: object) -> bool:
    """Whether ``user`` is a bot account (``User.is_bot``, set by
    games/services/bot_accounts.py): the one place the ratings and the
    players API ask."""
    return bool(getattr(user, "is_bot", False))
