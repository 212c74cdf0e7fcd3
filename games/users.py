"""Who calls a service: a site user, or Django's anonymous user (the services
refuse the latter where a seat or an account is needed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeAlias

    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

    Visitor: TypeAlias = User | AnonymousUser
