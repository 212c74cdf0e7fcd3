"""A deleted account leaves its clubs (connected in lobby/apps.py).

It cannot be refused as leaving can: an owner's club goes to the
longest-standing admin, else to the longest-standing member; a club with
nobody else is dissolved. The membership rows then go with the account."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lobby.models import ClubMember

from .internal.common import dissolve, hand_over, locked_club, tell_club
from .internal.live_games import drop_member_games

if TYPE_CHECKING:
    from accounts.models import User


def on_account_deleted(sender: object, instance: User, **kwargs: object) -> None:
    """``pre_delete`` of an account, inside the delete's transaction."""
    owned = ClubMember.objects.filter(user=instance, role=ClubMember.Role.OWNER)
    for club_id in list(owned.values_list("club_id", flat=True)):
        club = locked_club(club_id)
        mine = ClubMember.objects.get(club=club, user=instance)
        heir = (
            ClubMember.objects.filter(club=club)
            .exclude(pk=mine.pk)
            .order_by("role", "joined", "id")
            .first()
        )
        if heir is None:
            dissolve(club)
        else:
            hand_over(club, mine, heir)
        tell_club(club)
    for membership in list(ClubMember.objects.filter(user=instance).select_related("club")):
        membership.delete()
        drop_member_games(membership.club, instance.pk)
