"""The REST API: same services as the sockets, JSON errors, auth and CSRF."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

pytestmark = pytest.mark.django_db


def test_rulesets_and_tables_are_public():
    anon = APIClient()
    assert anon.get("/api/rulesets/").json()[0]["slug"] == "halma"
    assert anon.get("/api/tables/").json() == []


def test_table_lifecycle_through_the_api():
    host, guest = make_user(), make_user()
    created = client_for(host).post(
        "/api/tables/", {"ruleset": "halma", "auto_start": False}, format="json"
    )
    assert created.status_code == 201, created.json()
    table = created.json()
    assert table["seats"] == [host.username, None]
    joined = client_for(guest).post(f"/api/tables/{table['id']}/join/", {}, format="json")
    assert joined.json()["taken"] == 2
    started = client_for(host).post(f"/api/tables/{table['id']}/start/", format="json")
    assert started.json()["status"] == "active"
    listed = APIClient().get("/api/tables/").json()
    assert [t["id"] for t in listed] == [table["id"]]


def test_game_detail_events_and_act():
    game = started_game()
    white = game.seats.get(index=0).user
    detail = client_for(white).get(f"/api/games/{game.pk}/").json()
    assert detail["seat"] == 0 and detail["state"]["legal"]
    spectator = APIClient().get(f"/api/games/{game.pk}/").json()
    assert spectator["seat"] is None and spectator["state"]["legal"] == []
    acted = client_for(white).post(
        f"/api/games/{game.pk}/act/", {"version": 1, "action": FIRST_MOVE}, format="json"
    )
    assert acted.json() == {"version": 2}
    events = APIClient().get(f"/api/games/{game.pk}/events/?since=1").json()
    assert [e["version"] for e in events["events"]] == [2]
    assert "action" not in events["events"][0]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"version": 1, "action": {"type": "move", "path": [[0, 0], [9, 9]]}}, 400, "illegal"),
        ({"version": 0, "action": FIRST_MOVE}, 400, "stale_version"),
        ({"version": "x", "action": FIRST_MOVE}, 400, "bad_request"),
        ({"action": FIRST_MOVE}, 400, "bad_request"),
        ({"version": 1, "action": []}, 400, "bad_request"),
    ],
)
def test_act_errors_are_json(body, status, code):
    game = started_game()
    white = game.seats.get(index=0).user
    response = client_for(white).post(f"/api/games/{game.pk}/act/", body, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["message"]
    game.refresh_from_db()
    assert game.version == 1


def test_malformed_json_and_unknown_game():
    user = make_user()
    client = client_for(user)
    bad = client.post("/api/tables/", "{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["message"]
    assert client.get("/api/games/999999/").status_code == 404
    assert (
        client.post(
            "/api/games/999999/act/", {"version": 1, "action": {}}, format="json"
        ).status_code
        == 404
    )
    assert client.get("/api/games/1/events/?since=abc").status_code in {400, 404}


def test_anonymous_and_spectators_cannot_act():
    game = started_game()
    anon = APIClient().post(
        f"/api/games/{game.pk}/act/", {"version": 1, "action": FIRST_MOVE}, format="json"
    )
    assert anon.status_code in {401, 403}
    stranger = client_for(make_user()).post(
        f"/api/games/{game.pk}/act/", {"version": 1, "action": FIRST_MOVE}, format="json"
    )
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_seated"


def test_session_posts_need_csrf_and_tokens_work():
    user = make_user()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    refused = browser.post("/api/tables/", {"ruleset": "halma"}, content_type="application/json")
    assert refused.status_code == 403
    token = Token.objects.create(user=user)
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert script.post("/api/tables/", {"ruleset": "halma"}, format="json").status_code == 201
    assert Game.objects.filter(host=user).count() == 1


def test_schema_and_docs_pages():
    assert APIClient().get("/api/schema/").status_code == 200
    docs = Client().get("/api/docs/")
    assert docs.status_code == 200
    # Served from the site itself: no page loads anything from outside.
    assert b"https://" not in docs.content and b"http://" not in docs.content


def test_tables_start_by_themselves_when_full_by_default():
    host, guest = make_user(), make_user()
    table = client_for(host).post("/api/tables/", {"ruleset": "halma"}, format="json").json()
    assert table["auto_start"] is True
    joined = client_for(guest).post(f"/api/tables/{table['id']}/join/", {}, format="json").json()
    assert joined["status"] == "active"


def test_table_creation_is_rate_limited_per_user():
    from games.models import Game as GameModel

    user = make_user()
    client = client_for(user)
    codes = []
    for _ in range(35):
        response = client.post("/api/tables/", {"ruleset": "halma"}, format="json")
        codes.append(response.status_code)
        if response.status_code == 201:
            GameModel.objects.filter(pk=response.json()["id"]).update(status="aborted")
    assert 429 in codes and codes.count(201) == 30
    refused = client.post("/api/tables/", {"ruleset": "halma"}, format="json")
    body = refused.json()
    assert body["code"] == "throttled" and "seconds" in body["message"]
    assert 0 < body["retry_after"] <= 60 and refused["Retry-After"] == str(body["retry_after"])


# --- what the API lets in: the socket's limits (issue 14, items 8 and 9) ------------


def _event_count(game) -> int:
    from games.models import Event

    return Event.objects.filter(game=game).count()


def test_act_stores_the_rulesets_action_not_the_clients_object():
    from games.models import Event

    game = started_game()
    white = game.seats.get(index=0).user
    padded = {**FIRST_MOVE, "note": "x" * 30_000, "extra": {"nested": [1, 2, 3]}}
    acted = client_for(white).post(
        f"/api/games/{game.pk}/act/", {"version": 1, "action": padded}, format="json"
    )
    assert acted.json() == {"version": 2}
    assert Event.objects.get(game=game, version=2).action == FIRST_MOVE


def test_act_bodies_over_64_kib_are_refused_as_the_socket_refuses_them():
    game = started_game()
    white = game.seats.get(index=0).user
    body = {"version": 1, "action": {**FIRST_MOVE, "note": "x" * (64 * 1024)}}
    response = client_for(white).post(f"/api/games/{game.pk}/act/", body, format="json")
    assert response.status_code == 413
    assert response.json()["code"] == "bad_request" and response.json()["message"]
    game.refresh_from_db()
    assert game.version == 1 and _event_count(game) == 1


NUL_ACTION = '{"version": 1, "action": {"type": "move", "path": [[5, 9], [4, 9]], "n": "a\\u0000"}}'
SURROGATE_ACTION = (
    '{"version": 1, "action": {"type": "move", "path": [[5, 9], [4, 9]], "n": "\\ud800"}}'
)
SURROGATE_KEY = '{"version": 1, "action": {"type": "move", "path": [[5, 9], [4, 9]], "\\udfff": 1}}'


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("act", NUL_ACTION, 400),
        ("act", SURROGATE_ACTION, 400),
        ("act", SURROGATE_KEY, 400),
        ("chat", '{"text": "hello\\u0000"}', 400),
        ("chat", '{"text": "\\ud800 hello"}', 400),
        ("act", '{"version": 1, "action": ' + "[" * 30_000 + "]" * 30_000 + "}", 400),
        ("act", '{"version": 1, "action": ' + "[" * 100_000 + "]" * 100_000 + "}", 413),
        ("act", '{"version": 1, "action": ' + '{"a":' * 100 + "1" + "}" * 100 + "}", 400),
        ("import", '{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", 400),
        ("import", '{"format": "brettspiele/1", "result": {"reason": "\\u0000"}}', 400),
    ],
)
def test_nul_surrogates_and_deep_nesting_are_bad_requests_that_change_nothing(path, body, status):
    from games.models import ChatMessage

    game = started_game()
    white = game.seats.get(index=0).user
    games_before = Game.objects.count()
    url = "/api/games/import/" if path == "import" else f"/api/games/{game.pk}/{path}/"
    response = client_for(white).post(url, body, content_type="application/json")
    assert response.status_code == status, response.content[:300]
    assert response.json()["code"] == "bad_request" and response.json()["message"]
    game.refresh_from_db()
    assert game.version == 1 and _event_count(game) == 1
    assert not ChatMessage.objects.exists() and Game.objects.count() == games_before


def test_unicode_beyond_the_basic_plane_is_fine():
    """Escaped surrogate pairs are one character (an emoji), not a lone surrogate."""
    game = started_game()
    white = game.seats.get(index=0).user
    response = client_for(white).post(
        f"/api/games/{game.pk}/chat/",
        '{"text": "gg \\ud83d\\ude00"}',
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["text"] == "gg \U0001f600"


@pytest.fixture
def reads_3_a_minute(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "reads": "3/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_costly_reads_are_throttled_per_address(reads_3_a_minute):
    game = started_game()
    anon = APIClient()
    codes = [anon.get(f"/api/games/{game.pk}/replay/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert anon.get(f"/api/games/{game.pk}/records/").status_code == 429
    other = APIClient(REMOTE_ADDR="10.1.2.3")
    assert other.get(f"/api/games/{game.pk}/records/").status_code == 200


def test_costly_reads_count_in_the_shared_cache(reads_3_a_minute, monkeypatch):
    """Counted with ratelimit.hit(), not DRF's per-process history list."""
    from games import ratelimit

    counted = []
    real = ratelimit.hit
    monkeypatch.setattr(ratelimit, "hit", lambda *args: counted.append(args) or real(*args))
    game = started_game()
    APIClient().get(f"/api/games/{game.pk}/replay/")
    assert counted == [("throttle_reads_127.0.0.1", 3, 60)]


def test_one_ipv6_64_shares_one_budget(reads_3_a_minute):
    """A client holding a /64 cannot take a fresh address for each request."""
    game = started_game()
    url = f"/api/games/{game.pk}/replay/"
    codes = [APIClient(REMOTE_ADDR=f"2001:db8:1:2::{i}").get(url).status_code for i in range(4)]
    assert codes == [200, 200, 200, 429]
    assert APIClient(REMOTE_ADDR="2001:db8:1:3::1").get(url).status_code == 200
    assert APIClient(REMOTE_ADDR="192.0.2.1").get(url).status_code == 200
    assert APIClient(REMOTE_ADDR="192.0.2.2").get(url).status_code == 200


def test_django_s_own_body_limit_answers_with_the_view_s_limit(settings):
    """RequestDataTooBig (a body without Content-Length read past Django's
    limit) names the limit of the endpoint that refused it."""
    from django.core.exceptions import RequestDataTooBig

    from games.api.errors import exception_handler
    from games.api.replays import GameImport

    answer = exception_handler(RequestDataTooBig(), {"view": GameImport()})
    assert answer.status_code == 413
    assert str(settings.API_IMPORT_MAX_BYTES) in answer.data["message"]
    answer = exception_handler(RequestDataTooBig(), {"view": None})
    assert str(settings.API_MAX_BODY_BYTES) in answer.data["message"]
