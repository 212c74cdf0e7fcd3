"""A club page's chat: its members write (the games' chat rules: an account,
not muted, plain text, ``CHAT_RATE`` per user and club); whoever may read the
club hears it live (lobby/selectors/club_page.py ``may_read_chat``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext_noop

from games import publish
from games.errors import GameError
from games.services.internal.chat_text import chat_text, page_chatter
from games.services.internal.guards import check_chat_rate
from lobby.models import ClubChatMessage
from lobby.selectors.clubs import club_group, club_or_404, is_member
from lobby.selectors.page_chat import chat_line

if TYPE_CHECKING:
    from games.users import Visitor


def club_chat_post(*, club_id: object, user: Visitor | None, text: object) -> dict[str, Any]:
    """Store one line of a member and push it to the club's open pages."""
    account = page_chatter(user, gettext_noop("Sign up to chat in clubs."))
    clean = chat_text(text)
    with transaction.atomic():
        club = club_or_404(club_id)
        if not is_member(club.pk, account.pk):
            raise GameError(
                "not_member", gettext_noop("Only the club's members chat here."), status=403
            )
        check_chat_rate(f"cchat:{account.pk}:{club.pk}")
        message = ClubChatMessage.objects.create(club=club, user=account, text=clean)
        line = chat_line(message, account.username)
        publish.send(club_group(club.pk), {"type": "club.chat", "message": line})
    return line
