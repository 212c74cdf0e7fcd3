"""Races of the issue's item 11, made certain with a held lock (tests/contend.py):
a vacation against a game ending, two drains against one user's digest, two
tables against the open-table limit, and constraints other than the version's.

Runs on SQLite and again on PostgreSQL (bin/test).
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from games.errors import GameError
from games.models import Event, Game, Notification, OutgoingMail, RatingChange
from games.services import mail as mail_service
from games.services import vacation
from games.services.endings import game_resign
from games.services.play import game_act
from lobby import services as lobby
from tests.contend import while_held
from tests.factories import BLACK_MOVE, FIRST_MOVE, client_for, make_user, started_game
from tests.together import at_once

pytestmark = pytest.mark.django_db(transaction=True)
CORRESPONDENCE = {"kind": "correspondence", "days": 3}


@pytest.mark.parametrize("attempt", range(2))
def test_a_vacation_never_marks_a_game_that_ended_while_it_waited(attempt):
    white, black = make_user(), make_user()
    game = started_game(players=[white, black], clock=CORRESPONDENCE)
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    game_act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)  # rated: both moved
    result = while_held(
        lambda: game_resign(game_id=game.pk, user=white),
        lambda: vacation.vacation_start(user=black, until=None),
    )
    assert not isinstance(result, Exception), str(result)
    ended = Game.objects.get(pk=game.pk)
    assert ended.status == Game.Status.FINISHED
    assert ended.away == {} and ended.deadline is None and ended.timer == ""
    assert not Event.objects.filter(game=game, kind=Event.Kind.VACATION).exists()


def test_a_full_host_cannot_open_two_more_tables_at_once():
    host = make_user()
    for _ in range(lobby.MAX_OPEN_TABLES_PER_USER - 1):
        lobby.table_create(host=host, ruleset="halma", options={}, seat_count=2)

    def open_one():
        return lobby.table_create(host=host, ruleset="halma", options={}, seat_count=2)

    refused = while_held(open_one, open_one)
    assert isinstance(refused, GameError) and refused.code == "too_many_tables", refused
    count = Game.objects.filter(host=host, status=Game.Status.OPEN).count()
    assert count == lobby.MAX_OPEN_TABLES_PER_USER


class SendGate:
    """send_mail standing in for the SMTP server: a send waits (bounded) until
    every drain has sent too or finished, so two digests would both go out."""

    def __init__(self, drains: int) -> None:
        self.drains, self.sent, self.finished = drains, 0, 0
        self.cond = threading.Condition()

    def send_mail(self, subject, body, sender, to):
        with self.cond:
            self.sent += 1
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.sent + self.finished >= self.drains, timeout=20)
        mail.outbox.append(mail.EmailMessage(subject, body, sender, to))
        return 1

    def drain(self, call):
        def run():
            try:
                return call()
            finally:
                with self.cond:
                    self.finished += 1
                    self.cond.notify_all()

        return run


def test_two_drains_holding_one_users_turn_notices_send_one_digest(monkeypatch, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    white, black = make_user(), make_user()
    black.email, black.email_notifications = "black@example.org", True
    black.save()
    games = [started_game(players=[white, black], clock=CORRESPONDENCE) for _ in range(2)]
    for game in games:
        game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    notices = list(OutgoingMail.objects.filter(digest=True).order_by("pk"))
    assert len(notices) == 2
    now = timezone.now()
    leases = [now + timedelta(minutes=10, seconds=i) for i in range(2)]
    for notice, lease in zip(notices, leases, strict=True):  # each drain claimed one
        OutgoingMail.objects.filter(pk=notice.pk).update(due=lease)
    gate = SendGate(2)
    monkeypatch.setattr(mail_service, "send_mail", gate.send_mail)
    mail.outbox = []
    sent = at_once(
        [
            gate.drain(lambda n=n, lease=lease: mail_service._send(n.pk, lease, now))
            for n, lease in zip(notices, leases, strict=True)
        ]
    )
    assert sorted(sent) == [0, 1], sent
    [digest] = mail.outbox
    assert digest.subject == "2 games wait for your move"
    # The other drain's notice waits for the next hour's digest.
    assert OutgoingMail.objects.get().due == now + mail_service.DIGEST_EVERY


def test_only_the_version_constraint_is_a_stale_version():
    white, black = make_user(), make_user()
    game = started_game(players=[white, black])
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    game_act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    # The rating history already holds this game for White: the end's ratings
    # break "rating_change_once", which says nothing about versions.
    RatingChange.objects.create(
        user=white, game=game, ruleset="halma", speed="correspondence", place=1,
        before=1500, after=1500, mu=25, sigma=8,
    )  # fmt: skip
    answer = client_for(black).post(f"/api/games/{game.pk}/resign/", {}, format="json")
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "conflict"
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE  # nothing changed
    assert not Notification.objects.filter(game=game, kind="game_over").exists()


def test_the_races_ran_on_the_database_the_run_names():
    import os

    assert connection.vendor == ("postgresql" if os.environ.get("DATABASE_URL") else "sqlite")
