"""A club's chat: members write (the games' chat rules: plain text, length,
rate, mutes); an open club's chat is public, a closed one's is its members'
and the moderators'; lines reach the sockets of those who may read them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.errors import GameError
from lobby import clubs as svc
from lobby.clubs.chat import club_chat_post
from lobby.models import ClubChatMessage
from lobby.selectors import club_page
from moderation.models import Report
from moderation.services import user_moderate
from tests.db_threads import sync_to_async
from tests.factories import client_for, make_user, started_game
from tests.games.test_consumers import connect, receive


def code_of(call) -> str:
    with pytest.raises(GameError) as info:
        call()
    return info.value.code


@pytest.mark.django_db
def test_members_write_by_the_chat_rules_and_bad_lines_change_nothing(settings):
    settings.CHAT_RATE = (2, 60)
    owner, member, outsider = make_user(), make_user(), make_user()
    club = svc.club_create(creator=owner, name="Plauderecke")
    svc.club_join(club_id=club.pk, user=member)
    post = lambda text, who=member: club_chat_post(club_id=club.pk, user=who, text=text)  # noqa: E731
    assert post("Hallo")["username"] == member.username
    assert code_of(lambda: post("   ")) == "bad_request"
    assert code_of(lambda: post("x" * 501)) == "too_long"
    assert code_of(lambda: post("a\u0000b")) == "bad_request"
    assert code_of(lambda: post(["list"])) == "bad_request"
    assert code_of(lambda: post("hi", outsider)) == "not_member"
    assert code_of(lambda: post("hi", AnonymousUser())) == "login_required"
    assert code_of(lambda: club_chat_post(club_id=999, user=owner, text="hi")) == "not_found"
    assert code_of(lambda: club_chat_post(club_id="x", user=owner, text="hi")) == "not_found"
    assert post("zweite")["text"] == "zweite"
    assert code_of(lambda: post("dritte")) == "rate_limited"
    moderator = make_user(moderator=True)
    user_moderate(moderator=moderator, username=owner.username, action="mute", days=1, note="x")
    assert code_of(lambda: post("hallo", owner)) == "muted"
    assert [line["text"] for line in club_page.chat_lines(club)] == ["Hallo", "zweite"]
    assert ClubChatMessage.objects.count() == 2


@pytest.mark.django_db
def test_a_closed_clubs_chat_is_read_by_members_and_moderators_only():
    owner, outsider = make_user(), make_user()
    club = svc.club_create(creator=owner, name="Geheimbund", open=False)
    answer = client_for(owner).post(f"/api/clubs/{club.pk}/chat/", {"text": "psst"}, format="json")
    assert answer.status_code == 201
    assert client_for(owner).get(f"/api/clubs/{club.pk}/chat/").json()["items"][0]["text"] == (
        "psst"
    )
    assert client_for(outsider).get(f"/api/clubs/{club.pk}/chat/").status_code == 403
    assert Client().get(f"/api/clubs/{club.pk}/chat/").status_code == 403
    moderator = make_user(moderator=True)
    assert client_for(moderator).get(f"/api/clubs/{club.pk}/chat/").status_code == 200
    outsider_page = Client().get(f"/clubs/{club.pk}/").content.decode()
    assert "psst" not in outsider_page and 'data-testid="chat-members-only"' in outsider_page
    assert "psst</li>" in _page(owner, club)
    bad = client_for(owner).post(f"/api/clubs/{club.pk}/chat/", {}, format="json")
    assert bad.status_code == 400
    refused = client_for(outsider).post(f"/api/clubs/{club.pk}/chat/", {"text": "x"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_member"
    assert Client().get("/api/clubs/999/chat/").status_code == 404
    assert ClubChatMessage.objects.count() == 1


@pytest.mark.django_db
def test_an_open_clubs_chat_is_public():
    owner = make_user()
    club = svc.club_create(creator=owner, name="Marktplatz")
    club_chat_post(club_id=club.pk, user=owner, text="willkommen")
    assert Client().get(f"/api/clubs/{club.pk}/chat/").json()["items"][0]["text"] == "willkommen"
    page = Client().get(f"/clubs/{club.pk}/").content.decode()
    assert "willkommen</li>" in page and 'id="chat-form"' not in page


@pytest.mark.django_db
def test_a_club_chat_report_carries_the_line_and_its_context():
    owner, rude, reader, outsider = make_user(), make_user(), make_user(), make_user()
    moderator = make_user(moderator=True)
    club = svc.club_create(creator=owner, name="Stammtisch", open=False)
    for who in (rude, reader):
        svc.club_join(club_id=club.pk, user=who, invite=club.invite)
    club_chat_post(club_id=club.pk, user=owner, text="Guten Abend")
    bad = club_chat_post(club_id=club.pk, user=rude, text="ihr Nasen")
    club_chat_post(club_id=club.pk, user=reader, text="na na")
    body = {"username": rude.username, "reason": "abuse", "club": club.pk, "chat": bad["id"]}
    # Who may not read the chat, or names a game too, is refused and files nothing.
    assert client_for(outsider).post("/api/reports/", body, format="json").status_code == 404
    game = started_game("halma")
    both = client_for(reader).post("/api/reports/", {**body, "game": game.pk}, format="json")
    assert both.status_code == 400 and "not both" in both.json()["message"]
    assert (
        client_for(reader).post("/api/reports/", {**body, "club": "x"}, format="json").status_code
        == 400
    )
    assert not Report.objects.exists()

    assert client_for(reader).post("/api/reports/", body, format="json").status_code == 201
    evidence = Report.objects.get().evidence
    assert evidence["club"] == {"id": club.pk, "name": "Stammtisch"}
    assert [(line["text"], line["reported"]) for line in evidence["chat"]] == [
        ("Guten Abend", False),
        ("ihr Nasen", True),
        ("na na", False),
    ]
    case = Client()
    case.force_login(moderator)
    page = case.get(f"/moderation/reports/{Report.objects.get().pk}/").content.decode()
    assert "Stammtisch" in page and "ihr Nasen" in page


def _page(user, club) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/clubs/{club.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_a_line_reaches_the_pages_that_may_read_it_only():
    owner, outsider = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    club = await sync_to_async(svc.club_create)(creator=owner, name="Hinterzimmer", open=False)
    other = await sync_to_async(svc.club_create)(creator=outsider, name="Vorderhaus")
    mine = await connect(f"/ws/lobby/?club={club.pk}", owner)
    nosy = await connect(f"/ws/lobby/?club={club.pk}", outsider)
    anonymous = await connect(f"/ws/lobby/?club={club.pk}")
    theirs = await connect(f"/ws/lobby/?club={other.pk}", owner)
    odd = await connect("/ws/lobby/?club=abc")
    everyone = (mine, nosy, anonymous, theirs, odd)
    for comm in everyone:
        await receive(comm, "tables")
    await sync_to_async(club_chat_post)(club_id=club.pk, user=owner, text="nur für uns")
    frame = await receive(mine, "club_chat")
    assert frame["message"]["text"] == "nur für uns"
    for comm in (nosy, anonymous, theirs, odd):
        assert await comm.receive_nothing(timeout=0.2)
    await sync_to_async(svc.club_invite_renew)(club_id=club.pk, user=owner)
    assert (await receive(mine, "club"))["club"] == {"id": club.pk}
    for comm in everyone:
        await comm.disconnect()
