"""Reads of who blocks and follows whom (accounts.models Block, Follow)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from accounts.models import Block, Follow

from ..models import Game


def blocked_names(user: Any) -> list[str]:
    """The usernames ``user`` has blocked, for their settings and their sockets."""
    if user is None or not user.is_authenticated:
        return []
    rows = Block.objects.filter(user_id=user.pk).order_by("blocked__username")
    return list(rows.values_list("blocked__username", flat=True))


def without_blocked(lines: list[dict[str, Any]], blocked: list[str]) -> list[dict[str, Any]]:
    """Chat lines less those of the players the reader blocked."""
    if not blocked:
        return lines
    hidden = set(blocked)
    return [line for line in lines if line.get("user") not in hidden]


def relation_to(viewer: Any, other: Any) -> dict[str, bool]:
    """What a player's page offers its viewer: whether they follow and block
    ``other`` (two indexed lookups)."""
    return {
        "following": Follow.objects.filter(user_id=viewer.pk, followed_id=other.pk).exists(),
        "blocked": Block.objects.filter(user_id=viewer.pk, blocked_id=other.pk).exists(),
    }


def followed_names(user: Any) -> list[str]:
    if user is None or not user.is_authenticated:
        return []
    rows = Follow.objects.filter(user_id=user.pk).order_by("followed__username")
    return list(rows.values_list("followed__username", flat=True))


def block_between(user_id: int, others: Iterable[int | None]) -> bool:
    """Whether ``user_id`` blocked any of ``others`` or any of them blocked ``user_id``."""
    ids = [o for o in others if o is not None and o != user_id]
    if not ids:
        return False
    either = Q(user_id=user_id, blocked_id__in=ids) | Q(user_id__in=ids, blocked_id=user_id)
    return Block.objects.filter(either).exists()


def friends_playing(user: Any, limit: int = 20) -> list[dict[str, Any]]:
    """Live games where someone ``user`` follows holds a seat (the lobby's
    "Friends playing now"): one query, newest first."""
    if user is None or not user.is_authenticated:
        return []
    followed = Follow.objects.filter(user_id=user.pk).values("followed_id")
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user_id__in=followed)
        .distinct()
        .order_by("-started")
        .prefetch_related("seats__user")[:limit]
    )
    return [
        {
            "id": game.pk,
            "ruleset": game.ruleset,
            "players": [s.user.username if s.user else "" for s in game.seats.all()],
        }
        for game in games
    ]
