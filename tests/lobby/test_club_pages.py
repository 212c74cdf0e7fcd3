"""The club pages: the list (search, pages, create), a club's page (join by
code and by the invite link, leave, roles, the invite code shown only to its
owner and admins), the player page's clubs."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from lobby import clubs as svc
from lobby.models import Club, ClubMember, Tournament
from lobby.selectors import clubs as read
from tests.factories import make_user, started_game


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def closed_club(owner, name="Spieleabend"):
    return svc.club_create(creator=owner, name=name, description="Freitags", open=False)


@pytest.mark.django_db
def test_create_from_the_list_and_find_it_by_name():
    owner = make_user()
    answer = page_client(owner).post(
        "/clubs/", {"name": "Halma Freunde", "description": "Wir", "closed": "on"}
    )
    club = Club.objects.get(name="Halma Freunde")
    assert answer.status_code == 302 and answer["Location"] == f"/clubs/{club.pk}/"
    assert not club.open and club.invite
    assert ClubMember.objects.get(club=club).role == ClubMember.Role.OWNER
    svc.club_create(creator=make_user(), name="Malefiz Runde")
    found = Client().get("/clubs/", {"q": "halma"}).content.decode()
    assert "Halma Freunde" in found and "Malefiz Runde" not in found
    listing = Client().get("/clubs/").content.decode()
    assert "Halma Freunde" in listing and "Malefiz Runde" in listing
    assert 'data-testid="club-form"' not in listing  # nobody signed in


@pytest.mark.django_db
def test_bad_input_is_a_message_and_changes_nothing():
    user = make_user()
    answer = page_client(user).post("/clubs/", {"name": "x"}, follow=True)
    assert Club.objects.count() == 0
    assert "characters" in answer.content.decode()
    guest = make_user()
    guest.is_guest = True
    guest.save()
    page = page_client(guest).get("/clubs/").content.decode()
    assert 'data-testid="club-form"' not in page
    page_client(guest).post("/clubs/", {"name": "Gäste"})
    assert Club.objects.count() == 0
    assert Client().post("/clubs/", {"name": "Anonym"}).status_code == 302
    assert Club.objects.count() == 0


@pytest.mark.django_db
def test_the_list_pages(settings):
    owners = [make_user() for _ in range(read.LIST_PAGE + 2)]
    for i, owner in enumerate(owners):
        svc.club_create(creator=owner, name=f"Klub Nummer {i:03}")
    first = Client().get("/clubs/").content.decode()
    second = Client().get("/clubs/?page=2").content.decode()
    assert "Klub Nummer 031" in first and "Klub Nummer 000" not in first
    assert "Klub Nummer 000" in second and 'rel="prev"' in second and 'rel="next"' in first
    assert Client().get("/clubs/?page=abc").status_code == 200


@pytest.mark.django_db
def test_the_invite_code_is_only_in_the_owners_and_admins_page():
    owner, admin, member, outsider = make_user(), make_user(), make_user(), make_user()
    club = closed_club(owner)
    code = club.invite
    svc.club_join(club_id=club.pk, user=admin, invite=code)
    svc.club_join(club_id=club.pk, user=member, invite=code)
    svc.club_set_role(club_id=club.pk, user=owner, username=admin.username, role="admin")
    url = f"/clubs/{club.pk}/"
    for who in (owner, admin):
        page = page_client(who).get(url).content.decode()
        assert code in page and f"/clubs/{club.pk}/join/?invite={code}" in page
    for client in (page_client(member), page_client(outsider), Client()):
        page = client.get(url).content.decode()
        assert code not in page
        assert 'data-testid="club-invite"' not in page
    assert code not in page_client(outsider).get("/clubs/").content.decode()
    assert code not in page_client(member).get(f"/players/{owner.username}/").content.decode()


@pytest.mark.django_db
def test_join_by_code_and_by_the_invite_link_and_leave():
    owner, anna, bernd = make_user(), make_user(), make_user()
    club = closed_club(owner)
    url = f"/clubs/{club.pk}/"
    wrong = page_client(anna).post(url, {"action": "join", "invite": "nope"}, follow=True)
    assert "invite code" in wrong.content.decode()
    assert not read.is_member(club.pk, anna.pk)
    page_client(anna).post(url, {"action": "join", "invite": club.invite})
    assert read.is_member(club.pk, anna.pk)
    link = f"/clubs/{club.pk}/join/?invite={club.invite}"
    assert Client().get(link)["Location"].startswith("/accounts/login/") or (
        Client().get(link).status_code == 302
    )
    confirm = page_client(bernd).get(link)
    assert confirm.status_code == 200 and not read.is_member(club.pk, bernd.pk)  # a GET never joins
    form = confirm.content.decode()
    assert f'action="{url}"' in form
    invite = re.search(r'name="invite" value="([^"]+)"', form).group(1)
    page_client(bernd).post(url, {"action": "join", "invite": invite})
    assert read.is_member(club.pk, bernd.pk)
    assert page_client(bernd).get(link)["Location"] == url  # a member: to the club
    left = page_client(bernd).post(url, {"action": "leave"})
    assert left["Location"] == "/clubs/" and not read.is_member(club.pk, bernd.pk)
    assert Client().get("/clubs/99999/").status_code == 404
    assert page_client(anna).post(url, {"action": "dance"}).status_code == 302


@pytest.mark.django_db
def test_owner_renews_revokes_and_changes_roles_from_the_page():
    owner, anna = make_user(), make_user()
    club = closed_club(owner)
    svc.club_join(club_id=club.pk, user=anna, invite=club.invite)
    url = f"/clubs/{club.pk}/"
    old = club.invite
    page_client(owner).post(url, {"action": "renew"})
    club.refresh_from_db()
    assert club.invite and club.invite != old
    page_client(anna).post(url, {"action": "revoke"})  # not an admin: refused
    club.refresh_from_db()
    assert club.invite
    page_client(owner).post(url, {"action": "role", "change": f"admin {anna.username}"})
    assert read.role_of(club.pk, anna) == "admin"
    assert 'data-testid="club-invite"' in page_client(anna).get(url).content.decode()
    page_client(anna).post(url, {"action": "revoke"})
    club.refresh_from_db()
    assert club.invite == ""
    page_client(owner).post(url, {"action": "role", "change": f"removed {anna.username}"})
    assert not read.is_member(club.pk, anna.pk)


@pytest.mark.django_db
def test_the_page_shows_members_ratings_games_and_the_profile_lists_clubs():
    owner, anna = make_user(), make_user()
    club = svc.club_create(creator=owner, name="Offene Runde")
    svc.club_join(club_id=club.pk, user=anna)
    game = started_game("halma", [anna, make_user()])
    page = Client().get(f"/clubs/{club.pk}/").content.decode()
    assert anna.username in page and f'href="/g/{game.pk}/"' in page
    assert 'data-testid="club-join"' not in page  # nobody signed in
    profile = Client().get(f"/players/{anna.username}/").content.decode()
    assert 'data-testid="player-clubs"' in profile and f"/clubs/{club.pk}/" in profile


@pytest.mark.django_db
def test_the_club_tournament_link_sets_the_club_in_the_tournament_form():
    owner, member = make_user(), make_user()
    club = svc.club_create(creator=owner, name="Turnierclub")
    svc.club_join(club_id=club.pk, user=member)
    assert "club-new-tournament" in page_client(owner).get(f"/clubs/{club.pk}/").content.decode()
    assert "club-new-tournament" not in (
        page_client(member).get(f"/clubs/{club.pk}/").content.decode()
    )
    form = page_client(owner).get(f"/tournaments/?club={club.pk}").content.decode()
    assert f'name="club" value="{club.pk}"' in form
    fields = {"name": "Vereinsmeisterschaft", "ruleset": "halma", "system": "round_robin"}
    page_client(owner).post("/tournaments/", {**fields, "club": club.pk})
    made = Tournament.objects.get(name="Vereinsmeisterschaft")
    assert made.club_id == club.pk
    assert "Vereinsmeisterschaft" in Client().get(f"/clubs/{club.pk}/").content.decode()
    page_client(member).post("/tournaments/", {**fields, "name": "Fremd", "club": club.pk})
    assert not Tournament.objects.filter(name="Fremd").exists()  # club_only: a message
