"""A tournament page's chat: the games' chat rules (an account, not muted,
plain text of at most ``CHAT_MAX_LENGTH``, ``CHAT_RATE`` per user and
tournament across processes), live to the pages that have it open."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop

from games import publish
from games.services.internal.chat_text import chat_text, page_chatter
from games.services.internal.guards import check_chat_rate
from lobby.models import TournamentChatMessage
from lobby.selectors.page_chat import chat_line
from lobby.selectors.tournaments import tournament_group

from .internal.common import tournament_or_404

if TYPE_CHECKING:
    from games.users import Visitor


def tournament_chat_post(
    *, tournament_id: object, user: Visitor | None, text: object
) -> dict[str, Any]:
    """Store one line and push it to the tournament's open pages."""
    user = page_chatter(user, gettext_noop("Sign up to chat in tournaments."))
    clean = chat_text(text)
    with transaction.atomic():
        tournament = tournament_or_404(tournament_id)
        _check_rate(user.pk, tournament.pk)
        message = TournamentChatMessage.objects.create(tournament=tournament, user=user, text=clean)
        line = chat_line(message, user.username)
        frame = {"type": "tournament.chat", "message": line}
        publish.send(tournament_group(tournament.pk), frame)
    return line


def _check_rate(user_id: int, tournament_id: int) -> None:
    check_chat_rate(f"tchat:{user_id}:{tournament_id}")
