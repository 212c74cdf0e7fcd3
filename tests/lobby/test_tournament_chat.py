"""A tournament page's chat: the games' chat rules, the API, live over the
lobby socket of the pages that show that tournament (and no other)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.errors import GameError
from lobby import tournaments as svc
from lobby.models import TournamentChatMessage
from lobby.selectors import tournaments as read
from lobby.tournaments.chat import tournament_chat_post
from moderation.services import user_moderate
from tests.db_threads import sync_to_async
from tests.factories import client_for, make_user
from tests.games.test_consumers import connect, receive


def create(creator):
    return svc.tournament_create(
        creator=creator, name="Chatty", ruleset="halma", system="round_robin"
    )


def code_of(call) -> str:
    with pytest.raises(GameError) as info:
        call()
    return info.value.code


@pytest.mark.django_db
def test_lines_follow_the_chat_rules_and_bad_ones_change_nothing(settings):
    settings.CHAT_RATE = (2, 60)
    user, spectator = make_user(), make_user()
    t = create(user)
    post = lambda text, who=spectator: tournament_chat_post(  # noqa: E731
        tournament_id=t.pk, user=who, text=text
    )
    assert post("good luck all")["username"] == spectator.username
    assert code_of(lambda: post("   ")) == "bad_request"
    assert code_of(lambda: post("x" * 501)) == "too_long"
    assert code_of(lambda: post("a\u0000b")) == "bad_request"
    assert code_of(lambda: post(["list"])) == "bad_request"
    assert code_of(lambda: tournament_chat_post(tournament_id=999, user=user, text="hi")) == (
        "not_found"
    )
    assert post("second")["text"] == "second"
    assert code_of(lambda: post("third")) == "rate_limited"
    moderator = make_user(moderator=True)
    user_moderate(moderator=moderator, username=user.username, action="mute", days=1, note="spam")
    assert code_of(lambda: post("hello", user)) == "muted"
    from django.contrib.auth.models import AnonymousUser

    assert code_of(lambda: post("hi", AnonymousUser())) == "login_required"
    assert [line["text"] for line in read.chat_lines(t)] == ["good luck all", "second"]
    assert TournamentChatMessage.objects.count() == 2


@pytest.mark.django_db
def test_the_api_and_the_page_show_the_newest_lines():
    user = make_user()
    t = create(user)
    answer = client_for(user).post(f"/api/tournaments/{t.pk}/chat/", {"text": "hi"}, format="json")
    assert answer.status_code == 201 and answer.json()["text"] == "hi"
    assert (
        client_for(user).post(f"/api/tournaments/{t.pk}/chat/", {}, format="json").status_code
        == 400
    )
    lines = Client().get(f"/api/tournaments/{t.pk}/chat/").json()["items"]
    assert [line["text"] for line in lines] == ["hi"]
    assert Client().get("/api/tournaments/999/chat/").status_code == 404
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert "tournament-chat" in page and "hi</li>" in page
    anonymous = Client().post(
        f"/api/tournaments/{t.pk}/chat/", '{"text": "x"}', content_type="application/json"
    )
    assert anonymous.status_code in (401, 403)


@pytest.mark.django_db(transaction=True)
async def test_a_line_reaches_the_pages_of_its_tournament_only():
    user = await sync_to_async(make_user)()
    t = await sync_to_async(create)(user)
    other = await sync_to_async(create)(user)
    mine = await connect(f"/ws/lobby/?tournament={t.pk}", user)
    theirs = await connect(f"/ws/lobby/?tournament={other.pk}")
    odd = await connect("/ws/lobby/?tournament=abc")
    for comm in (mine, theirs, odd):
        await receive(comm, "tables")
    await sync_to_async(tournament_chat_post)(tournament_id=t.pk, user=user, text="hello")
    frame = await receive(mine, "tournament_chat")
    assert frame["message"]["text"] == "hello"
    assert await theirs.receive_nothing(timeout=0.3)
    assert await odd.receive_nothing(timeout=0.1)
    for comm in (mine, theirs, odd):
        await comm.disconnect()
