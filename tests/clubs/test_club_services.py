"""Club services (lobby/clubs/): creating, joining, leaving, roles, invite
codes, account deletion; every refusal changes nothing."""

from __future__ import annotations

import pytest

from accounts.services.guests import guest_create
from games.errors import GameError
from lobby.clubs import (
    club_create,
    club_invite_renew,
    club_invite_revoke,
    club_join,
    club_leave,
    club_set_role,
)
from lobby.models import Club, ClubMember
from lobby.selectors.clubs import club_detail, clubs_of
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def roles(club: Club) -> dict[str, str]:
    return {m["username"]: m["role"] for m in club_detail(club, None)["members"]}


def refused(code: str, call, *args, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


def test_the_creator_owns_a_new_club():
    anna = make_user("anna")
    club = club_create(creator=anna, name="  Spieleabend   Nord ", description="Dienstags")
    assert club.name == "Spieleabend Nord" and club.open and club.invite == ""
    assert roles(club) == {"anna": "owner"}
    assert clubs_of(anna.pk) == [{"id": club.pk, "name": "Spieleabend Nord", "role": "owner"}]


def test_a_closed_club_gets_a_secret_code():
    club = club_create(creator=make_user(), name="Geheimbund", open=False)
    assert len(club.invite) >= 16
    other = club_create(creator=make_user(), name="Geheimbund Zwei", open=False)
    assert other.invite != club.invite


def test_guests_and_strangers_cannot_create_or_join():
    guest = guest_create()
    assert refused("guest", club_create, creator=guest, name="Gäste").status == 403
    club = club_create(creator=make_user(), name="Offen")
    assert refused("guest", club_join, club_id=club.pk, user=guest).status == 403
    from django.contrib.auth.models import AnonymousUser

    assert refused("login_required", club_join, club_id=club.pk, user=AnonymousUser())
    assert ClubMember.objects.filter(club=club).count() == 1
    assert not Club.objects.filter(name="Gäste").exists()


@pytest.mark.parametrize(
    "name",
    [
        "",
        "ab",
        "x" * 51,
        None,
        7,
        ["Club"],
        "Admins Club",
        "Staff",
        "bad\x00name",
        "---",
        "a\u200bbc",
    ],
)
def test_bad_names_are_refused(name):
    refused("bad_name", club_create, creator=make_user(), name=name)
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    "taken",
    ["halma freunde", "HALMA FREUNDE", "Ha1ma Freunde", "Halma_Freunde", "\u041d\u0430lma Freunde"],
)
def test_names_are_unique_without_case_and_look_alikes(taken):
    club_create(creator=make_user(), name="Halma Freunde")
    error = refused("name_taken", club_create, creator=make_user(), name=taken)
    assert error.status == 409
    assert Club.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [("description", 5), ("description", "x" * 1001), ("description", "a\x00b"), ("open", "yes")],
)
def test_bad_fields_are_refused(field, value):
    refused("bad_request", club_create, creator=make_user(), name="Klub", **{field: value})
    assert not Club.objects.exists()


def test_clubs_per_user_is_a_setting(settings):
    settings.CLUBS_PER_USER = 2
    anna = make_user()
    club_create(creator=anna, name="Eins")
    club_create(creator=anna, name="Zwei")
    assert refused("too_many_clubs", club_create, creator=anna, name="Drei").status == 403
    assert Club.objects.count() == 2
    club_create(creator=make_user(), name="Drei")  # another player's own count


def test_memberships_per_user_are_limited(settings):
    settings.CLUB_MEMBERSHIPS_PER_USER = 1
    ben = make_user()
    first = club_create(creator=make_user(), name="Erster")
    second = club_create(creator=make_user(), name="Zweiter")
    club_join(club_id=first.pk, user=ben)
    refused("too_many_clubs", club_join, club_id=second.pk, user=ben)


def test_joining_an_open_club_and_again_changes_nothing():
    club = club_create(creator=make_user("owner1"), name="Offen")
    ben = make_user("ben")
    club_join(club_id=club.pk, user=ben)
    club_join(club_id=club.pk, user=ben)
    assert roles(club) == {"owner1": "owner", "ben": "member"}


def test_a_closed_club_needs_its_current_code():
    club = club_create(creator=make_user("owner1"), name="Zugeschlossen", open=False)
    ben = make_user("ben")
    for code in (None, "", "wrong", club.invite[:-1]):
        assert (
            refused("invite_required", club_join, club_id=club.pk, user=ben, invite=code).status
            == 403
        )
    refused("bad_request", club_join, club_id=club.pk, user=ben, invite=12)
    refused("bad_request", club_join, club_id=club.pk, user=ben, invite="x" * 65)
    old = club.invite
    renewed = club_invite_renew(club_id=club.pk, user=make_user_in(club, "owner1"))
    assert renewed.invite != old
    refused("invite_required", club_join, club_id=club.pk, user=ben, invite=old)
    club_join(club_id=club.pk, user=ben, invite=renewed.invite)
    assert "ben" in roles(club)


def make_user_in(club: Club, username: str):
    return ClubMember.objects.get(club=club, user__username=username).user


def test_a_revoked_code_lets_nobody_in():
    owner = make_user()
    club = club_create(creator=owner, name="Zugeschlossen", open=False)
    code = club.invite
    club_invite_revoke(club_id=club.pk, user=owner)
    assert Club.objects.get(pk=club.pk).invite == ""
    refused("invite_required", club_join, club_id=club.pk, user=make_user(), invite=code)
    refused("invite_required", club_join, club_id=club.pk, user=make_user(), invite="")


def test_only_owners_and_admins_renew_or_revoke():
    owner, admin, member = make_user(), make_user("adm"), make_user()
    club = club_create(creator=owner, name="Zugeschlossen", open=False)
    for user in (admin, member):
        club_join(club_id=club.pk, user=user, invite=club.invite)
    club_set_role(club_id=club.pk, user=owner, username="adm", role="admin")
    code = Club.objects.get(pk=club.pk).invite
    assert refused("forbidden", club_invite_renew, club_id=club.pk, user=member).status == 403
    refused("forbidden", club_invite_revoke, club_id=club.pk, user=make_user())
    assert Club.objects.get(pk=club.pk).invite == code
    assert club_invite_renew(club_id=club.pk, user=admin).invite != code


def test_the_invite_is_shown_to_owners_and_admins_only():
    owner, admin, member, outsider = make_user(), make_user("adm"), make_user(), make_user()
    club = club_create(creator=owner, name="Zugeschlossen", open=False)
    for user in (admin, member):
        club_join(club_id=club.pk, user=user, invite=club.invite)
    club_set_role(club_id=club.pk, user=owner, username="adm", role="admin")
    club.refresh_from_db()
    assert club_detail(club, owner)["invite"] == club.invite
    assert club_detail(club, admin)["invite"] == club.invite
    for viewer in (member, outsider, None):
        assert "invite" not in club_detail(club, viewer)


def test_roles_owner_and_admins():
    owner = make_user("own")
    club = club_create(creator=owner, name="Rollen")
    a1, a2, m1, m2 = (make_user(n) for n in ("a1", "a2", "m1", "m2"))
    for user in (a1, a2, m1, m2):
        club_join(club_id=club.pk, user=user)
    club_set_role(club_id=club.pk, user=owner, username="a1", role="admin")
    club_set_role(club_id=club.pk, user=a1, username="a2", role="admin")  # admins promote members
    # An admin touches neither the owner nor another admin.
    for target, role in (
        ("own", "member"),
        ("own", "removed"),
        ("a2", "member"),
        ("a2", "removed"),
    ):
        assert (
            refused(
                "forbidden", club_set_role, club_id=club.pk, user=a1, username=target, role=role
            ).status
            == 403
        )
    refused("forbidden", club_set_role, club_id=club.pk, user=a1, username="m1", role="owner")
    # Members change nothing.
    refused("forbidden", club_set_role, club_id=club.pk, user=m1, username="m2", role="removed")
    assert roles(club) == {
        "own": "owner",
        "a1": "admin",
        "a2": "admin",
        "m1": "member",
        "m2": "member",
    }
    # The owner demotes an admin; an admin steps down.
    club_set_role(club_id=club.pk, user=owner, username="a2", role="member")
    club_set_role(club_id=club.pk, user=a1, username="a1", role="member")
    assert roles(club)["a1"] == roles(club)["a2"] == "member"


def test_bad_role_requests():
    owner = make_user("own")
    club = club_create(creator=owner, name="Rollen")
    club_join(club_id=club.pk, user=make_user("m1"))
    make_user("outsider")
    for role in ("boss", None, 3, ["admin"]):
        refused("bad_request", club_set_role, club_id=club.pk, user=owner, username="m1", role=role)
    for name in ("nobody", "", None, 5, "x" * 151):
        assert (
            refused(
                "not_found", club_set_role, club_id=club.pk, user=owner, username=name, role="admin"
            ).status
            == 404
        )
    assert (
        refused(
            "not_member",
            club_set_role,
            club_id=club.pk,
            user=owner,
            username="outsider",
            role="admin",
        ).status
        == 404
    )
    for pk in (10**9, "abc", None, -1, True, 2**70):
        assert (
            refused(
                "not_found", club_set_role, club_id=pk, user=owner, username="m1", role="admin"
            ).status
            == 404
        )
    refused("use_leave", club_set_role, club_id=club.pk, user=owner, username="own", role="removed")
    refused(
        "owner_must_hand_over",
        club_set_role,
        club_id=club.pk,
        user=owner,
        username="own",
        role="member",
    )
    assert roles(club) == {"own": "owner", "m1": "member"}


def test_a_removed_member_comes_back_only_with_the_code():
    owner = make_user("own")
    club = club_create(creator=owner, name="Offen")
    ben = make_user("ben")
    club_join(club_id=club.pk, user=ben)
    club_set_role(club_id=club.pk, user=owner, username="ben", role="removed")
    assert "ben" not in roles(club)
    refused("invite_required", club_join, club_id=club.pk, user=ben)
    code = club_invite_renew(club_id=club.pk, user=owner).invite
    club_join(club_id=club.pk, user=ben, invite=code)
    club_leave(club_id=club.pk, user=ben)
    club_join(club_id=club.pk, user=ben)  # left of their own accord: the open door again


def test_the_owner_hands_over_by_role():
    owner, heir = make_user("own"), make_user("heir")
    club = club_create(creator=owner, name="Erbe")
    club_join(club_id=club.pk, user=heir)
    club_set_role(club_id=club.pk, user=owner, username="heir", role="owner")
    assert roles(club) == {"heir": "owner", "own": "admin"}


def test_an_owner_leaving_hands_over_to_the_longest_standing_admin():
    owner = make_user("own")
    club = club_create(creator=owner, name="Erbe")
    names = ("m_old", "a_old", "a_new")
    for name in names:
        club_join(club_id=club.pk, user=make_user(name))
    club_set_role(club_id=club.pk, user=owner, username="a_new", role="admin")
    club_set_role(club_id=club.pk, user=owner, username="a_old", role="admin")
    club_leave(club_id=club.pk, user=owner)
    assert roles(club) == {"a_old": "owner", "a_new": "admin", "m_old": "member"}


def test_an_owner_without_admins_is_refused_then_the_last_member_dissolves():
    owner, ben = make_user("own"), make_user("ben")
    club = club_create(creator=owner, name="Allein")
    club_join(club_id=club.pk, user=ben)
    assert refused("owner_must_hand_over", club_leave, club_id=club.pk, user=owner).status == 409
    assert roles(club) == {"own": "owner", "ben": "member"}
    club_leave(club_id=club.pk, user=ben)
    refused("not_member", club_leave, club_id=club.pk, user=ben)
    club_leave(club_id=club.pk, user=owner)
    gone = Club.objects.get(pk=club.pk)
    assert gone.dissolved is not None and not ClubMember.objects.filter(club=gone).exists()
    assert refused("not_found", club_join, club_id=club.pk, user=ben).status == 404
    club_create(creator=ben, name="Allein")  # the name is free again


def test_a_deleted_account_leaves_its_clubs():
    owner, admin, member = make_user("own"), make_user("adm"), make_user("mem")
    handed = club_create(creator=owner, name="Übergabe")
    for user in (member, admin):
        club_join(club_id=handed.pk, user=user)
    club_set_role(club_id=handed.pk, user=owner, username="adm", role="admin")
    to_member = club_create(creator=owner, name="Nur Mitglied")
    club_join(club_id=to_member.pk, user=member)
    alone = club_create(creator=owner, name="Allein")
    joined = club_create(creator=member, name="Fremd")
    club_join(club_id=joined.pk, user=owner)
    owner.delete()
    assert roles(handed) == {"adm": "owner", "mem": "member"}
    assert roles(to_member) == {"mem": "owner"}
    assert Club.objects.get(pk=alone.pk).dissolved is not None
    assert roles(joined) == {"mem": "owner"}
    assert Club.objects.get(pk=handed.pk).creator is None


def test_a_suspended_account_neither_creates_nor_joins():
    from moderation.services import user_moderate

    owner, suspended = make_user(), make_user("sus")
    club = club_create(creator=owner, name="Offen")
    user_moderate(
        moderator=make_user(moderator=True), username="sus", action="suspend", days=1, note="x"
    )
    assert refused("suspended", club_create, creator=suspended, name="Eigener").status == 403
    refused("suspended", club_join, club_id=club.pk, user=suspended)
    assert ClubMember.objects.filter(club=club).count() == 1
