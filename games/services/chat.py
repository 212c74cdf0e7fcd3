"""Chat in each game: players and spectators, kept with the game, rate-limited."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop

from moderation.standing import refuse_if_muted

from .. import publish
from ..errors import GameError, no_such_game
from ..models import (
    ChatMessage,
    Game,
    Seat,
)
from ..selectors.chat import message_dict
from ..users import is_guest
from .internal.chat_text import chat_text
from .internal.guards import check_chat_rate

if TYPE_CHECKING:
    from ..users import Visitor


def chat_post(*, game_id: int, user: Visitor, text: str) -> dict[str, Any]:
    """Store one message and push it to everyone on the game page."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to chat."), status=403)
    text = chat_text(text)
    refuse_if_muted(user)
    with transaction.atomic():
        game = Game.objects.filter(pk=_int(game_id)).first()
        if game is None:
            raise no_such_game()
        _check_rate(user.pk, game.pk)
        seat = Seat.objects.filter(game=game, user=user).values_list("index", flat=True).first()
        if seat is None and is_guest(user):
            raise GameError(
                "guest",
                gettext_noop("Guests chat only at their own table. Sign up to chat here."),
                status=403,
            )
        message = ChatMessage.objects.create(game=game, user=user, seat=seat, text=text)
        data = message_dict(message, user.username)
        publish.after_commit(partial(publish.publish_chat, game.pk, data))
    return data


def _check_rate(user_id: int, game_id: int) -> None:
    check_chat_rate(f"chat:{user_id}:{game_id}")


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GameError("bad_request", gettext_noop("The game id must be a number.")) from None
