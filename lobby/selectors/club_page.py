"""Reads for the club pages (lobby/club_views.py): who may read a club's
chat, its newest lines, the page's numbered pager (docs/club-pages.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.row_ids import row_pk
from lobby.models import Club, ClubChatMessage, Tournament
from moderation import roles

from .clubs import is_member
from .page_chat import newest_lines

if TYPE_CHECKING:
    from games.users import Visitor

PAGER_SPAN = 3  # page links shown on each side of the current page


def may_read_chat(club: Club, viewer: Visitor | None) -> bool:
    """An open club's chat is public; a closed one's is its members' (and
    the site's moderators', who act on reports)."""
    if club.open:
        return True
    if viewer is None or not viewer.is_authenticated:
        return False
    return is_member(club.pk, viewer.pk) or roles.is_moderator(viewer)


def chat_lines(club: Club) -> list[dict[str, Any]]:
    """The newest lines, oldest first (one index walk)."""
    return newest_lines(ClubChatMessage.objects.filter(club=club))


def readable_club(club_id: object, viewer: Visitor | None) -> int | None:
    """The club a socket asks to hear (``?club=<id>``) if ``viewer`` may read
    its chat, else None (the page then hears no club frames)."""
    pk = row_pk(club_id)
    club = None if pk is None else Club.objects.filter(pk=pk, dissolved__isnull=True).first()
    return club.pk if club is not None and may_read_chat(club, viewer) else None


def pager(page: int, count: int, size: int) -> dict[str, Any]:
    """The page numbers around ``page`` of ``count`` rows, ``size`` a page
    (never all of them: 5,000 members are 100 pages)."""
    last = max(1, -(-count // size))
    low, high = max(1, page - PAGER_SPAN), min(last, page + PAGER_SPAN)
    return {
        "page": page,
        "last": last,
        "numbers": list(range(low, high + 1)),
        "first_gap": low > 1,
        "last_gap": high < last,
    }


def tournaments(ids: list[int]) -> list[dict[str, Any]]:
    """The club's listed tournaments (their ids, newest first) with names and status."""
    rows = Tournament.objects.filter(pk__in=ids).values("pk", "name", "status", "ruleset")
    found: dict[int, dict[str, Any]] = {row["pk"]: dict(row) for row in rows}
    return [found[pk] for pk in ids if pk in found]
