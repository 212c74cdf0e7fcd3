"""Who calls a service: a site user, or Django's anonymous user (the services
refuse the latter where a seat or an account is needed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext, gettext_noop

from .errors import GameError

if TYPE_CHECKING:
    from typing import TypeAlias

    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

    Visitor: TypeAlias = User | AnonymousUser


def signed_in(user: Visitor | None, message: str = gettext_noop("Log in to play.")) -> User:
    """The caller's account, or the error asking to log in (``message``, a
    gettext_noop text)."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", message, status=403)
    return user


def is_bot(user: object) -> bool:
    """Whether ``user`` is a bot account (``User.is_bot``, set by
    accounts/services/internal/bot_accounts.py): the one place code asks it of a user
    (None, a deleted account's seat, is no bot); queries filter on
    ``user__is_bot`` in the database instead."""
    return bool(getattr(user, "is_bot", False))


def is_guest(user: object) -> bool:
    """Whether ``user`` is a visitor's temporary account (``User.is_guest``,
    accounts/services/guests.py): never rated, no public tables, chat at its own table only."""
    return bool(getattr(user, "is_guest", False))


def shown_name(user: User | None) -> str:
    """A person's name where a game record shows it, or "deleted user" once
    the account is gone: the games stay (models.Game.host is SET_NULL). No
    username can hold the space, so the label never names a real account."""
    if user is None:
        return gettext("deleted user")
    return user.username
