"""``{% remis_waiting %}``: how many remis requests wait, for the staff's nav link.

One COUNT per page a staff member loads (nobody else's pages ask); the queue
page keeps the number current while it is open.
"""

from __future__ import annotations

from django import template

from games.selectors.remis import waiting_count

register = template.Library()


@register.simple_tag(takes_context=True)
def remis_waiting(context) -> int:
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_staff:
        return 0
    return waiting_count()
