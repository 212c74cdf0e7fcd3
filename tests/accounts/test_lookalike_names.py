"""Look-alike names (issue 47, item 7): a sign-up is NFKC-normalised and
refused when its confusable skeleton (accounts/names.py) matches a name taken
or a reserved one, wherever a name is chosen: the sign-up form and a guest's
sign-up (the guest claim)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.names import skeleton
from tests.factories import make_user

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-47"


@pytest.fixture(autouse=True)
def _cheap_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_up(name: str, client: Client | None = None):
    client = client or Client(REMOTE_ADDR="203.0.113.60")
    return client.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )


def refused(name: str, client: Client | None = None) -> str:
    answer = sign_up(name, client)
    assert answer.status_code == 200, (name, answer.status_code)
    assert not get_user_model().objects.filter(username=name).exists()
    return answer.content.decode()


@pytest.mark.parametrize(
    "name",
    [
        "gu\u0435st-abc234",  # Cyrillic ie
        "guest_abc234",
        "guest.abc234",
        "\u0430dmin",  # Cyrillic a
        "\u0430dministrator",
        "Admin1",
        "\uff41\uff44\uff4d\uff49\uff4e",  # full-width "admin"
        "staff_x",
        "m0derator",
        "b0t-easy",
        "bot_easy",
    ],
)
def test_reserved_look_alikes_are_refused(name):
    page = refused(name)
    assert "kept for" in page


@pytest.mark.parametrize(
    "name", ["\u0430lice", "al\u0456ce", "a1ice", "aIice", "alice_", "alice.", "\uff41lice"]
)
def test_a_look_alike_of_a_taken_name_is_refused(name):
    make_user("alice")
    page = refused(name)
    assert "looks too much like a player" in page


def test_plain_names_are_taken_normalised_and_keep_their_skeleton():
    assert sign_up("\uff42\uff4f\uff42\uff12").status_code == 302  # full-width "bob2"
    user = get_user_model().objects.get(username="bob2")
    assert user.name_skeleton == skeleton("bob2")
    assert sign_up("admiral").status_code == 302
    assert sign_up("M\u00fcller").status_code == 302


def test_a_guest_signing_up_is_checked_too_and_may_keep_nothing_reserved():
    make_user("carol")
    browser = Client(REMOTE_ADDR="203.0.113.61")
    assert browser.post("/accounts/guest/", {"next": "/"}).status_code == 302
    guest = get_user_model().objects.get(pk=browser.session["_auth_user_id"])
    assert "looks too much like a player" in refused("c\u0430rol", browser)
    assert "kept for" in refused(guest.username.replace("-", "_"), browser)
    assert sign_up("dave", browser).status_code == 302
    guest.refresh_from_db()
    assert guest.username == "dave" and guest.name_skeleton == "dave"
