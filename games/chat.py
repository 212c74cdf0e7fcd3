"""Chat in each game: players and spectators, kept with the game, rate-limited."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from . import broadcast, plain_json
from .errors import GameError, no_such_game
from .models import ChatMessage, Game, Seat

HISTORY = 100


def message_dict(message: ChatMessage, username: str | None) -> dict[str, Any]:
    return {
        "id": message.pk,
        "user": username,
        "seat": message.seat,
        "spectator": message.seat is None,
        "text": message.text,
        "time": message.created.isoformat(),
    }


def chat_post(*, game_id: Any, user: Any, text: Any) -> dict[str, Any]:
    """Store one message and push it to everyone on the game page."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to chat."), status=403)
    if not isinstance(text, str) or not text.strip():
        raise GameError("bad_request", gettext_noop("Write a message first."))
    text = text.strip()
    bad = plain_json.text_problem(text)
    if bad:
        raise GameError("bad_request", bad)
    limit = settings.CHAT_MAX_LENGTH
    if len(text) > limit:
        raise GameError(
            "too_long", gettext_noop("Messages are limited to %(n)s characters."), n=limit
        )
    count, seconds = settings.CHAT_RATE
    with transaction.atomic():
        game = Game.objects.filter(pk=_int(game_id)).first()
        if game is None:
            raise no_such_game()
        since = timezone.now() - timedelta(seconds=seconds)
        if ChatMessage.objects.filter(game=game, user=user, created__gte=since).count() >= count:
            raise GameError(
                "rate_limited",
                gettext_noop("Slow down: at most %(n)s messages in %(s)s seconds."),
                status=429,
                n=count,
                s=seconds,
            )
        seat = Seat.objects.filter(game=game, user=user).values_list("index", flat=True).first()
        message = ChatMessage.objects.create(game=game, user=user, seat=seat, text=text)
        data = message_dict(message, user.username)
        broadcast.after_commit(partial(broadcast.publish_chat, game.pk, data))
    return data


def chat_history(game_id: int) -> list[dict[str, Any]]:
    rows = (
        ChatMessage.objects.filter(game_id=game_id)
        .select_related("user")
        .order_by("-created", "-pk")
    )
    return [message_dict(m, m.user.username if m.user else None) for m in reversed(rows[:HISTORY])]


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GameError("bad_request", gettext_noop("The game id must be a number.")) from None
