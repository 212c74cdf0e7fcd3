"""Reports and the moderators' actions through the API: the fixed shapes, the
evidence the server attaches, every refusal, and each action's effect."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.models import Notification
from games.services.chat import chat_post
from lobby import services as lobby
from moderation.models import Report, Sanction
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    a, b = make_user("alice"), make_user("bob")
    game = started_game(players=[a, b])
    return game, a, b, make_user("mod", moderator=True)


def report(client, **body):
    return client.post("/api/reports/", {"reason": "abuse", "text": "", **body}, format="json")


def test_a_chat_line_report_carries_the_line_and_its_context(world):
    game, a, b, _ = world
    for text in ("hello", "good luck"):
        chat_post(game_id=game.pk, user=a, text=text)
    rude = chat_post(game_id=game.pk, user=b, text="you are a fool")
    chat_post(game_id=game.pk, user=a, text="please stop")
    answer = report(client_for(a), username="bob", game=game.pk, chat=rude["id"], text="rude")
    assert answer.status_code == 201, answer.content
    assert answer.json()["status"] == "open"
    assert set(answer.json()) == {"id", "username", "game", "reason", "status", "created"}
    stored = Report.objects.get()
    lines = stored.evidence["chat"]
    assert [line["text"] for line in lines] == [
        "hello",
        "good luck",
        "you are a fool",
        "please stop",
    ]
    assert [line["reported"] for line in lines] == [False, False, True, False]
    assert stored.evidence["game"]["players"] == ["alice", "bob"]
    assert stored.evidence["pair_games"] == []  # their rated games: none yet


def test_bad_reports_are_refused_and_store_nothing(world):
    _game, a, _b, _ = world
    bot = make_user("bot-halma-1")
    bot.is_bot = True
    bot.save()
    client = client_for(a)
    cases = [
        ({"username": "alice"}, 400, "bad_request"),
        ({"username": "bot-halma-1"}, 400, "bad_request"),
        ({"username": "nobody"}, 404, "not_found"),
        ({"username": "bob", "game": 999999}, 404, "not_found"),
        ({"username": "bob", "text": "x" * 1001}, 400, "too_long"),
        ({"username": "bob", "reason": "ugly"}, 400, None),
        ({"username": "bob", "game": "seven"}, 400, None),
    ]
    for body, status, code in cases:
        answer = report(client, **body)
        assert answer.status_code == status, (body, answer.content)
        if code:
            assert answer.json()["code"] == code
    assert not Report.objects.exists()
    assert APIClient().post("/api/reports/", {}, format="json").status_code in (401, 403)


def test_one_open_report_per_reporter_and_target_and_a_daily_limit(world):
    _game, a, _b, _ = world
    assert report(client_for(a), username="bob").status_code == 201
    again = report(client_for(a), username="bob")
    assert again.status_code == 409 and again.json()["code"] == "already_reported"
    with override_settings(REPORT_RATE=(2, 3600)):
        c = make_user()
        others = [make_user() for _ in range(3)]
        answers = [report(client_for(c), username=o.username).status_code for o in others]
    assert answers == [201, 201, 429]


def test_non_moderators_learn_nothing(world):
    _game, a, _b, _ = world
    report(client_for(a), username="bob")
    arbiter = make_user(staff=True)  # a remis arbiter is no moderator
    for user in (a, arbiter):
        client = client_for(user)
        for answer in (
            client.get("/api/moderation/reports/"),
            client.get(f"/api/moderation/reports/{Report.objects.get().pk}/"),
            client.post(
                "/api/moderation/users/bob/", {"action": "warn", "note": "x"}, format="json"
            ),
        ):
            assert answer.status_code == 403
            assert "bob" not in answer.content.decode()
    client = APIClient()
    client.force_login(a)
    assert client.get("/moderation/").status_code == 403
    assert client.get(f"/moderation/reports/{Report.objects.get().pk}/").status_code == 403


def test_the_queue_and_a_case(world):
    game, a, _b, mod = world
    report(client_for(a), username="bob", game=game.pk, text="insults")
    client = client_for(mod)
    items = client.get("/api/moderation/reports/").json()["items"]
    assert [set(i) for i in items] == [
        {"id", "username", "reporter", "game", "reason", "text", "status", "created"}
    ]
    assert items[0]["username"] == "bob" and items[0]["reporter"] == "alice"
    case = client.get(f"/api/moderation/reports/{items[0]['id']}/").json()
    assert case["history"]["completion"] == {"started": 0, "completed": 0, "rate": None}
    web = APIClient()
    web.force_login(mod)
    page = web.get(f"/moderation/reports/{items[0]['id']}/")
    assert page.status_code == 200 and b"insults" in page.content
    assert web.get("/moderation/").status_code == 200


def test_mute_refuses_chat_and_tells_the_reporter(world):
    game, a, b, mod = world
    report(client_for(a), username="bob")
    done = client_for(mod).post(
        "/api/moderation/users/bob/",
        {"action": "mute", "days": 2, "note": "insults"},
        format="json",
    )
    assert done.status_code == 200, done.content
    answer = client_for(b).post(f"/api/games/{game.pk}/chat/", {"text": "hi"}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "muted"
    assert Report.objects.get().status == "acted"
    note = Notification.objects.get(user=a)
    assert "acted on" in client_for(a).get("/api/notifications/").json()[0]["text"]
    assert note.params == {"report_on": "bob"}  # never how
    log = Sanction.objects.get()
    assert (log.moderator, log.action, log.days, log.note) == (mod, "mute", 2, "insults")
    assert client_for(a).get("/api/reports/").json()["items"][0]["status"] == "acted"
    lifted = client_for(mod).post(
        "/api/moderation/users/bob/", {"action": "mute", "days": 0, "note": "lifted"}, format="json"
    )
    assert lifted.status_code == 200
    assert chat_post(game_id=game.pk, user=b, text="sorry")["text"] == "sorry"


def test_suspension_refuses_tables_joins_and_moves(world):
    game, a, _b, mod = world
    client_for(mod).post(
        "/api/moderation/users/alice/", {"action": "suspend", "days": 1, "note": "x"}, format="json"
    )
    client = client_for(a)
    move = client.post(
        f"/api/games/{game.pk}/act/", {"version": game.version, "action": FIRST_MOVE}, format="json"
    )
    assert move.status_code == 403 and move.json()["code"] == "suspended"
    table = client.post("/api/tables/", {"ruleset": "halma"}, format="json")
    assert table.status_code == 403 and table.json()["code"] == "suspended"
    other = lobby.table_create(host=make_user(), ruleset="halma")
    join = client.post(f"/api/tables/{other.pk}/join/", {}, format="json")
    assert join.status_code == 403 and join.json()["code"] == "suspended"


def test_warn_close_and_clear(world):
    game, a, b, mod = world
    client = client_for(mod)
    client.post("/api/moderation/users/bob/", {"action": "warn", "note": "be nice"}, format="json")
    warning = client_for(b).get("/api/notifications/").json()[0]["text"]
    assert "be nice" in warning
    report(client_for(a), username="bob")
    client.post("/api/moderation/users/bob/", {"action": "clear", "note": "nothing"}, format="json")
    assert Report.objects.get().status == "cleared"
    assert not Notification.objects.filter(user=a).exists()  # told only when acted on
    client.post("/api/moderation/users/bob/", {"action": "close", "note": "spam"}, format="json")
    b.refresh_from_db()
    assert not b.is_active
    web = APIClient()
    web.force_login(b)  # a session from before the closing
    assert web.get("/api/reports/").status_code in (401, 403)
    game.refresh_from_db()
    assert [s.user_id for s in game.seats.order_by("index")] == [a.pk, b.pk]  # games stay
    page = client_for(a).get("/players/bob/")  # the name is shown as closed
    assert page.status_code == 200 and b'data-testid="closed"' in page.content
    history = client.get(f"/api/moderation/reports/{Report.objects.get().pk}/").json()["history"]
    assert history["closed"] and [s["action"] for s in history["sanctions"]] == [
        "close",
        "clear",
        "warn",
    ]


def test_moderators_cannot_act_on_staff_or_without_a_note(world):
    _game, _a, _b, mod = world
    client = client_for(mod)
    for name in ("mod", make_user(staff=True).username, make_user(moderator=True).username):
        answer = client.post(
            f"/api/moderation/users/{name}/",
            {"action": "mute", "days": 1, "note": "x"},
            format="json",
        )
        assert answer.status_code == 403, name
    bad = [
        {"action": "mute", "note": "x"},
        {"action": "mute", "days": -1, "note": "x"},
        {"action": "mute", "days": 1, "note": ""},
        {"action": "ban", "note": "x"},
    ]
    for body in bad:
        assert client.post("/api/moderation/users/bob/", body, format="json").status_code == 400
    assert client.post("/api/moderation/users/nobody/", bad[0], format="json").status_code == 404
    assert not Sanction.objects.exists()


def test_the_case_page_names_codes_in_peoples_words_in_german_too(world):
    game, a, _b, mod = world
    report(client_for(a), username="bob", game=game.pk, reason="cheating")
    report_id = Report.objects.get().pk
    client_for(mod).post(
        "/api/moderation/users/bob/", {"action": "mute", "days": 2, "note": "x"}, format="json"
    )
    web = APIClient()
    web.force_login(mod)
    for language, words, codes in [
        ("en", ["cheating", "acted on", "mute", "2 days", "Halma", "running"], []),
        ("de", ["Betrug", "bearbeitet", "stummschalten", "2 Tage", "läuft"], ["cheating"]),
    ]:
        page = web.get(f"/moderation/reports/{report_id}/", HTTP_ACCEPT_LANGUAGE=language)
        text = page.content.decode()
        for word in words:
            assert word in text, (language, word)
        for code in codes:
            assert f">{code}<" not in text, (language, code)
        assert ">halma<" not in text and "(active)" not in text and " d)" not in text
