"""The staff roles: remis arbiters and moderators are separate permissions,
given through the groups "Remis arbiters" and "Moderators"; superusers hold
both. ``has_perm`` caches a user's permissions on the object, so a page asks
the database once however often it checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from django.contrib.auth.models import Group, Permission

if TYPE_CHECKING:
    from accounts.models import User

MODERATE = "moderation.moderate"
ARBITRATE = "moderation.arbitrate_remis"
MODERATORS = "Moderators"
ARBITERS = "Remis arbiters"


def _holds(user: Any, perm: str) -> bool:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_superuser or user.has_perm(perm))


def is_moderator(user: object) -> TypeGuard[User]:
    """A signed-in, active account holding the moderator role (a type guard: a User)."""
    return _holds(user, MODERATE)


def is_arbiter(user: object) -> TypeGuard[User]:
    """A signed-in, active account holding the arbiter role (a type guard: a User)."""
    return _holds(user, ARBITRATE)


def is_staff_member(user: User) -> bool:
    """Holds any staff role: a moderator may not act on such an account."""
    return bool(user.is_superuser or user.is_staff or is_moderator(user) or is_arbiter(user))


def grant(user: User, group_name: str) -> None:
    """Put ``user`` in a staff group (made by the migration; made here if missing)."""
    group, made = Group.objects.get_or_create(name=group_name)
    if made:
        codename = MODERATE if group_name == MODERATORS else ARBITRATE
        group.permissions.add(
            Permission.objects.get(
                content_type__app_label="moderation", codename=codename.split(".")[1]
            )
        )
    user.groups.add(group)
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)
