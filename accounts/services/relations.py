"""Blocking and following other players (accounts.models Block, Follow)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_noop

from accounts.models import Block, Follow
from games.errors import GameError
from games.selectors.relations import block_between

if TYPE_CHECKING:
    from accounts.models import User
    from games.users import Visitor


def _other_user(user: Visitor | None, name: object) -> tuple[User, User]:
    """The signed-in caller and the other user named ``name``."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in first."), status=403)
    other = get_user_model().objects.filter(username__iexact=str(name).strip()[:150]).first()
    if other is None:
        raise GameError(
            "no_such_user",
            gettext_noop("There is no user called %(name)s."),
            status=404,
            name=str(name)[:40],
        )
    if other.pk == user.pk:
        raise GameError("bad_request", gettext_noop("That is you."))
    return user, other


def user_block(*, user: Visitor | None, name: object) -> str:
    """Block ``name`` (again: no change); blocking also stops following either way."""
    user, other = _other_user(user, name)
    with transaction.atomic():
        Block.objects.get_or_create(user_id=user.pk, blocked_id=other.pk)
        Follow.objects.filter(user_id=user.pk, followed_id=other.pk).delete()
        Follow.objects.filter(user_id=other.pk, followed_id=user.pk).delete()
    return other.username


def user_unblock(*, user: Visitor | None, name: object) -> str:
    user, other = _other_user(user, name)
    Block.objects.filter(user_id=user.pk, blocked_id=other.pk).delete()
    return other.username


def user_follow(*, user: Visitor | None, name: object) -> str:
    user, other = _other_user(user, name)
    if block_between(user.pk, [other.pk]):
        raise GameError("blocked", gettext_noop("One of you has blocked the other."), status=403)
    Follow.objects.get_or_create(user_id=user.pk, followed_id=other.pk)
    return other.username


def user_unfollow(*, user: Visitor | None, name: object) -> str:
    user, other = _other_user(user, name)
    Follow.objects.filter(user_id=user.pk, followed_id=other.pk).delete()
    return other.username
