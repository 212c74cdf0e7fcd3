"""Web push, the server's side end to end: a device made by the test (its own
P-256 keys and auth secret) subscribes through the API with an endpoint the
test serves on 127.0.0.1; a move queues the push, the outbox's sender
encrypts (aes128gcm) and signs (VAPID) it, and the test decrypts it with the
device's keys. Gone subscriptions are removed; a hung push service is retried
later and never holds up a move."""

from __future__ import annotations

import json
import threading
import time

import pytest
from django.db import connections
from django.utils import timezone, translation
from rest_framework.test import APIClient

from games.models import Notification, OutgoingPush, PushSubscription
from games.services import push, push_keys
from games.services.internal import notifications
from games.services.play import game_act
from tests.factories import BLACK_MOVE, FIRST_MOVE, client_for, make_user, started_game
from tests.games.push_endpoint import Device, check_vapid, use_test_push_service
from tests.games.test_mail import in_thread


@pytest.fixture(autouse=True)
def _push_settings(settings):
    use_test_push_service(settings, [*settings.PUSH_SERVICE_HOSTS, "localhost", "push.example"])


def subscribe(user, device: Device, endpoint: str) -> None:
    answer = client_for(user).post(
        "/api/push/subscriptions/", device.subscription(endpoint), format="json"
    )
    assert answer.status_code == 201, answer.content


@pytest.mark.django_db
def test_a_turn_is_pushed_encrypted_signed_and_in_the_readers_language(service, settings):
    white, black = make_user(), make_user()
    black.language = "de"
    black.save()
    phone, laptop = Device(), Device()
    subscribe(black, phone, service.endpoint("phone"))
    subscribe(black, laptop, service.endpoint("laptop"))
    game = started_game(players=[white, black])  # correspondence

    with translation.override("en"):
        started = time.perf_counter()
        assert game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE) == 2
        print(f"move with 2 devices to push to: {(time.perf_counter() - started) * 1000:.1f} ms")
    assert service.received == []  # the move only queued them
    assert OutgoingPush.objects.count() == 2

    assert push.pushes_send_due() == 2
    by_path = {path: (headers, body) for path, headers, body in service.received}
    for name, device in (("phone", phone), ("laptop", laptop)):
        headers, body = by_path[f"/push/{name}"]
        assert headers["content-encoding"] == "aes128gcm"
        assert int(headers["ttl"]) == push.TTL
        claims = check_vapid(headers["authorization"], settings.VAPID_PUBLIC_KEY, service.origin)
        assert claims["sub"] == "mailto:admin@example.org"
        message = device.decrypt(body)
        assert message["url"] == f"/g/{game.pk}/"
        assert message["kind"] == "your_turn"
        assert message["body"].startswith(f"Du bist am Zug in Partie #{game.pk}")
        with pytest.raises(Exception):  # noqa: B017 (another device's keys cannot read it)
            (laptop if device is phone else phone).decrypt(body)
    assert not OutgoingPush.objects.exists()
    assert PushSubscription.objects.filter(last_success__isnull=False).count() == 2


@pytest.mark.django_db
def test_any_notification_kind_is_pushed_unless_switched_off(service):
    reader, device = make_user(), Device()
    subscribe(reader, device, service.endpoint())
    push.push_muted_set(user=reader, kinds=["draw_offer", "no-such-kind"])
    assert push.push_muted_kinds(reader) == ["draw_offer"]
    for kind in (Notification.Kind.DRAW_OFFER, Notification.Kind.CHALLENGE):
        notifications.notify(
            user_ids=[reader.pk], kind=kind, game=None, params={"player": "Ann", "title": "Halma"}
        )
    assert push.pushes_send_due() == 1
    [(_path, _headers, body)] = service.received
    message = device.decrypt(body)
    assert message["kind"] == "challenge" and message["url"] == "/"
    assert message["body"] == "Ann challenges you to Halma."


@pytest.mark.django_db
@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_forgot_is_removed(service, status):
    reader, other = make_user(), make_user()
    subscribe(reader, Device(), service.endpoint("gone"))
    subscribe(other, Device(), service.endpoint("kept"))
    service.status = status
    notifications.notify(
        user_ids=[reader.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
    )
    assert push.pushes_send_due() == 0
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        service.endpoint("kept")
    ]
    assert not OutgoingPush.objects.exists()


@pytest.mark.django_db
def test_a_failing_push_service_is_tried_again_later_with_growing_pauses(service):
    reader, device = make_user(), Device()
    subscribe(reader, device, service.endpoint())
    service.status = 503
    notifications.notify(
        user_ids=[reader.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
    )
    now = timezone.now()
    pauses = []
    for _ in range(3):
        assert push.pushes_send_due(now) == 0
        queued = OutgoingPush.objects.get()
        pauses.append((queued.due - now).total_seconds())
        assert "503" in queued.last_error
        assert push.pushes_send_due(now) == 0  # not due yet: not tried
        now = queued.due
    assert pauses == [60, 120, 240]
    assert len(service.received) == 3
    service.status = 201
    assert push.pushes_send_due(now) == 1
    assert device.decrypt(service.received[-1][2])["kind"] == "challenge"
    assert PushSubscription.objects.get().last_success == now


@pytest.mark.django_db
def test_a_push_that_keeps_failing_is_given_up_and_kept(service):
    reader = make_user()
    subscribe(reader, Device(), service.endpoint())
    service.status = 500
    notifications.notify(
        user_ids=[reader.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
    )
    now = timezone.now()
    for _ in range(push.MAX_ATTEMPTS):
        push.pushes_send_due(now)
        now = OutgoingPush.objects.get().due or now
    given_up = OutgoingPush.objects.get()
    assert given_up.due is None and given_up.attempts == push.MAX_ATTEMPTS
    assert PushSubscription.objects.exists()  # a broken service is not a gone device


@pytest.mark.django_db(transaction=True)
def test_a_hung_push_service_holds_up_no_move_and_is_retried(service, settings):
    settings.PUSH_TIMEOUT = 1.0
    white, black = make_user(), make_user()
    device = Device()
    subscribe(black, device, service.endpoint())
    subscribe(white, Device(), service.endpoint("white"))
    game = started_game(players=[white, black])
    service.hang = True

    version, seconds = in_thread(
        game_act, game_id=game.pk, user=white, version=1, action=FIRST_MOVE
    )
    print(f"move with a hung push service: {seconds * 1000:.1f} ms")
    assert version == 2 and not service.entered.is_set()  # the move did not even try

    # The sender waits inside the push service; a move goes on meanwhile.
    sent: list[int] = []
    sender = threading.Thread(
        target=lambda: (sent.append(push.pushes_send_due()), connections.close_all())
    )
    started = time.perf_counter()
    sender.start()
    assert service.entered.wait(20)
    version, seconds = in_thread(
        game_act, game_id=game.pk, user=black, version=2, action=BLACK_MOVE
    )
    print(f"move while the push sender hangs: {seconds * 1000:.1f} ms")
    assert version == 3 and seconds < 1.0
    sender.join(20)
    print(f"the sender gave up after {time.perf_counter() - started:.2f} s")
    assert sent == [0]
    queued = OutgoingPush.objects.get(subscription__user=black)
    assert queued.attempts == 1 and queued.due > timezone.now()
    assert "timed out" in queued.last_error.lower() or "timeout" in queued.last_error.lower()

    # Later the service answers: the push goes out then.
    service.hang, service.status = False, 201
    service.release.set()
    assert push.pushes_send_due(queued.due) >= 1
    bodies = [b for p, _h, b in service.received if p == "/push/device"]
    assert device.decrypt(bodies[-1])["url"] == f"/g/{game.pk}/"


@pytest.mark.django_db
def test_a_rolled_back_change_queues_no_push(service):
    reader = make_user()
    subscribe(reader, Device(), service.endpoint())
    with pytest.raises(RuntimeError), transaction_atomic():
        notifications.notify(
            user_ids=[reader.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
        )
        raise RuntimeError("the change fails after notifying")
    assert not OutgoingPush.objects.exists()


def transaction_atomic():
    from django.db import transaction

    return transaction.atomic()


BAD = [
    ({}, "endpoint"),
    ({"endpoint": "not a url", "keys": {"p256dh": "x", "auth": "y"}}, "endpoint"),
    ({"endpoint": "https://push.example/1"}, "keys"),
    ({"endpoint": "https://push.example/1", "keys": {"auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys"),
    ({"endpoint": "https://push.example/1", "keys": "p256dh"}, "keys"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "field"), BAD)
def test_a_malformed_subscription_is_refused_with_a_clear_400(body, field):
    answer = client_for(make_user()).post("/api/push/subscriptions/", body, format="json")
    assert answer.status_code == 400
    data = answer.json()
    assert data["code"] == "bad_request" and field in data["fields"]
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_keys_that_are_no_keys_and_foreign_schemes_are_refused(settings):
    settings.PUSH_ALLOW_HTTP = False
    good = Device().subscription("https://push.example/1")
    client = client_for(make_user())

    def refused(change, field: str, words: str) -> None:
        body = json.loads(json.dumps(good))
        change(body)
        answer = client.post("/api/push/subscriptions/", body, format="json")
        assert answer.status_code == 400, answer.content
        assert words in json.dumps(answer.json()["fields"][field])

    refused(lambda b: b["keys"].update(p256dh="!!!"), "keys", "base64url")
    refused(lambda b: b["keys"].update(p256dh="BAAA"), "keys", "P-256")
    off_curve = "B" + "A" * 86  # 65 bytes, 0x04 and a point not on the curve
    refused(lambda b: b["keys"].update(p256dh=off_curve), "keys", "P-256")
    refused(lambda b: b["keys"].update(auth="AAAA"), "keys", "16 bytes")
    refused(lambda b: b.update(endpoint="http://push.example/1"), "endpoint", "https://")
    refused(lambda b: b.update(endpoint="ftp://push.example/1"), "endpoint", "")
    answer = client.post("/api/push/subscriptions/", "{not json", content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert not PushSubscription.objects.exists()
    assert client.post("/api/push/subscriptions/", good, format="json").status_code == 201


@pytest.mark.django_db
def test_subscriptions_are_per_device_and_removed_on_request():
    ann, bob = make_user(), make_user()
    device = Device().subscription("https://push.example/device")
    assert APIClient().post("/api/push/subscriptions/", device, format="json").status_code in {
        401,
        403,
    }
    assert (
        client_for(ann).post("/api/push/subscriptions/", device, format="json").status_code == 201
    )
    # The same device again: updated, not doubled.
    assert (
        client_for(ann).post("/api/push/subscriptions/", device, format="json").status_code == 200
    )
    state = client_for(ann).get("/api/push/subscriptions/").json()
    assert state["public_key"] == push_keys.push_keys_get().public_key
    assert [s["endpoint"] for s in state["subscriptions"]] == [device["endpoint"]]
    # Bob signs in on that device: it is his now.
    assert (
        client_for(bob).post("/api/push/subscriptions/", device, format="json").status_code == 200
    )
    assert PushSubscription.objects.get().user == bob
    # Ann cannot remove Bob's device; Bob can.
    gone = {"endpoint": device["endpoint"]}
    answer = client_for(ann).delete("/api/push/subscriptions/", gone, format="json")
    assert (answer.status_code, answer.json()) == (200, {"removed": False})
    assert PushSubscription.objects.exists()
    answer = client_for(bob).delete("/api/push/subscriptions/", gone, format="json")
    assert (answer.status_code, answer.json()) == (200, {"removed": True})
    assert not PushSubscription.objects.exists()
    bad = client_for(bob).delete("/api/push/subscriptions/", {}, format="json")
    assert bad.status_code == 400


def test_keys_are_generated_once_into_the_file_and_kept(settings, tmp_path):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_FILE = str(tmp_path / ".vapid.json")
    first = push_keys.push_keys_get()
    assert (tmp_path / ".vapid.json").stat().st_mode & 0o777 == 0o600
    push_keys.push_keys_get.cache_clear()  # another process, or a restart
    assert push_keys.push_keys_get() == first
    assert (
        len(push_keys._signer(first.private_key).public_key.public_numbers().x.to_bytes(32, "big"))
        == 32
    )
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push_keys.push_keys_generate()
    assert push_keys.push_keys_get().public_key == settings.VAPID_PUBLIC_KEY  # the environment wins


REALTIME = {"kind": "realtime", "minutes": 5, "increment": 0}


@pytest.mark.django_db(transaction=True)
async def test_a_realtime_turn_is_pushed_only_to_a_player_whose_page_is_closed(service):
    from games.store import presence
    from tests.db_threads import sync_to_async

    def build():
        white, black = make_user(), make_user()
        white.email, white.email_notifications = "w@example.org", True
        white.save()
        black.email, black.email_notifications = "b@example.org", True
        black.save()
        subscribe(white, Device(), service.endpoint("white"))
        subscribe(black, Device(), service.endpoint("black"))
        return started_game(players=[white, black], clock=REALTIME), white, black

    game, white, black = await sync_to_async(build)()
    turns = Notification.objects.filter(kind=Notification.Kind.YOUR_TURN, game=game)
    # Black has the game open: the page shows the turn, nobody is told.
    await presence.join(game.pk, "black-page", presence.person_key(black, None, "black-page"), 1)
    try:
        await sync_to_async(game_act)(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    finally:
        await presence.leave(game.pk, "black-page")
    assert await sync_to_async(turns.count)() == 0
    # White closed the page: White's turn is pushed, not mailed.
    await sync_to_async(game_act)(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert await sync_to_async(list)(turns.values_list("user_id", flat=True)) == [white.pk]
    from games.models import OutgoingMail

    assert not await sync_to_async(OutgoingMail.objects.exists)()
    assert await sync_to_async(push.pushes_send_due)() == 1
    assert [path for path, _h, _b in service.received] == ["/push/white"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1/push",
        "https://10.0.0.5/internal",
        "https://localhost:8443/admin",
        "https://metadata.google.internal/computeMetadata/v1/",
        "https://fcm.googleapis.com.evil.example/fcm/send/1",
        "https://evilfcm.googleapis.com.example/1",
    ],
)
def test_a_subscription_at_no_known_push_service_is_refused(settings, endpoint):
    """The server posts to the endpoint it is given: only the browsers' push
    services, so no visitor can point it at an address of their choosing."""
    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "push.services.mozilla.com"]
    body = Device().subscription(endpoint)
    answer = client_for(make_user()).post("/api/push/subscriptions/", body, format="json")
    assert answer.status_code == 400
    words = json.dumps(answer.json()["fields"]["endpoint"])
    assert "sends no pushes" in words or "numeric host" in words  # IP literals, ports
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAA",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        "https://web.push.apple.com/QGuQyavXutnMH",
    ],
)
def test_the_browsers_push_services_are_accepted_by_default(endpoint):
    from django.conf import settings as defaults

    assert defaults.PUSH_SERVICE_HOSTS  # the defaults of config/settings.py, not the fixture's
    body = Device().subscription(endpoint)
    answer = client_for(make_user()).post("/api/push/subscriptions/", body, format="json")
    assert answer.status_code == 201, answer.content


@pytest.mark.django_db
def test_pushes_for_a_service_no_longer_listed_are_dropped_unsent(settings, service):
    reader = make_user()
    subscribe(reader, Device(), service.endpoint())
    notifications.notify(
        user_ids=[reader.pk], kind=Notification.Kind.CHALLENGE, game=None, params={}
    )
    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com"]  # the operator narrowed the list
    assert push.pushes_send_due() == 0
    assert service.received == []
    assert not PushSubscription.objects.exists() and not OutgoingPush.objects.exists()
