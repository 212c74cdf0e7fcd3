"""How lists name a seat: a person's seat a bot plays now says so."""

from __future__ import annotations

from django import template

from games.selectors.seats import handed_to_bot

register = template.Library()


@register.filter
def bot_level(seat) -> str:
    """The level of the bot playing ``seat`` for its person, or "" (see
    games/selectors/seats.py handed_to_bot)."""
    return handed_to_bot(seat.game, seat) or ""
