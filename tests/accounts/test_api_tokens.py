"""Personal API tokens: made with a session or the account's Token, stored
hashed, scoped, revoked at once; one write at a time per token."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import ApiToken
from games import ratelimit
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

pytestmark = pytest.mark.django_db


def new_token(user, scopes=("read", "play", "challenge"), name="bot") -> dict:
    answer = client_for(user).post(
        "/api/account/tokens/", {"name": name, "scopes": list(scopes)}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_a_token_is_shown_once_and_stored_hashed():
    user = make_user()
    made = new_token(user, ["play", "read"])
    assert set(made) == {"id", "name", "scopes", "token"}
    assert made["scopes"] == ["read", "play"]
    row = ApiToken.objects.get(pk=made["id"])
    assert row.digest == hashlib.sha256(made["token"].encode()).hexdigest()
    assert made["token"] not in str(ApiToken.objects.filter(pk=row.pk).values().first())
    listed = client_for(user).get("/api/account/tokens/").json()["items"]
    assert [t["id"] for t in listed] == [made["id"]]
    assert "token" not in listed[0] and listed[0]["prefix"] == made["token"][:8]
    assert listed[0]["last_used"] is None
    assert bearer(made["token"]).get("/api/account/tokens/").status_code == 403
    me = bearer(made["token"]).get(f"/api/players/{user.username}/")
    assert me.status_code == 200
    assert ApiToken.objects.get(pk=row.pk).last_used is not None


def test_the_accounts_own_token_can_make_one_too():
    user = make_user()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    answer = client.post("/api/account/tokens/", {"name": "b", "scopes": ["read"]}, format="json")
    assert answer.status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"name": "", "scopes": ["read"]},
        {"name": "x" * 61, "scopes": ["read"]},
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["admin"]},
        {"name": "x", "scopes": "read"},
        {"name": 5, "scopes": ["read"]},
        {"scopes": ["read"]},
    ],
)
def test_bad_token_requests_change_nothing(body):
    user = make_user()
    answer = client_for(user).post("/api/account/tokens/", body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert not ApiToken.objects.exists()


def test_tokens_per_account_are_capped():
    user = make_user()
    for i in range(tokens.MAX_TOKENS_PER_USER):
        new_token(user, name=f"t{i}")
    answer = client_for(user).post(
        "/api/account/tokens/", {"name": "one more", "scopes": ["read"]}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "too_many_tokens"


def test_unknown_and_revoked_tokens_are_refused():
    user = make_user()
    made = new_token(user)
    assert bearer("bsp_nonsense").get("/api/tables/").status_code == 401
    assert bearer("bsp_nonsense").get("/api/tables/").json()["code"] == "bad_token"
    assert bearer(made["token"]).get("/api/tables/").status_code == 200
    other = make_user()
    assert client_for(other).delete(f"/api/account/tokens/{made['id']}/").status_code == 404
    assert client_for(user).delete(f"/api/account/tokens/{made['id']}/").json() == {"items": []}
    assert bearer(made["token"]).get("/api/tables/").status_code == 401


def test_a_missing_scope_is_403_scope_and_changes_nothing():
    game = started_game()
    white = game.seats.get(index=0).user
    reader = new_token(white, ["read"])["token"]
    answer = bearer(reader).post(
        f"/api/games/{game.pk}/act/", {"version": 1, "action": FIRST_MOVE}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["code"] == "scope"
    game.refresh_from_db()
    assert game.version == 1
    player = new_token(white, ["play"])["token"]
    assert bearer(player).get(f"/api/games/{game.pk}/").json()["code"] == "scope"
    acted = bearer(player).post(
        f"/api/games/{game.pk}/act/", {"version": 1, "action": FIRST_MOVE}, format="json"
    )
    assert acted.json() == {"version": 2}


def test_challenges_need_the_challenge_scope():
    host, other = make_user(), make_user()
    player = new_token(host, ["play"])["token"]
    body = {"ruleset": "halma", "challenge": other.username}
    answer = bearer(player).post("/api/tables/", body, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "scope"
    assert (
        bearer(player).post("/api/tables/", {"ruleset": "halma"}, format="json").status_code == 201
    )
    challenger = new_token(host, ["challenge"])["token"]
    assert bearer(challenger).post("/api/tables/", body, format="json").status_code == 201


def test_a_token_cannot_reach_the_account_or_other_writes():
    user = make_user()
    secret = new_token(user)["token"]
    for path in ("/api/account/tokens/", "/api/account/bot/", "/api/vacation/"):
        answer = bearer(secret).post(path, {"name": "x", "scopes": ["read"]}, format="json")
        assert answer.status_code == 403 and answer.json()["code"] == "scope", path


def test_one_write_at_a_time_per_token():
    user = make_user()
    secret = new_token(user)["token"]
    key = f"token-write:{tokens.digest_of(secret)}"
    assert ratelimit.hold(key, "another request", 30)  # as if a write were being answered
    try:
        answer = bearer(secret).post("/api/tables/", {"ruleset": "halma"}, format="json")
        assert answer.status_code == 429
        assert answer.json()["code"] == "rate_limited" and answer.json()["retry_after"] == 1
        assert bearer(secret).get("/api/tables/").status_code == 200  # reads go on
    finally:
        ratelimit.let_go(key, "another request")
    assert (
        bearer(secret).post("/api/tables/", {"ruleset": "halma"}, format="json").status_code == 201
    )


def test_the_settings_page_makes_and_revokes_tokens():
    user = make_user()
    page = Client()
    page.force_login(user)
    made = page.post("/accounts/settings/tokens/", {"name": "board", "scopes": ["read", "play"]})
    assert made.status_code == 200
    row = ApiToken.objects.get(user=user)
    secret = made.context["new_token"]
    assert secret.encode() in made.content and row.scopes == ["read", "play"]
    again = page.get("/accounts/settings/")
    assert secret.encode() not in again.content and b"board" in again.content
    bad = page.post("/accounts/settings/tokens/", {"name": "", "scopes": ["read"]})
    assert bad.status_code == 400
    page.post(f"/accounts/settings/tokens/{row.pk}/revoke/")
    assert not ApiToken.objects.exists()


def staff_page() -> Client:
    admin = make_user()
    admin.is_staff = admin.is_superuser = True
    admin.save(update_fields=["is_staff", "is_superuser"])
    page = Client()
    page.force_login(admin)
    return page


def test_the_admin_lists_tokens_read_only_without_their_secret():
    user = make_user()
    made = new_token(user, ["read", "play"], name="my engine")
    row = ApiToken.objects.get(pk=made["id"])
    page = staff_page()
    listing = page.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "my engine" in text and user.username in text
    one = page.get(f"/admin/accounts/apitoken/{row.pk}/change/")
    assert one.status_code == 200
    shown = one.content.decode()
    assert "my engine" in shown and "play" in shown
    for secret in (made["token"], row.digest, made["token"][4:12]):
        assert secret not in text and secret not in shown
    assert 'name="name"' not in shown, "nothing is editable"
    assert page.get("/admin/accounts/apitoken/add/").status_code == 403


def test_revoking_in_the_admin_ends_the_token(monkeypatch, django_capture_on_commit_callbacks):
    told = []
    monkeypatch.setattr(tokens, "_tell_streams", told.append)
    user = make_user()
    kept, gone = new_token(user, name="kept"), new_token(user, name="gone")
    assert bearer(gone["token"]).get(f"/api/players/{user.username}/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        answer = staff_page().post(
            "/admin/accounts/apitoken/",
            {"action": "revoke", "_selected_action": [gone["id"]]},
            follow=True,
        )
    assert answer.status_code == 200 and "Revoked" in answer.content.decode()
    assert bearer(gone["token"]).get(f"/api/players/{user.username}/").status_code == 401
    assert bearer(kept["token"]).get(f"/api/players/{user.username}/").status_code == 200
    assert told == [gone["id"]], "its open streams are told to end"
    # The change page's delete button revokes the same way.
    page = staff_page()
    with django_capture_on_commit_callbacks(execute=True):
        answer = page.post(f"/admin/accounts/apitoken/{kept['id']}/delete/", {"post": "yes"})
    assert answer.status_code == 302
    assert not ApiToken.objects.filter(user=user).exists()
    assert told == [gone["id"], kept["id"]]


@pytest.mark.django_db(transaction=True)
def test_a_revoke_while_the_channel_layer_is_down_is_done_and_says_so(settings):
    """The layer fails after the commit: the answer says what happened."""
    user = make_user()
    made = new_token(user)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},  # nothing listens there
        }
    }
    client = client_for(user)
    client.raise_request_exception = False
    answer = client.delete(f"/api/account/tokens/{made['id']}/")
    assert answer.status_code == 200 and answer.json() == {"items": []}
    assert not ApiToken.objects.filter(pk=made["id"]).exists()
    assert bearer(made["token"]).get("/api/tables/").status_code == 401
    page = Client()
    page.force_login(user)
    page.raise_request_exception = False
    other = new_token(user)
    answer = page.post(f"/accounts/settings/tokens/{other['id']}/revoke/")
    assert answer.status_code == 302 and not ApiToken.objects.filter(user=user).exists()
