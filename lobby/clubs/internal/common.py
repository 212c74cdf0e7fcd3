"""What every club service shares: the club's row (locked), the caller's
membership, the checks on who may act, the live push."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import publish
from games.errors import GameError
from games.row_ids import row_pk
from games.users import is_guest
from lobby.models import Club, ClubGame, ClubMatch, ClubMember
from lobby.selectors.club_matches import club_match_group
from lobby.selectors.clubs import club_group
from moderation.standing import refuse_if_suspended

if TYPE_CHECKING:
    from accounts.models import User

INVITE_BYTES = 12  # 16 URL-safe characters
STAFF_ROLES = (ClubMember.Role.OWNER, ClubMember.Role.ADMIN)
# A match not yet started: it may still be answered or called off.
OPEN_MATCHES = (ClubMatch.Status.PROPOSED, ClubMatch.Status.ACCEPTED)


def locked_club(club_id: object) -> Club:
    """The live club of ``club_id`` (a client's value), its row locked: the
    club's lock orders every change of its members and roles."""
    pk = row_pk(club_id)
    club = (
        None
        if pk is None
        else Club.objects.select_for_update().filter(pk=pk, dissolved__isnull=True).first()
    )
    if club is None:
        raise GameError("not_found", gettext_noop("There is no such club."), status=404)
    return club


def refuse_unfit(account: User, message: str) -> None:
    """What keeps an account out of creating and joining clubs: being a guest
    (``message``, a gettext_noop text, says what they tried), a suspension."""
    if is_guest(account):
        raise GameError("guest", message, status=403)
    refuse_if_suspended(account)


def membership(club: Club, user_id: int) -> ClubMember | None:
    return ClubMember.objects.filter(club=club, user_id=user_id).first()


def refuse_unless_staff(club: Club, user_id: int) -> ClubMember:
    """The caller's membership if they are the club's owner or an admin."""
    found = membership(club, user_id)
    if found is None or found.role not in STAFF_ROLES:
        raise GameError(
            "forbidden", gettext_noop("Only the club's owner and admins may do this."), status=403
        )
    return found


def new_invite() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


def senior_admin(club: Club, *, but: int) -> ClubMember | None:
    """The longest-standing admin other than user ``but`` (the owner's heir)."""
    return (
        ClubMember.objects.filter(club=club, role=ClubMember.Role.ADMIN)
        .exclude(user_id=but)
        .order_by("joined", "id")
        .first()
    )


def hand_over(club: Club, owner: ClubMember, heir: ClubMember) -> None:
    """``heir`` becomes the owner; the old owner is an admin (the caller then
    removes them if they leave). The old owner steps down first: one owner a
    club (``club_one_owner``)."""
    owner.role = ClubMember.Role.ADMIN
    owner.save(update_fields=["role"])
    heir.role = ClubMember.Role.OWNER
    heir.save(update_fields=["role"])


def dissolve(club: Club) -> None:
    """The last member left: the club stays for its tournaments' records,
    hidden, closed, without a code; its name is free again."""
    ClubGame.objects.filter(club=club).delete()
    club.dissolved = timezone.now()
    club.open = False
    club.invite = ""
    club.save(update_fields=["dissolved", "open", "invite"])
    _call_off_open_matches(club)


def _call_off_open_matches(club: Club) -> None:
    """A dissolved club plays no match it has not started: its challenges
    and accepted matches are called off (a running match plays on)."""
    mine = Q(home=club) | Q(away=club)
    for match in ClubMatch.objects.select_for_update().filter(mine, status__in=OPEN_MATCHES):
        call_off(match)


def call_off(match: ClubMatch) -> None:
    """The match (locked, not started) is called off; its pages hear it."""
    match.status, match.ended = ClubMatch.Status.CANCELLED, timezone.now()
    match.save(update_fields=["status", "ended"])
    tell_match(match)


def tell_match(match: ClubMatch) -> None:
    """After the commit: the match's page and both clubs' pages fetch it again."""
    body = {"id": match.pk, "status": match.status}
    publish.send(club_match_group(match.pk), {"type": "club_match.changed", "match": body})
    for club_id in (match.home_id, match.away_id):
        publish.send(club_group(club_id), {"type": "club.changed", "club": {"id": club_id}})


def tell_club(club: Club) -> None:
    """After the commit: the club's open pages hear that it changed (and fetch it again)."""
    publish.send(club_group(club.pk), {"type": "club.changed", "club": {"id": club.pk}})
