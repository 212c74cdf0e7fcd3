"""A club's invite code: its owner and admins renew it (the old one stops
working) or revoke it (nobody joins a closed club with a code then)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from games.users import signed_in
from lobby.models import Club

from .internal.common import locked_club, new_invite, refuse_unless_staff, tell_club

if TYPE_CHECKING:
    from games.users import Visitor


def club_invite_renew(*, club_id: object, user: Visitor | None) -> Club:
    """A new invite code; the old one lets nobody in any more."""
    return _set_invite(club_id, user, new_invite())


def club_invite_revoke(*, club_id: object, user: Visitor | None) -> Club:
    """No invite code: a closed club takes nobody new until it is renewed."""
    return _set_invite(club_id, user, "")


def _set_invite(club_id: object, user: Visitor | None, code: str) -> Club:
    account = signed_in(user)
    with transaction.atomic():
        club = locked_club(club_id)
        refuse_unless_staff(club, account.pk)
        club.invite = code
        club.save(update_fields=["invite"])
        tell_club(club)
    return club
