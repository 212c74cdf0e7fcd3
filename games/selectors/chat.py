"""Reads of a game's chat."""

from __future__ import annotations

from typing import Any

from ..models import ChatMessage

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


def chat_history(game_id: int) -> list[dict[str, Any]]:
    rows = (
        ChatMessage.objects.filter(game_id=game_id)
        .select_related("user")
        .order_by("-created", "-pk")
    )
    return [message_dict(m, m.user.username if m.user else None) for m in reversed(rows[:HISTORY])]
