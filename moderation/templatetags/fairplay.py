"""Template tags: the moderators' nav count, a profile's completion rate and
whether an account was closed."""

from __future__ import annotations

from typing import Any

from django import template

from .. import roles, selectors
from ..models import Standing

register = template.Library()


@register.simple_tag(takes_context=True)
def staff_roles(context) -> dict[str, bool]:
    user = getattr(context.get("request"), "user", None)
    return {"arbiter": roles.is_arbiter(user), "moderator": roles.is_moderator(user)}


@register.simple_tag
def reports_open() -> int:
    """One COUNT per page a moderator loads; the queue keeps it current."""
    return selectors.open_count()


@register.simple_tag
def completion(user: Any) -> dict[str, Any]:
    return selectors.completion(user.pk)


@register.filter
def closed_account(user: Any) -> bool:
    """Closed by a moderator, or a guest closed after its idle day."""
    return not user.is_active or Standing.objects.filter(user=user, closed=True).exists()
