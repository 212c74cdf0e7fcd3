"""What every chat takes (a game's, a tournament's, a club's): plain text of
at most ``CHAT_MAX_LENGTH`` from an account that is not muted. One place, so
the chats cannot drift apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.translation import gettext_noop

from games import plain_json
from games.errors import GameError
from games.users import is_guest
from moderation.standing import refuse_if_muted

if TYPE_CHECKING:
    from accounts.models import User
    from games.users import Visitor


def chat_text(text: object) -> str:
    """``text`` stripped, or a 400 naming what is wrong with it."""
    if not isinstance(text, str) or not text.strip():
        raise GameError("bad_request", gettext_noop("Write a message first."))
    text = text.strip()
    bad = plain_json.text_problem(text)
    if bad:
        raise GameError("bad_request", bad)
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise GameError(
            "too_long",
            gettext_noop("Messages are limited to %(n)s characters."),
            n=settings.CHAT_MAX_LENGTH,
        )
    return text


def page_chatter(user: Visitor | None, guest_message: str) -> User:
    """The account that writes in a page's chat (a tournament's, a club's):
    signed in, not a guest (``guest_message`` says so), not muted."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to chat."), status=403)
    if is_guest(user):
        raise GameError("guest", guest_message, status=403)
    refuse_if_muted(user)
    return user
