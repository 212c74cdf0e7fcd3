"""Reads of a page's chat (a tournament's, a club's): one line's shape, and
the newest lines read from the ``(owner, -created, -id)`` index."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet

CHAT_LINES = 50


def chat_line(message: Any, username: str | None) -> dict[str, Any]:
    """A stored line as the API and the socket give it."""
    return {
        "id": message.pk,
        "username": username,
        "text": message.text,
        "created": message.created.isoformat(),
    }


def newest_lines(lines: QuerySet[Model], count: int = CHAT_LINES) -> list[dict[str, Any]]:
    """The newest ``count`` of ``lines`` (one chat's rows), oldest first."""
    newest = lines.order_by("-created", "-id").values_list(
        "pk", "user__username", "text", "created"
    )
    return [
        {"id": pk, "username": name, "text": text, "created": created.isoformat()}
        for pk, name, text, created in reversed(list(newest[:count]))
    ]
