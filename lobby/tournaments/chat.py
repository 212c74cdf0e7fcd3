"""A tournament page's chat: the games' chat rules (an account, not muted,
plain text of at most ``CHAT_MAX_LENGTH``, ``CHAT_RATE`` per user and
tournament across processes), live to the pages that have it open."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_noop

from games import plain_json, publish
from games.errors import GameError
from games.services.internal.guards import check_chat_rate
from games.users import is_guest
from lobby.models import TournamentChatMessage
from lobby.selectors.tournaments import chat_line, tournament_group
from moderation.standing import refuse_if_muted

from .internal.common import tournament_or_404

if TYPE_CHECKING:
    from games.users import Visitor


def tournament_chat_post(
    *, tournament_id: object, user: Visitor | None, text: object
) -> dict[str, Any]:
    """Store one line and push it to the tournament's open pages."""
    if user is None or not user.is_authenticated:
        raise GameError("login_required", gettext_noop("Log in to chat."), status=403)
    if is_guest(user):
        raise GameError("guest", gettext_noop("Sign up to chat in tournaments."), status=403)
    clean = _clean(text)
    refuse_if_muted(user)
    with transaction.atomic():
        tournament = tournament_or_404(tournament_id)
        _check_rate(user.pk, tournament.pk)
        message = TournamentChatMessage.objects.create(tournament=tournament, user=user, text=clean)
        line = chat_line(message, user.username)
        frame = {"type": "tournament.chat", "message": line}
        publish.send(tournament_group(tournament.pk), frame)
    return line


def _clean(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise GameError("bad_request", gettext_noop("Write a message first."))
    text = text.strip()
    bad = plain_json.text_problem(text)
    if bad:
        raise GameError("bad_request", bad)
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise GameError(
            "too_long",
            gettext_noop("Messages are limited to %(n)s characters."),
            n=settings.CHAT_MAX_LENGTH,
        )
    return text


def _check_rate(user_id: int, tournament_id: int) -> None:
    check_chat_rate(f"tchat:{user_id}:{tournament_id}")
