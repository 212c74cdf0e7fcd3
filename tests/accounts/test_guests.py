"""Trying the site without an account (issue 29, item 9): a guest is a
temporary account with a generated name, marked as a guest, never rated,
without public tables or chat beyond its own table, created within the
address's sign-up limit, claimed by signing up in the same browser (its
games move along), and cleaned up after a day idle (its games kept)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.services.guests import guests_clean_up
from games.errors import GameError
from games.models import Game, RatingChange, Seat
from games.services.chat import chat_post
from games.services.endings import game_resign
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import FIRST_MOVE, make_user

pytestmark = pytest.mark.django_db
ADDRESS = "203.0.113.77"


@pytest.fixture(autouse=True)
def _cheap_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def new_guest(address: str = ADDRESS) -> tuple[Client, object]:
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/guest/", {"next": "/"})
    assert response.status_code == 302 and response.url == "/"
    user = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    return client, user


def test_a_visitor_becomes_a_guest_marked_as_such():
    client, guest = new_guest()
    assert guest.is_guest and guest.username.startswith("guest-") and len(guest.username) == 12
    assert not guest.has_usable_password()
    page = client.get("/").content.decode()
    assert 'data-testid="guest-claim"' in page and 'data-testid="guest-note"' in page
    assert 'id="table-form"' not in page  # no public tables
    assert 'data-testid="bot-form"' in page  # but the computer, yes
    assert (
        'data-testid="guest-badge"' in Client().get(f"/players/{guest.username}/").content.decode()
    )
    assert 'data-testid="play-as-guest"' in Client().get("/").content.decode()


def test_guests_count_with_sign_ups_per_address(settings):
    settings.SIGNUPS_PER_HOUR = 2
    new_guest()
    new_guest()
    client = Client(REMOTE_ADDR=ADDRESS)
    refused = client.post("/accounts/guest/", {"next": "/"}, follow=True)
    assert "Too many new accounts from your address" in refused.content.decode()
    assert get_user_model().objects.filter(is_guest=True).count() == 2
    new_guest("203.0.113.78")  # another address


def test_guests_play_the_computer_and_invitations_but_open_no_public_tables():
    _, guest = new_guest()
    game = lobby.table_create(host=guest, ruleset="halma", bot={"level": "easy"})
    assert game.status == Game.Status.ACTIVE
    for make in (
        lambda: lobby.table_create(host=guest, ruleset="halma"),
        lambda: lobby.table_create(host=guest, ruleset="halma", challenge=make_user().username),
        lambda: lobby.table_quickplay(user=guest, ruleset="halma"),
    ):
        with pytest.raises(GameError) as refused:
            make()
        assert refused.value.code == "guest" and refused.value.status == 403
    host = make_user()
    table = lobby.table_create(host=host, ruleset="halma", rated=True)
    lobby.table_join_by_invite(code=table.invite_code, user=guest)
    assert Seat.objects.filter(game=table, user=guest).exists()


def test_a_guest_plays_the_computer_at_hexenhalma_with_a_bot_game_master():
    _, guest = new_guest()
    for host_seat in (1, 2, "random"):
        game = lobby.table_create(
            host=guest,
            ruleset="hexenhalma",
            seat_count=3,
            host_seat=host_seat,
            bot={"level": "easy"},
        )
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        seats = {s.index: s.user for s in Seat.objects.filter(game=game).select_related("user")}
        mine = next(i for i, user in seats.items() if user == guest)
        assert mine in (1, 2) and (host_seat == "random" or mine == host_seat)
        assert seats[0].is_bot and game.bots["0"] != "easy"  # the game master: another bot
        assert game.bots[str(3 - mine)] == "easy"  # the other team plays at the chosen level
    # Still never a table with a seat for strangers: as game master, one team seat stays free.
    with pytest.raises(GameError) as refused:
        lobby.table_create(
            host=guest, ruleset="hexenhalma", seat_count=3, host_seat=0, bot={"level": "easy"}
        )
    assert refused.value.code == "guest"
    with pytest.raises(GameError) as refused:
        lobby.table_create(host=guest, ruleset="malefiz", seat_count=3, bot={"level": "easy"})
    assert refused.value.code == "guest"
    assert not Game.objects.filter(ruleset="malefiz").exists()


def test_a_game_with_a_guest_is_never_rated():
    _, guest = new_guest()
    host = make_user()
    table = lobby.table_create(host=host, ruleset="halma", rated=True)
    lobby.table_join_by_invite(code=table.invite_code, user=guest)
    lobby.table_start(game_id=table.pk, user=host)
    game_act(game_id=table.pk, user=host, version=1, action=FIRST_MOVE)
    game_act(
        game_id=table.pk, user=guest, version=2, action={"type": "move", "path": [[4, 0], [5, 0]]}
    )
    game_resign(game_id=table.pk, user=guest)
    assert Game.objects.get(pk=table.pk).status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game_id=table.pk).exists()
    assert Client().get("/api/leaderboard/halma/").json()["items"] == []


def test_guests_chat_only_at_their_own_table():
    _, guest = new_guest()
    ann, bob = make_user(), make_user()
    other = lobby.table_create(host=ann, ruleset="halma")
    lobby.table_join(game_id=other.pk, user=bob)
    with pytest.raises(GameError) as refused:
        chat_post(game_id=other.pk, user=guest, text="hello strangers")
    assert refused.value.code == "guest"
    own = lobby.table_create(host=guest, ruleset="halma", bot={"level": "easy"})
    assert chat_post(game_id=own.pk, user=guest, text="good game")["text"] == "good game"


def test_signing_up_in_the_same_browser_keeps_the_guests_games():
    client, guest = new_guest()
    game = lobby.table_create(host=guest, ruleset="halma", bot={"level": "easy"})
    form = client.get("/accounts/signup/").content.decode()
    assert 'data-testid="guest-claim-note"' in form and f'value="{guest.username}"' not in form
    pw = "a-long-pass-4321"
    response = client.post(
        "/accounts/signup/",
        {"username": "claimed", "email": "", "password1": pw, "password2": pw},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="claimed")
    assert user.pk == guest.pk and not user.is_guest
    assert Seat.objects.get(game=game, index=0).user_id == user.pk
    assert "claimed" in client.get("/my/games/").content.decode()
    login = Client().post("/accounts/login/", {"username": "claimed", "password": pw})
    assert login.status_code == 302


def test_sign_ups_may_not_take_guest_names():
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "guest-abc123",
            "password1": "a-long-pass-4321",
            "password2": "a-long-pass-4321",
        },
    )
    assert response.status_code == 200 and "kept for guests" in response.content.decode()


def test_idle_guests_are_cleaned_up_and_their_games_kept(settings):
    User = get_user_model()
    _, empty = new_guest()
    _, played = new_guest()
    _, playing = new_guest()
    _, fresh = new_guest()
    finished = lobby.table_create(host=played, ruleset="halma", bot={"level": "easy"})
    game_resign(game_id=finished.pk, user=played)
    lobby.table_create(host=playing, ruleset="halma", bot={"level": "easy"})
    old = timezone.now() - timedelta(hours=settings.GUEST_IDLE_HOURS, minutes=1)
    User.objects.filter(pk__in=[empty.pk, played.pk, playing.pk]).update(seen=old)
    assert guests_clean_up() == 2
    assert not User.objects.filter(pk=empty.pk).exists()
    kept = User.objects.get(pk=played.pk)
    assert not kept.is_active and not kept.has_usable_password()
    assert Seat.objects.get(game=finished, index=0).user.username == played.username
    assert User.objects.get(pk=playing.pk).is_active  # in a running game
    assert User.objects.get(pk=fresh.pk).is_active  # seen lately
    assert guests_clean_up() == 0


def test_a_visit_keeps_a_guest_alive():
    client, guest = new_guest()
    old = timezone.now() - timedelta(hours=5)
    get_user_model().objects.filter(pk=guest.pk).update(seen=old)
    client.get("/")
    guest.refresh_from_db()
    assert guest.seen > old + timedelta(hours=4)
