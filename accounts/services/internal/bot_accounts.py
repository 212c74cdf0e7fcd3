"""The bots' accounts: one per game and level, created on first use.

A bot account holds seats like a person (so every page names it), never logs
in (its password is unusable) and carries ``is_bot`` for the badge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.utils.translation import gettext_noop

from games.bots import LEVELS, get_bot
from games.errors import GameError
from games.users import is_bot

if TYPE_CHECKING:
    from accounts.models import User

BOT_PREFIX = "bot-"


def _bot_username(slug: str, level: str) -> str:
    return f"{BOT_PREFIX}{slug}-{level}"


def clean_level(level: object) -> str:
    """A bot level from a client, or a clear 400."""
    if not isinstance(level, str) or level not in LEVELS:
        raise GameError(
            "bad_bot",
            gettext_noop("Choose the bot's level: %(levels)s."),
            levels=", ".join(LEVELS),
        )
    return level


def bot_user(slug: str, level: str) -> User:
    """The account of ``slug``'s bot at ``level``, created if it is new.

    ``get_or_create`` under the unique username is race-safe: two requests
    creating it at once end with one account (the loser reads the winner's).
    """
    clean_level(level)
    try:
        get_bot(slug, level)
    except LookupError:
        raise GameError(
            "bad_bot", gettext_noop("No bot plays %(slug)s here."), slug=str(slug)[:40]
        ) from None
    user, _created = get_user_model().objects.get_or_create(
        username=_bot_username(slug, level),
        defaults={"is_bot": True, "password": make_password(None)},
    )
    if not is_bot(user):  # a person took the name before bots existed
        raise GameError(
            "bad_bot", gettext_noop("The %(name)s account is not a bot."), name=user.username
        )
    return user
