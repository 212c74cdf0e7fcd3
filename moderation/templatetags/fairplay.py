"""Template tags: the moderators' nav count, a profile's completion rate,
whether an account was closed, a player's warning not yet acknowledged (the
banner), and the case page's codes as people's words."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils.translation import gettext

from games.models import Game
from games.rules import RULESETS

from .. import roles, selectors
from ..models import Report, Sanction, Standing

register = template.Library()


@register.simple_tag(takes_context=True)
def staff_roles(context) -> dict[str, bool]:
    user = getattr(context.get("request"), "user", None)
    return {"arbiter": roles.is_arbiter(user), "moderator": roles.is_moderator(user)}


@register.simple_tag(takes_context=True)
def warning_pending(context) -> Sanction | None:
    """The signed-in player's warning not yet acknowledged: one indexed read per page."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return None
    return selectors.warning_pending(user.pk)


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


def choice_label(choices: Any, code: Any) -> str:
    """A stored code's translated label; an unknown code as it is."""
    labels = dict(choices.choices)
    return str(labels[code]) if code in labels else str(code)


@register.filter
def report_reason(code: Any) -> str:
    return choice_label(Report.Reason, code)


@register.filter
def report_status(code: Any) -> str:
    return choice_label(Report.Status, code)


@register.filter
def sanction_action(code: Any) -> str:
    return choice_label(Sanction.Action, code)


@register.filter
def game_status(code: Any) -> str:
    return choice_label(Game.Status, code)


@register.filter
def ruleset_title(slug: Any) -> str:
    rs = RULESETS.get(slug)
    return gettext(rs.title) if rs else str(slug)


@register.filter
def from_iso(value: Any) -> datetime | None:
    """The case's ISO times as datetimes, for the ``date`` filter (local format)."""
    try:
        return datetime.fromisoformat(value) if value else None
    except (TypeError, ValueError):
        return None
