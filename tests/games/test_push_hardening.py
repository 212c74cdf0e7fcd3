"""Web push held against strangers: endpoints that only look like a push
service's are refused (on subscribing, and again before each push, with the
sender's own parse); one bad row never holds up anyone else's push; a
realtime turn's push is urgent and short-lived. The pushes go to a push
service the test serves (tests/games/push_endpoint.py); the VAPID keys'
checks are in test_push_keys.py."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Notification, OutgoingPush, PushSubscription
from games.services import push
from games.services.internal import notifications
from games.services.play import game_act
from tests.factories import FIRST_MOVE, client_for, make_user, started_game
from tests.games.push_endpoint import Device, PushService, use_test_push_service

FCM = "fcm.googleapis.com"
# Each of these looks like FCM to one reading or another; none is posted to.
LOOK_ALIKES = [
    "https://evil.example\\@fcm.googleapis.com/fcm/send/1",  # requests posts to evil.example
    "https://evil.example%40fcm.googleapis.com/fcm/send/1",
    "https://evil%40example@fcm.googleapis.com/fcm/send/1",
    "https://evil.example@@fcm.googleapis.com/fcm/send/1",
    "https://user@fcm.googleapis.com/fcm/send/1",
    "https://user:secret@fcm.googleapis.com/fcm/send/1",
    "https://:@fcm.googleapis.com/fcm/send/1",
    "https://fcm.googleapis.com:8443/fcm/send/1",
    "https://fcm.googleapis.com:80/fcm/send/1",
    "http://fcm.googleapis.com/fcm/send/1",
    "https://fcm.googleapis.com./fcm/send/1",
    "https://fcm.googleapis.com.evil.example./fcm/send/1",
    "https://FCM.GOOGLEAPIS.COM.evil.example/fcm/send/1",
    "https://[::1]/fcm/send/1",
    "https://[::ffff:127.0.0.1]/fcm/send/1",
    "https://[fe80::1%25eth0]/fcm/send/1",
    "https://fcm.googleapis.com\\.evil.example/fcm/send/1",
    "https://fcm.googleapis.com%2f@evil.example/fcm/send/1",
    "https://fcm.googleapis.com\t.evil.example/fcm/send/1",
    "https://fcm.googleapis.com\u3002evil.example/fcm/send/1",
]
# The same host, spelt in ways that are harmless: accepted.
SAME_HOST = [
    "https://FCM.GoogleAPIs.com/fcm/send/1",
    "https://fcm.googleapis.com:443/fcm/send/1",
    "https://fcm.googleapis.com/fcm/send/1#@evil.example",
]


@pytest.fixture(autouse=True)
def _push_settings(settings):
    use_test_push_service(settings, [FCM, "localhost"])


def post_subscription(user, endpoint: str, device: Device | None = None):
    body = (device or Device()).subscription(endpoint)
    return client_for(user).post("/api/push/subscriptions/", body, format="json")


def stored(user, endpoint: str, device: Device | None = None) -> PushSubscription:
    """A subscription stored as an older release would have stored it."""
    keys = (device or Device()).subscription(endpoint)["keys"]
    return PushSubscription.objects.create(user=user, endpoint=endpoint, **keys)


def challenge(*users) -> None:
    notifications.notify(
        user_ids=[u.pk for u in users], kind=Notification.Kind.CHALLENGE, game=None, params={}
    )


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", LOOK_ALIKES)
def test_a_look_alike_endpoint_is_refused_with_a_clear_400(settings, endpoint):
    settings.PUSH_ALLOW_HTTP = False
    answer = post_subscription(make_user(), endpoint)
    assert answer.status_code == 400, endpoint
    assert answer.json()["code"] == "bad_request" and "endpoint" in answer.json()["fields"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", SAME_HOST)
def test_the_same_host_spelt_otherwise_is_accepted(settings, endpoint):
    settings.PUSH_ALLOW_HTTP = False
    answer = post_subscription(make_user(), endpoint)
    assert answer.status_code == 201, answer.content


@pytest.mark.django_db
def test_the_refusal_says_what_is_wrong(settings):
    settings.PUSH_ALLOW_HTTP = False

    def words(endpoint: str) -> str:
        answer = post_subscription(make_user(), endpoint)
        assert answer.status_code == 400
        return json.dumps(answer.json()["fields"]["endpoint"])

    assert "https://" in words("http://fcm.googleapis.com/1")
    assert "sends no pushes to evil.example" in words("https://evil.example/1")
    plain = "user name, password, port, backslash"
    assert plain in words("https://evil.example\\@fcm.googleapis.com/1")
    assert plain in words("https://fcm.googleapis.com:8443/1")


@pytest.mark.django_db
def test_a_stored_look_alike_is_never_posted_to(service, caplog):
    """Stored before the check: requests would post to the part before the
    backslash (the test's service), the old check read the part after it."""
    reader, other = make_user(), make_user()
    port = service.server.server_address[1]
    sneaky = stored(reader, f"http://localhost:{port}\\@{FCM}/push/sneaky")
    stored(other, f"http://localhost:{port}/push/kept")
    challenge(reader, other)
    with caplog.at_level(logging.INFO, logger="games.services.push"):
        assert push.pushes_send_due() == 1
    assert [path for path, _h, _b in service.received] == ["/push/kept"]
    assert not PushSubscription.objects.filter(pk=sneaky.pk).exists()
    assert "backslash" in caplog.text
    assert not OutgoingPush.objects.exists()


@pytest.mark.django_db
def test_a_row_pywebpush_refuses_holds_up_no_other_push(service, caplog):
    """A bad row between two good ones: both good ones go out in the same
    pass, the bad one is dropped with its reason logged, and no claim is
    left behind."""
    first, bad, last = make_user(), make_user(), make_user()
    port = service.server.server_address[1]
    stored(first, f"http://localhost:{port}/push/first")
    # py_vapid's VapidException (the endpoint's user-info makes no "aud").
    stored(bad, f"http://user:pw@localhost:{port}/push/bad")
    stored(last, f"http://localhost:{port}/push/last")
    for user in (first, bad, last):
        challenge(user)
    with caplog.at_level(logging.INFO, logger="games.services.push"):
        assert push.pushes_send_due() == 2
    assert sorted(path for path, _h, _b in service.received) == ["/push/first", "/push/last"]
    assert not OutgoingPush.objects.exists()
    assert "user-info" in caplog.text


@pytest.mark.django_db
def test_a_row_that_raises_anything_else_is_given_up_alone(service, caplog, monkeypatch):
    """Not a transport error, so not retried 8 times: given up at once (kept,
    with its reason), logged; the rows beside it go out in the same pass."""
    first, broken, last = make_user(), make_user(), make_user()
    for user, name in ((first, "first"), (broken, "broken"), (last, "last")):
        stored(user, service.endpoint(name))
    real = push._post

    def post(sub, *args):
        if sub.user_id == broken.pk:
            raise RuntimeError("a bug of this row's")
        return real(sub, *args)

    monkeypatch.setattr(push, "_post", post)
    for user in (first, broken, last):
        challenge(user)
    with caplog.at_level(logging.ERROR, logger="games.services.push"):
        assert push.pushes_send_due() == 2
    assert sorted(path for path, _h, _b in service.received) == ["/push/first", "/push/last"]
    given_up = OutgoingPush.objects.get()
    assert given_up.subscription.user == broken and given_up.due is None
    assert given_up.last_error and f"push {given_up.pk}" in caplog.text
    assert push.pushes_send_due(timezone.now() + push.LAST_RETRY * 2) == 0  # never again


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("p256dh", "auth"), [("BAAA", None), ("B" + "A" * 86, None), (None, "AAAA")]
)
def test_a_device_whose_keys_cannot_encrypt_is_removed(service, caplog, p256dh, auth):
    """Keys stored before the API checked them: the subscription goes with its
    pushes (not a given-up row per notification, forever)."""
    first, broken = make_user(), make_user()
    stored(first, service.endpoint("first"))
    sub = stored(broken, service.endpoint("broken"))
    PushSubscription.objects.filter(pk=sub.pk).update(
        p256dh=p256dh or sub.p256dh, auth=auth or sub.auth
    )
    challenge(first, broken)
    with caplog.at_level(logging.WARNING, logger="games.services.push"):
        assert push.pushes_send_due() == 1
    assert [path for path, _h, _b in service.received] == ["/push/first"]
    assert not PushSubscription.objects.filter(pk=sub.pk).exists()
    assert not OutgoingPush.objects.exists() and "keys" in caplog.text


@pytest.mark.django_db
def test_broken_vapid_settings_delete_no_device(service, settings):
    """py_vapid refusing the site's own claims is no device's fault."""
    user = make_user()
    sub = stored(user, service.endpoint("kept"))
    settings.VAPID_SUBJECT = "nobody"  # neither mailto: nor https:
    challenge(user)
    assert push.pushes_send_due() == 0
    assert PushSubscription.objects.filter(pk=sub.pk).exists()
    given_up = OutgoingPush.objects.get()
    assert given_up.due is None and "VapidException" in given_up.last_error  # kept


@pytest.mark.django_db
def test_a_database_failing_in_passing_gives_nothing_up(service, monkeypatch):
    """An OperationalError while sending is the database's, not the row's:
    the push is tried again later and goes out then."""
    from django.db import OperationalError

    user = make_user()
    stored(user, service.endpoint("later"))
    real = push._post

    def post(*args):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(push, "_post", post)
    challenge(user)
    now = timezone.now()
    assert push.pushes_send_due(now) == 0
    queued = OutgoingPush.objects.get()
    assert queued.due is not None and queued.due > now and queued.attempts == 1
    assert "server closed" in queued.last_error
    monkeypatch.setattr(push, "_post", real)
    assert push.pushes_send_due(queued.due) == 1
    assert [path for path, _h, _b in service.received] == ["/push/later"]


@pytest.mark.django_db
def test_given_up_rows_are_purged_after_a_few_days(service):
    from games.services import outbox

    user = make_user()
    stored(user, service.endpoint("x"))
    for _ in range(3):
        challenge(user)
    old, recent, pending = OutgoingPush.objects.order_by("pk")
    now = timezone.now()
    OutgoingPush.objects.filter(pk__in=[old.pk, recent.pk]).update(due=None)
    OutgoingPush.objects.filter(pk=old.pk).update(created=now - outbox.KEEP_GIVEN_UP * 2)
    OutgoingPush.objects.filter(pk=pending.pk).update(due=now + timedelta(hours=1))
    push.OUTBOX.next_purge.clear()
    push.pushes_send_due(now)
    assert sorted(OutgoingPush.objects.values_list("pk", flat=True)) == [recent.pk, pending.pk]


REALTIME = {"kind": "realtime", "minutes": 5, "increment": 0}


@pytest.mark.django_db
def test_a_realtime_turn_is_pushed_urgent_and_short_lived(service):
    white, black = make_user(), make_user()
    stored(black, service.endpoint("black"))
    game = started_game(players=[white, black], clock=REALTIME)
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert push.pushes_send_due() == 1
    [(_path, headers, _body)] = service.received
    print(f"realtime turn: TTL {headers['ttl']} s, Urgency {headers.get('urgency')}")
    assert int(headers["ttl"]) == push.URGENT_TTL <= 300
    assert headers["urgency"] == "high"


@pytest.mark.django_db
def test_a_correspondence_turn_keeps_a_long_ttl_and_normal_urgency(service):
    white, black = make_user(), make_user()
    stored(black, service.endpoint("black"))
    game = started_game(players=[white, black])  # correspondence
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert push.pushes_send_due() == 1
    [(_path, headers, _body)] = service.received
    print(f"correspondence turn: TTL {headers['ttl']} s, Urgency {headers.get('urgency')}")
    assert int(headers["ttl"]) == push.TTL >= 24 * 3600
    assert headers["urgency"] == "normal"


@pytest.mark.django_db
def test_a_realtime_turn_not_pushed_in_time_is_dropped_unsent(service):
    white, black = make_user(), make_user()
    stored(black, service.endpoint("black"))
    game = started_game(players=[white, black], clock=REALTIME)
    service.status = 503
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert push.pushes_send_due() == 0  # the push service is down
    service.status = 201
    late = timezone.now() + timedelta(seconds=push.URGENT_TTL * 2)
    assert push.pushes_send_due(late) == 0
    assert len(service.received) == 1  # only the failed try
    assert not OutgoingPush.objects.exists()


@pytest.mark.django_db
def test_a_push_service_redirecting_elsewhere_is_not_followed(service):
    """A redirect would post the push to an address no check has seen."""
    white, black = make_user(), make_user()
    stored(black, service.endpoint("black"))
    with PushService() as elsewhere:
        service.status, service.location = 307, elsewhere.endpoint("stolen")
        game = started_game(players=[white, black])
        game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
        assert push.pushes_send_due() == 0
        assert len(service.received) == 1
        assert elsewhere.received == []
    [queued] = OutgoingPush.objects.all()
    assert queued.due is not None and queued.attempts == 1  # tried again later, as any odd answer
