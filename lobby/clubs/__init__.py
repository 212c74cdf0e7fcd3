"""Club services: create, join, leave, roles, invite codes (docs/clubs.md).

Each public function is one transaction; the club's row is its lock.
"""

from .creation import club_create
from .invites import club_invite_renew, club_invite_revoke
from .membership import club_join, club_leave, club_set_role

__all__ = [
    "club_create",
    "club_invite_renew",
    "club_invite_revoke",
    "club_join",
    "club_leave",
    "club_set_role",
]
