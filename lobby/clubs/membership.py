"""Joining and leaving a club, and the roles its owner and admins give.

Rules (docs/clubs.md): an open club lets anyone with an account in, a
closed one only with its invite code (403 ``invite_required``), and so does
any club for someone its staff removed. The owner and admins change roles
and remove members; an admin changes members' roles only (never the
owner's, never another admin's). An owner who leaves hands the club to the
longest-standing admin; with no admin but other members they are refused
(409 ``owner_must_hand_over``); the last member leaving dissolves the club.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_noop

from games.errors import GameError
from games.services.internal.guards import lock_user
from games.users import signed_in
from lobby.models import Club, ClubMember, ClubRemoval

from .internal.common import (
    dissolve,
    hand_over,
    locked_club,
    membership,
    refuse_unfit,
    refuse_unless_staff,
    senior_admin,
    tell_club,
)
from .internal.live_games import add_member_games, drop_member_games

if TYPE_CHECKING:
    from games.users import Visitor

INVITE_MAX = 64
ROLES = {
    "owner": ClubMember.Role.OWNER,
    "admin": ClubMember.Role.ADMIN,
    "member": ClubMember.Role.MEMBER,
}
REMOVED = "removed"


def club_join(*, club_id: object, user: Visitor | None, invite: object = None) -> Club:
    """Join a club: an open one as it is, a closed one with its ``invite``
    code. Joining a club one is in already changes nothing."""
    account = signed_in(user, gettext_noop("Log in to join a club."))
    refuse_unfit(account, gettext_noop("Sign up to join a club."))
    if invite is not None and (not isinstance(invite, str) or len(invite) > INVITE_MAX):
        raise GameError("bad_request", gettext_noop('"invite" must be a club\'s invite code.'))
    with transaction.atomic():
        lock_user(account.pk)  # joins of one account at once count each other
        club = locked_club(club_id)
        if membership(club, account.pk) is not None:
            return club
        removed = ClubRemoval.objects.filter(club=club, user=account).first()
        if (not club.open or removed is not None) and not _invite_fits(club, invite):
            raise GameError(
                "invite_required",
                gettext_noop("This club is joined with its invite code; ask its admins.")
                if removed is None
                else gettext_noop(
                    "You were removed from this club; its invite code lets you back."
                ),
                status=403,
            )
        clubs = ClubMember.objects.filter(user=account, club__dissolved__isnull=True).count()
        if clubs >= settings.CLUB_MEMBERSHIPS_PER_USER:
            raise GameError(
                "too_many_clubs",
                gettext_noop("You are in %(n)s clubs, the most one player may be in."),
                status=403,
                n=clubs,
            )
        if removed is not None:
            removed.delete()
        ClubMember.objects.create(club=club, user=account, role=ClubMember.Role.MEMBER)
        add_member_games(club, account.pk)
        tell_club(club)
    return club


def _invite_fits(club: Club, invite: object) -> bool:
    return (
        bool(club.invite)
        and isinstance(invite, str)
        and secrets.compare_digest(club.invite.encode(), invite.encode())
    )


def club_leave(*, club_id: object, user: Visitor | None) -> Club:
    """Leave a club. An owner hands it to the longest-standing admin (or is
    refused while there is none but other members are); the last member
    leaving dissolves it."""
    account = signed_in(user)
    with transaction.atomic():
        club = locked_club(club_id)
        mine = _refuse_unless_member(club, account.pk)
        if mine.role == ClubMember.Role.OWNER:
            if ClubMember.objects.filter(club=club).exclude(pk=mine.pk).exists():
                heir = senior_admin(club, but=account.pk)
                if heir is None:
                    raise GameError(
                        "owner_must_hand_over",
                        gettext_noop(
                            "Make a member an admin (or the owner) first: "
                            "the club's owner leaves it to an admin."
                        ),
                        status=409,
                    )
                hand_over(club, mine, heir)
            else:
                mine.delete()
                dissolve(club)
                tell_club(club)
                return club
        mine.delete()
        drop_member_games(club, account.pk)
        tell_club(club)
    return club


def club_set_role(*, club_id: object, user: Visitor | None, username: object, role: object) -> Club:
    """The club's owner or an admin gives ``username`` a role ("admin",
    "member"), or removes them ("removed"). Only the owner changes an
    admin's role; nobody changes the owner's. The owner hands the club over
    with "owner" (and is an admin then). An admin may step down to member."""
    account = signed_in(user)
    if not isinstance(role, str) or role not in (*ROLES, REMOVED):
        raise GameError(
            "bad_request", gettext_noop('"role" must be "admin", "member" or "removed".')
        )
    if not isinstance(username, str) or not 0 < len(username) <= 150:
        raise _no_player()
    with transaction.atomic():
        club = locked_club(club_id)
        actor = refuse_unless_staff(club, account.pk)
        target_user = get_user_model().objects.filter(username=username).first()
        if target_user is None:
            raise _no_player()
        target = membership(club, target_user.pk)
        if target is None:
            raise GameError(
                "not_member",
                gettext_noop("%(name)s is not a member of this club."),
                status=404,
                name=username,
            )
        if target.pk == actor.pk:
            _change_own_role(actor, role)
        else:
            _change_role(club, actor, target, role)
        tell_club(club)
    return club


def _change_own_role(me: ClubMember, role: str) -> None:
    if role == REMOVED:
        raise GameError("use_leave", gettext_noop("To leave the club, leave it."))
    if ROLES[role] == me.role:
        return
    if me.role == ClubMember.Role.OWNER:
        raise GameError(
            "owner_must_hand_over",
            gettext_noop("The owner hands the club over: give another member the role owner."),
            status=409,
        )
    if role != "member":  # an admin steps down
        raise _forbidden()
    me.role = ClubMember.Role.MEMBER
    me.save(update_fields=["role"])


def _change_role(club: Club, actor: ClubMember, target: ClubMember, role: str) -> None:
    if target.role == ClubMember.Role.OWNER:
        raise _forbidden()
    if target.role == ClubMember.Role.ADMIN and actor.role != ClubMember.Role.OWNER:
        raise _forbidden()
    if role == REMOVED:
        target.delete()
        drop_member_games(club, target.user_id)
        ClubRemoval.objects.get_or_create(club=club, user_id=target.user_id)
    elif role == "owner":
        if actor.role != ClubMember.Role.OWNER:
            raise _forbidden()
        hand_over(club, actor, target)
    elif ROLES[role] != target.role:
        target.role = ROLES[role]
        target.save(update_fields=["role"])


def _refuse_unless_member(club: Club, user_id: int) -> ClubMember:
    found = membership(club, user_id)
    if found is None:
        raise GameError("not_member", gettext_noop("You are not a member of this club."))
    return found


def _no_player() -> GameError:
    return GameError("not_found", gettext_noop("There is no such player."), status=404)


def _forbidden() -> GameError:
    return GameError(
        "forbidden",
        gettext_noop(
            "Only the owner changes an admin's role or hands the club over; "
            "nobody changes the owner's."
        ),
        status=403,
    )
