"""``{% remis_waiting %}``: how many remis requests wait, for the staff's nav link.

One COUNT per page a staff member loads (nobody else's pages ask); the queue
page keeps the number current while it is open.
"""

from __future__ import annotations

from django import template

from games.selectors.remis import waiting_count
from moderation import roles

register = template.Library()


@register.simple_tag(takes_context=True)
def remis_waiting(context) -> int:
    user = getattr(context.get("request"), "user", None)
    if not roles.is_arbiter(user):
        return 0
    return waiting_count()
