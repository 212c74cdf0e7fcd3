"""Correspondence comforts: time banks, vacations and the hourly turn digest,
with the clock under the test's control (no sleeps)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from games import clocks
from games.errors import GameError
from games.models import Event, Game, OutgoingMail, Vacation
from games.realtime.sweeper import sweep_once
from games.selectors.frames import hello_frame
from games.services import vacation
from games.services.mail import mail_send_due
from games.services.play import game_act
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)
BANKED = {"kind": "correspondence", "days": 1, "bank": 2}


class Clock:
    """A controllable clock for django.utils.timezone.now."""

    def __init__(self) -> None:
        self.now = timezone.now()
        self.patch = mock.patch("django.utils.timezone.now", side_effect=lambda: self.now)

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock():
    c = Clock()
    with c.patch:
        yield c


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def move(game: Game, user, action) -> None:
    game_act(game_id=game.pk, user=user, version=fresh(game).version, action=action)


# --- time bank ------------------------------------------------------------------


def test_bank_validation_and_old_formats():
    assert clocks.clean_clock(BANKED) == BANKED
    plain = clocks.clean_clock({"kind": "correspondence", "days": 2, "bank": 0})
    assert plain == {"kind": "correspondence", "days": 2}  # stored as before banks
    for bad in [31, -1, "2", True, 1.5e9]:
        with pytest.raises(GameError) as info:
            clocks.clean_clock({"kind": "correspondence", "days": 1, "bank": bad})
        assert info.value.code == "bad_clock" and "bank" in str(info.value)


def test_a_move_within_the_days_leaves_the_bank(clock):
    white, black = make_user(), make_user()
    game = started_game(players=[white, black], clock=BANKED)
    assert game.banks == [2 * 86400.0] * 2
    assert game.deadline == clock.now + 3 * DAY and game.timer == "move"
    clock.advance(DAY - timedelta(minutes=1))
    move(game, white, FIRST_MOVE)
    game = fresh(game)
    assert game.banks == [2 * 86400.0] * 2
    assert game.deadline == clock.now + 3 * DAY  # Black: a full day plus the bank


def test_the_bank_is_drawn_down_and_the_game_lost_only_when_it_is_empty(clock):
    white, black = make_user(), make_user()
    game = started_game(players=[white, black], clock=BANKED)
    clock.advance(DAY * 1.5)  # half a day into the bank
    assert sweep_once() == 0
    view = clocks.clock_view(fresh(game), clock.now)
    assert view["bank"] == 2 and view["banks"] == [1.5 * 86400, 2 * 86400]
    move(game, white, FIRST_MOVE)
    assert fresh(game).banks == [1.5 * 86400, 2 * 86400]
    move(game, black, BLACK_MOVE)
    game = fresh(game)
    assert game.deadline == clock.now + DAY * 2.5  # the day, then the bank's 1.5
    clock.advance(DAY * 2.5 - timedelta(seconds=1))
    assert sweep_once() == 0 and fresh(game).status == Game.Status.ACTIVE
    clock.advance(timedelta(seconds=2))
    assert sweep_once() == 1
    game = fresh(game)
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
    assert game.banks[0] == 0.0


# --- vacation ---------------------------------------------------------------------


def test_vacation_stops_the_clock_and_the_sweeper_waits(clock):
    white, black = make_user("anna"), make_user()
    game = started_game(players=[white, black], clock={"kind": "correspondence", "days": 1})
    realtime = started_game(
        players=[white, make_user()], clock={"kind": "realtime", "minutes": 5, "increment": 0}
    )
    clock.advance(timedelta(hours=12))
    vacation.vacation_start(user=white, until=clock.now + 5 * DAY)
    game = fresh(game)
    assert game.away == {"0": {"username": "anna", "until": (clock.now + 5 * DAY).isoformat()}}
    assert game.timer == "vacation" and game.deadline == clock.now + 5 * DAY
    assert game.clocks[0] == 12 * 3600  # charged up to the start, then stopped
    last = Event.objects.filter(game=game).last()
    assert last.kind == Event.Kind.VACATION and last.events[0]["type"] == "vacation"
    frame = hello_frame(game.pk, black)
    assert frame["state"]["vacation"] == [
        {"seat": 0, "username": "anna", "until": (clock.now + 5 * DAY).isoformat()}
    ]
    assert fresh(realtime).away == {}  # realtime games go on
    version = game.version
    clock.advance(4 * DAY)
    sweep_once()
    assert fresh(realtime).status == Game.Status.ABORTED  # its clock ran out before a move
    assert fresh(game).version == version  # while this one waits
    clock.advance(DAY)  # the vacation ends: the clock runs again with what it had
    assert sweep_once() == 1
    game = fresh(game)
    assert game.status == Game.Status.ACTIVE and game.away == {}
    assert game.timer == "move" and game.deadline == clock.now + timedelta(hours=12)


def test_a_turn_that_begins_on_vacation_waits_and_stopping_early_resumes(clock):
    white, black = make_user(), make_user()
    game = started_game(players=[white, black], clock={"kind": "correspondence", "days": 1})
    vacation.vacation_start(user=black, until=None)
    assert fresh(game).timer == "move"  # White's clock still runs
    move(game, white, FIRST_MOVE)
    game = fresh(game)
    assert game.timer == "vacation"  # Black's turn, but Black is away
    clock.advance(3 * DAY)
    assert sweep_once() == 0
    vacation.vacation_stop(user=black)
    game = fresh(game)
    assert game.away == {} and game.deadline == clock.now + DAY
    assert vacation.vacation_status(black.pk, now=clock.now)["days_used"] == 3.0


def test_the_yearly_allowance_is_counted_exactly():
    user = make_user()
    now = datetime(2026, 3, 1, 9, tzinfo=UTC)
    vacation.vacation_start(user=user, until=now + 20 * DAY, now=now)
    with pytest.raises(GameError) as info:
        vacation.vacation_start(user=user, until=None, now=now + DAY)
    assert info.value.code == "already_on_vacation"
    vacation.vacation_stop(user=user, now=now + timedelta(days=4, hours=12))
    assert vacation.vacation_status(user.pk, now=now + 5 * DAY)["days_used"] == 4.5
    later = now + 10 * DAY
    with pytest.raises(GameError) as info:
        vacation.vacation_start(user=user, until=later + timedelta(days=25.6), now=later)
    assert info.value.code == "over_allowance" and "25.5" in str(info.value)
    started = vacation.vacation_start(user=user, until=None, now=later)
    assert started.end == later + timedelta(days=25.5)  # the rest of the year's allowance
    with pytest.raises(GameError) as info:
        vacation.vacation_stop(user=user, now=started.end)
    assert info.value.code == "not_on_vacation"
    with pytest.raises(GameError) as info:
        vacation.vacation_start(user=user, until=None, now=started.end + DAY)
    assert info.value.code == "over_allowance"
    assert Vacation.objects.filter(user=user).count() == 2


def test_a_vacation_across_new_year_counts_in_each_year():
    user = make_user()
    now = datetime(2026, 12, 20, tzinfo=UTC)
    vacation.vacation_start(user=user, until=datetime(2027, 1, 9, tzinfo=UTC), now=now)
    assert vacation._used_in_year(user.pk, 2026, now) == 12 * DAY
    assert vacation._used_in_year(user.pk, 2027, now) == 8 * DAY


def test_vacation_bad_input():
    user = make_user()
    now = datetime(2026, 6, 1, tzinfo=UTC)
    with pytest.raises(GameError) as info:
        vacation.vacation_start(user=user, until=now - DAY, now=now)
    assert info.value.code == "end_in_past"
    with pytest.raises(GameError) as info:
        vacation.vacation_start(user=user, until=now + 31 * DAY, now=now)
    assert info.value.code == "over_allowance"
    assert vacation.vacation_until_parse("2026-12-03") == datetime(2026, 12, 4, tzinfo=UTC)
    for bad in ["tomorrow", 5, "2026-13-01", "x" * 50, "9999-12-31"]:
        with pytest.raises(GameError) as info:
            vacation.vacation_until_parse(bad)
        assert info.value.code == "bad_until"
    assert not Vacation.objects.exists()


def test_the_vacation_api_answers_bad_input_clearly():
    user = make_user()
    client = APIClient()
    assert client.post("/api/vacation/", {}, format="json").status_code in (401, 403)
    client.force_authenticate(user)
    for body, code in [
        ({"until": "soon"}, "bad_until"),
        ({"until": "2001-01-01"}, "end_in_past"),
        ({"until": (timezone.now() + 40 * DAY).date().isoformat()}, "over_allowance"),
        ({"until": ["x"]}, "bad_until"),
    ]:
        answer = client.post("/api/vacation/", body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == code, body
        assert answer.json()["message"]
    assert client.delete("/api/vacation/").json()["code"] == "not_on_vacation"
    assert not Vacation.objects.exists()
    answer = client.post("/api/vacation/", {}, format="json")
    assert answer.status_code == 201 and answer.json()["on_vacation"] is True
    assert client.post("/api/vacation/", {}, format="json").json()["code"] == "already_on_vacation"
    answer = client.delete("/api/vacation/")
    assert answer.status_code == 200 and answer.json()["on_vacation"] is False
    assert client.get("/api/vacation/").json()["days_left"] > 29.99


# --- digest -------------------------------------------------------------------------


def mail_reader():
    user = make_user()
    user.email, user.email_notifications = f"{user.username}@example.org", True
    user.save()
    return user


def test_turn_notices_are_gathered_into_one_digest_an_hour(clock, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://games.example.org"
    white, black = make_user(), mail_reader()
    first = started_game(players=[white, black])
    second = started_game(players=[white, black])
    move(first, white, FIRST_MOVE)
    move(second, white, FIRST_MOVE)
    assert OutgoingMail.objects.filter(digest=True).count() == 2
    assert mail_send_due(clock.now) == 1
    [digest] = mail.outbox
    assert digest.to == [black.email] and digest.subject == "2 games wait for your move"
    for game in (first, second):
        assert f"https://games.example.org/g/{game.pk}/" in digest.body
    assert not OutgoingMail.objects.exists()

    # Within the hour another turn notice waits for the next digest ...
    move(first, black, BLACK_MOVE)
    move(first, white, {"type": "move", "path": [[4, 9], [3, 9]]})
    queued = OutgoingMail.objects.get()
    assert queued.due == clock.now + timedelta(hours=1)
    clock.advance(timedelta(minutes=30))
    assert mail_send_due(clock.now) == 0 and len(mail.outbox) == 1
    # ... which leaves out the game Black has moved in meanwhile.
    move(second, black, BLACK_MOVE)
    clock.advance(timedelta(minutes=31))
    assert mail_send_due(clock.now) == 1
    body = mail.outbox[1].body
    assert f"/g/{first.pk}/" in body and f"/g/{second.pk}/" not in body
    assert mail.outbox[1].subject.startswith(f"Your turn in game #{first.pk}")


def test_a_digest_with_nothing_left_is_not_sent(clock, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    white, black = make_user(), mail_reader()
    game = started_game(players=[white, black])
    move(game, white, FIRST_MOVE)
    move(game, black, BLACK_MOVE)  # before any digest went out
    assert mail_send_due(clock.now) == 0
    assert mail.outbox == [] and not OutgoingMail.objects.filter(notification__user=black).exists()


def test_the_settings_page_starts_and_ends_a_vacation(client):
    user = make_user()
    client.force_login(user)
    page = client.get("/accounts/settings/")
    assert page.status_code == 200 and b'data-testid="vacation-start"' in page.content
    bad = client.post("/accounts/settings/vacation/", {"until": "2001-01-01"})
    assert bad.status_code == 400 and b"must lie in the future" in bad.content
    assert client.post("/accounts/settings/vacation/", {"until": ""}).status_code == 302
    page = client.get("/accounts/settings/")
    assert b'data-testid="vacation-stop"' in page.content
    assert client.post("/accounts/settings/vacation/", {"stop": "1"}).status_code == 302
    assert vacation.vacation_current(user.pk, now=timezone.now()) is None
