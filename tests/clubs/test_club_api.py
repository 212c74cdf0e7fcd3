"""The clubs' API (shapes fixed in the design card): create, list, detail,
join, leave, roles, invite codes, club tournaments; every bad request a
clear 4xx that changes nothing; the invite code never shown to a non-admin."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from accounts.services.guests import guest_create
from lobby.models import Club, ClubMember, Tournament
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db

TOURNAMENT = {
    "name": "Vereinsturnier",
    "ruleset": "halma",
    "system": "swiss",
    "rounds": 3,
    "clock": {"kind": "correspondence", "days": 3},
}


def create(client: APIClient, **body):
    return client.post("/api/clubs/", {"name": "Spieleabend", **body}, format="json")


def closed_club():
    owner = make_user("owner")
    answer = create(client_for(owner), open=False).json()
    return owner, answer


def test_create_answers_the_fixed_shape_and_the_code_to_its_owner():
    owner = make_user("owner")
    response = create(client_for(owner), description="Dienstags", open=False)
    assert response.status_code == 201
    club = response.json()
    fixed = {"id", "name", "description", "open", "members", "games", "tournaments", "invite"}
    assert fixed <= set(club)
    assert club["members"] == [
        {
            "username": "owner",
            "role": "owner",
            "joined": club["members"][0]["joined"],
            "ratings": {},
        }
    ]
    assert club["games"] == [] and club["tournaments"] == [] and club["open"] is False
    assert club["invite"] == Club.objects.get(pk=club["id"]).invite and len(club["invite"]) >= 16
    assert club["my_role"] == "owner" and club["member_count"] == 1


def test_guests_and_anonymous_visitors_cannot_create_or_join():
    guest = client_for(guest_create())
    refused = create(guest)
    assert refused.status_code == 403 and refused.json()["code"] == "guest"
    club = create(client_for(make_user())).json()
    refused = guest.post(f"/api/clubs/{club['id']}/join/", {}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "guest"
    anonymous = APIClient()
    assert create(anonymous).status_code in (401, 403)
    assert anonymous.post(f"/api/clubs/{club['id']}/join/").status_code in (401, 403)
    assert Club.objects.count() == 1 and ClubMember.objects.count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": None},
        {"name": 5},
        {"name": {"x": 1}},
        {"name": "ok name", "open": "no"},
        {"name": "ok name", "description": ["x"]},
        {"name": "ok name", "description": "x" * 5000},
        [1, 2],
        "text",
    ],
)
def test_bad_bodies_are_400_and_make_nothing(body):
    response = client_for(make_user()).post("/api/clubs/", body, format="json")
    assert response.status_code == 400, response.content
    assert "code" in response.json()
    assert not Club.objects.exists()


def test_a_huge_body_is_refused_before_parsing():
    body = json.dumps({"name": "Riesig", "description": "x" * 100_000})
    response = client_for(make_user()).post("/api/clubs/", body, content_type="application/json")
    assert response.status_code == 413
    assert not Club.objects.exists()


def test_unknown_clubs_and_players_are_404():
    owner = make_user("owner")
    client = client_for(owner)
    club = create(client).json()
    for path in ("/api/clubs/999999/", f"/api/clubs/{10**25}/"):
        assert client.get(path).status_code == 404
    for action in ("join", "leave", "invite"):
        response = client.post(f"/api/clubs/999999/{action}/", {}, format="json")
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    role = client.post(f"/api/clubs/{club['id']}/members/nobody/", {"role": "admin"}, format="json")
    assert role.status_code == 404 and role.json()["code"] == "not_found"
    make_user("stranger")
    role = client.post(
        f"/api/clubs/{club['id']}/members/stranger/", {"role": "admin"}, format="json"
    )
    assert role.status_code == 404 and role.json()["code"] == "not_member"
    for bad in ({"role": "king"}, {"role": 1}, {}, {"role": None}):
        response = client.post(f"/api/clubs/{club['id']}/members/owner/", bad, format="json")
        assert response.status_code == 400
    assert client.get("/api/clubs/?page=x").status_code == 400
    assert client.get(f"/api/clubs/{club['id']}/?members_page=x").status_code == 400


def test_a_closed_club_is_joined_with_its_code():
    _owner, club = closed_club()
    ben = client_for(make_user("ben"))
    for body in ({}, {"invite": "wrong"}, {"invite": None}):
        refused = ben.post(f"/api/clubs/{club['id']}/join/", body, format="json")
        assert refused.status_code == 403 and refused.json()["code"] == "invite_required"
    assert (
        ben.post(f"/api/clubs/{club['id']}/join/", {"invite": 5}, format="json").status_code == 400
    )
    joined = ben.post(f"/api/clubs/{club['id']}/join/", {"invite": club["invite"]}, format="json")
    assert joined.status_code == 200
    assert [m["username"] for m in joined.json()["members"]] == ["owner", "ben"]
    assert joined.json()["my_role"] == "member"


def test_the_code_never_reaches_a_non_admin():
    """Not in any answer of the API to a member, an outsider, a guest or an
    anonymous visitor: the club, the list, a search, a profile, a tournament."""
    owner, club = closed_club()
    code = club["invite"]
    member = make_user("mem")
    member_client = client_for(member)
    joined = member_client.post(f"/api/clubs/{club['id']}/join/", {"invite": code}, format="json")
    assert code not in joined.content.decode()
    tournament = client_for(owner).post(
        "/api/tournaments/", {**TOURNAMENT, "club": club["id"]}, format="json"
    )
    assert tournament.status_code == 201
    viewers = [member_client, client_for(make_user()), client_for(guest_create()), APIClient()]
    paths = [
        f"/api/clubs/{club['id']}/",
        f"/api/clubs/{club['id']}/?page=2",
        "/api/clubs/",
        "/api/clubs/?q=Spiel",
        "/api/players/owner/",
        "/api/players/mem/",
        f"/api/tournaments/{tournament.json()['id']}/",
        "/api/tournaments/",
    ]
    for viewer in viewers:
        for path in paths:
            response = viewer.get(path)
            assert response.status_code == 200, path
            assert code not in response.content.decode(), path
            assert "invite" not in response.json(), path
    # An admin sees it; demoted, no longer.
    client_for(owner).post(
        f"/api/clubs/{club['id']}/members/mem/", {"role": "admin"}, format="json"
    )
    assert member_client.get(f"/api/clubs/{club['id']}/").json()["invite"] == code
    client_for(owner).post(
        f"/api/clubs/{club['id']}/members/mem/", {"role": "member"}, format="json"
    )
    assert code not in member_client.get(f"/api/clubs/{club['id']}/").content.decode()


def test_renew_and_revoke_the_code():
    owner, club = closed_club()
    client = client_for(owner)
    renewed = client.post(f"/api/clubs/{club['id']}/invite/")
    assert renewed.status_code == 200 and renewed.json()["invite"] not in (None, club["invite"])
    revoked = client.delete(f"/api/clubs/{club['id']}/invite/")
    assert revoked.status_code == 200 and revoked.json()["invite"] is None
    stranger = client_for(make_user())
    refused = stranger.post(f"/api/clubs/{club['id']}/invite/")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert "invite" not in refused.json()


def test_roles_leave_and_hand_over_over_the_api():
    owner = make_user("owner")
    owner_client = client_for(owner)
    club = create(owner_client).json()
    ben, cleo = client_for(make_user("ben")), client_for(make_user("cleo"))
    for client in (ben, cleo):
        assert client.post(f"/api/clubs/{club['id']}/join/", {}, format="json").status_code == 200
    refused = owner_client.post(f"/api/clubs/{club['id']}/leave/")
    assert refused.status_code == 409 and refused.json()["code"] == "owner_must_hand_over"
    made = owner_client.post(
        f"/api/clubs/{club['id']}/members/ben/", {"role": "admin"}, format="json"
    )
    assert made.status_code == 200
    assert {m["username"]: m["role"] for m in made.json()["members"]}["ben"] == "admin"
    refused = ben.post(
        f"/api/clubs/{club['id']}/members/owner/", {"role": "removed"}, format="json"
    )
    assert refused.status_code == 403
    removed = ben.post(f"/api/clubs/{club['id']}/members/cleo/", {"role": "removed"}, format="json")
    assert [m["username"] for m in removed.json()["members"]] == ["owner", "ben"]
    back = cleo.post(f"/api/clubs/{club['id']}/join/", {}, format="json")
    assert back.status_code == 403 and back.json()["code"] == "invite_required"
    left = owner_client.post(f"/api/clubs/{club['id']}/leave/")
    assert left.status_code == 200 and left.json() == {"id": club["id"], "dissolved": False}
    after = APIClient().get(f"/api/clubs/{club['id']}/").json()
    assert [(m["username"], m["role"]) for m in after["members"]] == [("ben", "owner")]
    last = ben.post(f"/api/clubs/{club['id']}/leave/")
    assert last.json() == {"id": club["id"], "dissolved": True}
    assert APIClient().get(f"/api/clubs/{club['id']}/").status_code == 404


def test_the_list_pages_and_searches_without_members():
    owner = make_user()
    for n, name in enumerate(["Halma Nord", "Malefiz Süd", "Halma West"]):
        Club.objects.create(name=name, creator=owner)
        ClubMember.objects.create(club=Club.objects.get(name=name), user=make_user(f"m{n}"))
    listed = APIClient().get("/api/clubs/").json()
    assert [c["name"] for c in listed["items"]] == ["Halma West", "Malefiz Süd", "Halma Nord"]
    assert listed["page"] == 1 and listed["more"] is False
    assert all("members" not in c and "invite" not in c for c in listed["items"])
    assert listed["items"][0]["member_count"] == 1
    found = APIClient().get("/api/clubs/?q=halma").json()["items"]
    assert {c["name"] for c in found} == {"Halma Nord", "Halma West"}
    assert APIClient().get("/api/clubs/?q=HA1MA").json()["items"] == found  # a look-alike
    assert APIClient().get("/api/clubs/?page=2").json()["items"] == []


def test_club_tournaments_are_for_members_made_by_owners_and_admins():
    owner = make_user("owner")
    club = create(client_for(owner)).json()
    member, outsider = make_user("mem"), make_user("out")
    client_for(member).post(f"/api/clubs/{club['id']}/join/", {}, format="json")
    body = {**TOURNAMENT, "club": club["id"], "play": False}
    refused = client_for(member).post("/api/tournaments/", body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "club_only"
    refused = client_for(outsider).post("/api/tournaments/", body, format="json")
    assert refused.status_code == 403
    for bad in (999999, "x", [1]):
        wrong = client_for(owner).post("/api/tournaments/", {**body, "club": bad}, format="json")
        assert wrong.status_code == 404
    assert not Tournament.objects.exists()
    made = client_for(owner).post("/api/tournaments/", body, format="json")
    assert made.status_code == 201 and made.json()["club"] == club["id"]
    tid = made.json()["id"]
    refused = client_for(outsider).post(f"/api/tournaments/{tid}/join/")
    assert refused.status_code == 403 and refused.json()["code"] == "club_only"
    assert client_for(member).post(f"/api/tournaments/{tid}/join/").status_code == 200
    assert APIClient().get(f"/api/clubs/{club['id']}/").json()["tournaments"] == [tid]
    listed = APIClient().get("/api/tournaments/").json()["items"]
    assert listed[0]["club"] == club["id"]
    # An admin creates one too; a plain tournament has no club.
    client_for(owner).post(
        f"/api/clubs/{club['id']}/members/mem/", {"role": "admin"}, format="json"
    )
    assert client_for(member).post("/api/tournaments/", body, format="json").status_code == 201
    plain = client_for(outsider).post("/api/tournaments/", TOURNAMENT, format="json")
    assert plain.status_code == 201 and plain.json()["club"] is None


def test_a_players_profile_lists_their_clubs():
    owner = make_user("owner")
    club = create(client_for(owner)).json()
    profile = APIClient().get("/api/players/owner/").json()
    assert profile["clubs"] == [{"id": club["id"], "name": "Spieleabend", "role": "owner"}]


@pytest.fixture
def clubs_3_an_hour(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "clubs": "3/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_joins_and_invites_are_throttled(clubs_3_an_hour):
    owner, club = closed_club()  # the owner's first "clubs" write
    client = client_for(owner)
    assert client.post(f"/api/clubs/{club['id']}/invite/").status_code == 200
    assert client.delete(f"/api/clubs/{club['id']}/invite/").status_code == 200
    refused = client.post(f"/api/clubs/{club['id']}/invite/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert Club.objects.get(pk=club["id"]).invite == ""  # nothing changed
    joiner = client_for(make_user())
    codes = [
        joiner.post(f"/api/clubs/{club['id']}/join/", {}, format="json").status_code
        for _ in range(4)
    ]
    assert codes == [403, 403, 403, 429]
