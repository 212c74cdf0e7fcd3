"""E-mail goes out from a durable outbox, after the commit, in the background,
in each recipient's stored language; a slow or failing mail server never
holds up or fails a move."""

from __future__ import annotations

import asyncio
import smtplib
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.locmem import EmailBackend as MemoryBackend
from django.db import connections, transaction
from django.utils import timezone, translation

from games import publish
from games.models import Notification, OutgoingMail
from games.realtime.sweeper import Sweeper
from games.selectors import notifications as notification_reads
from games.services import mail as mailer
from games.services.internal import notifications
from games.services.play import game_act
from tests.db_threads import sync_to_async
from tests.factories import BLACK_MOVE, FIRST_MOVE, make_user, started_game

HERE = "tests.games.test_mail"
MEMORY = "django.core.mail.backends.locmem.EmailBackend"


class HungBackend(MemoryBackend):
    """A mail server that answers only when the test says so."""

    entered = threading.Event()
    release = threading.Event()

    def send_messages(self, messages):
        HungBackend.entered.set()
        HungBackend.release.wait(60)
        return super().send_messages(messages)


class FailingBackend(BaseEmailBackend):
    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("the mail server went away")


class SignallingBackend(MemoryBackend):
    sent = threading.Event()

    def send_messages(self, messages):
        count = super().send_messages(messages)
        SignallingBackend.sent.set()
        return count


@pytest.fixture(autouse=True)
def _fresh_backends():
    for event in (HungBackend.entered, HungBackend.release, SignallingBackend.sent):
        event.clear()
    yield
    HungBackend.release.set()  # never leave a sender hanging


def mail_reader(language: str = "") -> Any:
    user = make_user()
    user.email, user.email_notifications, user.language = (
        f"{user.username}@example.org",
        True,
        language,
    )
    user.save()
    return user


def in_thread(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """``func``'s result and seconds taken, in a thread of its own; fails if it
    has not returned within 20 seconds (a move waiting for the mail server)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        started = time.perf_counter()
        try:
            outcome["result"] = func(*args, **kwargs)
        except Exception as exc:
            outcome["error"] = exc
        finally:
            outcome["seconds"] = time.perf_counter() - started
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), f"{func.__name__} still waits after 20 s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"], outcome["seconds"]


@pytest.mark.django_db(transaction=True)
def test_a_hung_mail_server_holds_up_no_move(settings):
    settings.EMAIL_BACKEND = f"{HERE}.HungBackend"
    white, black = mail_reader(), mail_reader()
    game = started_game(players=[white, black])  # correspondence: Black is notified

    version, seconds = in_thread(
        game_act, game_id=game.pk, user=white, version=1, action=FIRST_MOVE
    )
    print(f"move with a hung mail server: {seconds * 1000:.1f} ms")
    assert version == 2
    assert OutgoingMail.objects.filter(notification__user=black).count() == 1
    assert not HungBackend.entered.is_set()  # the move did not even try

    # The sender hangs inside the mail server; moves go on meanwhile (on
    # SQLite too: no write transaction is held while sending).
    sender = threading.Thread(target=lambda: (mailer.mail_send_due(), connections.close_all()))
    sender.start()
    assert HungBackend.entered.wait(20)
    version, seconds = in_thread(
        game_act, game_id=game.pk, user=black, version=2, action=BLACK_MOVE
    )
    print(f"move while the sender hangs: {seconds * 1000:.1f} ms")
    assert version == 3

    HungBackend.release.set()
    sender.join(20)
    assert not sender.is_alive()
    assert [m.to for m in mail.outbox] == [[black.email]]
    # White's mail, queued after the sender's claim, waits for the next round.
    assert list(OutgoingMail.objects.values_list("notification__user", flat=True)) == [white.pk]


@pytest.mark.django_db
def test_mail_goes_out_after_the_commit_in_the_recipients_language(
    django_capture_on_commit_callbacks, monkeypatch
):
    pushed: list[tuple[int, dict]] = []
    monkeypatch.setattr(publish, "publish_to_user", lambda uid, p: pushed.append((uid, p)))
    white, black = mail_reader("en"), mail_reader("de")
    game = started_game(players=[white, black])
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert mail.outbox == []  # nothing was sent by the move
    # The bell hears at once, in German, though the mover's request was English.
    [(to, payload)] = pushed
    assert to == black.pk
    assert payload["notification"]["text"].startswith("Du bist am Zug in Partie")
    with translation.override("en"):
        assert notification_reads.unread(black)[0]["text"].startswith("Du bist am Zug")
        assert notification_reads.unread(white) == []
        assert mailer.mail_send_due() == 1
    [sent] = mail.outbox
    assert sent.to == [black.email]
    assert sent.subject.startswith("Du bist am Zug") and "(Halma)" in sent.body
    assert not OutgoingMail.objects.exists()


@pytest.mark.django_db
def test_a_rolled_back_change_leaves_no_mail_and_no_address_no_mail():
    reader, silent = mail_reader(), make_user()
    with pytest.raises(RuntimeError), transaction.atomic():
        notifications.notify(
            user_ids=[reader.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
        )
        raise RuntimeError("the change fails after notifying")
    assert not Notification.objects.exists() and not OutgoingMail.objects.exists()
    notifications.notify(
        user_ids=[reader.pk, silent.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
    )
    assert Notification.objects.count() == 2
    assert list(OutgoingMail.objects.values_list("notification__user", flat=True)) == [reader.pk]


def queue_one(user: Any) -> OutgoingMail:
    params = {"game": 7, "title": "Halma"}
    notifications.notify(
        user_ids=[user.pk], kind=Notification.Kind.YOUR_TURN, game=None, params=params
    )
    return OutgoingMail.objects.get()


@pytest.mark.django_db
def test_a_failing_send_is_retried_later(settings):
    settings.EMAIL_BACKEND = f"{HERE}.FailingBackend"
    reader = mail_reader()
    queue_one(reader)
    now = timezone.now()
    assert mailer.mail_send_due(now) == 0
    queued = OutgoingMail.objects.get()
    assert queued.attempts == 1 and queued.due > now
    assert "went away" in queued.last_error
    assert mailer.mail_send_due(now) == 0  # not due again yet: not tried
    assert OutgoingMail.objects.get().attempts == 1
    settings.EMAIL_BACKEND = MEMORY
    assert mailer.mail_send_due(queued.due) == 1
    assert [m.to for m in mail.outbox] == [[reader.email]]
    assert not OutgoingMail.objects.exists()


@pytest.mark.django_db
def test_a_mail_that_keeps_failing_is_given_up_and_kept(settings):
    settings.EMAIL_BACKEND = f"{HERE}.FailingBackend"
    queue_one(mail_reader())
    now = timezone.now()
    for _ in range(mailer.MAX_ATTEMPTS):
        mailer.mail_send_due(now)
        now = OutgoingMail.objects.get().due or now
    given_up = OutgoingMail.objects.get()
    assert given_up.due is None and given_up.attempts == mailer.MAX_ATTEMPTS
    settings.EMAIL_BACKEND = MEMORY
    assert mailer.mail_send_due(now + mailer.LAST_RETRY * 10) == 0


@pytest.mark.django_db
def test_a_mail_turned_off_before_sending_is_dropped():
    reader = mail_reader()
    queue_one(reader)
    reader.email_notifications = False
    reader.save()
    assert mailer.mail_send_due() == 0
    assert mail.outbox == [] and not OutgoingMail.objects.exists()


@pytest.mark.django_db
def test_a_claim_that_lapsed_to_another_sender_is_not_sent_twice():
    queued = queue_one(mail_reader())
    now = timezone.now()
    stalled = now + mailer.LEASE
    assert mailer._claim_due(now, stalled) == [queued.pk]
    # That sender stalls past its lease; another process claims the mail again.
    other = stalled + mailer.LEASE
    assert mailer._claim_due(stalled, other) == [queued.pk]
    assert mailer._send(queued.pk, stalled, stalled) == 0  # no longer the stalled one's
    assert mailer._send(queued.pk, other, stalled) == 1
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
async def test_the_server_process_sends_the_outbox(settings):
    settings.GAME_SWEEPER = True  # as in a server process (the suite turns it off)
    settings.GAME_MAIL_SECONDS = 0.05
    settings.EMAIL_BACKEND = f"{HERE}.SignallingBackend"
    reader = await sync_to_async(mail_reader)("de")
    await sync_to_async(queue_one)(reader)
    worker = Sweeper()
    worker.ensure_started()
    try:
        assert await asyncio.to_thread(SignallingBackend.sent.wait, 20)
    finally:
        await worker.stop()  # every loop, each after its round: no query left at teardown
    [sent] = mail.outbox
    assert sent.to == [reader.email] and sent.body.startswith("Du bist am Zug in Partie #7")
