"""A person's account becomes their bot's: irreversible, as on lichess.

Only an account that never sat at a table may: its games would otherwise
change hands between a person and a program. A bot account carries
``is_bot`` (the badge wherever its name appears, never rated, off the
leaderboards) and ``plays_by_api``: its owner's program plays it with a
personal token, never the site's bot worker, never the game pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.models import Seat

if TYPE_CHECKING:
    from accounts.models import User
    from games.users import Visitor


def bot_upgrade(*, user: Visitor | None) -> User:
    """Make ``user`` a bot account; a bot already is left as it is."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in first."), status=403)
    with transaction.atomic():
        account = get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)
        if account.plays_by_api:
            return account
        if account.is_bot or account.is_guest:
            raise GameError(
                "forbidden", gettext_noop("This account cannot become a bot."), status=403
            )
        if Seat.objects.filter(user=account).exists():
            raise GameError(
                "has_games",
                gettext_noop("Only an account that has never played can become a bot."),
                status=409,
            )
        account.is_bot = account.plays_by_api = True
        account.save(update_fields=["is_bot", "plays_by_api"])
    return account


def plays_by_api(user: object) -> bool:
    """A person's bot: moves only through the API, casual games only, no quick play."""
    return bool(getattr(user, "plays_by_api", False))
