"""A game's whole life: clocks and deadlines, draws, abort, leaving, chat,
notifications, replay, export and import."""

from __future__ import annotations

import copy
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import clocks
from games.errors import GameError
from games.models import ChatMessage, Event, Game, Notification
from games.realtime.sweeper import sweep_once
from games.rules import RULESETS
from games.rules.malefiz import MalefizRuleset
from games.selectors import replays
from games.services import chat
from games.services.endings import (
    game_abort,
    game_accept_draw,
    game_decline_draw,
    game_offer_draw,
    game_resign,
)
from games.services.handover import game_handover_decline
from games.services.mail import mail_send_due
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import BLACK_MOVE, FIRST_MOVE, import_export, make_user

pytestmark = pytest.mark.django_db


def new_game(clock=None, players=2, ruleset="halma"):
    """A casual game: these tests end games before every seat moved, which
    aborts a rated one (tests/games/test_ratings_hold.py)."""
    users = [make_user() for _ in range(players)]
    game = lobby.table_create(
        host=users[0], ruleset=ruleset, seat_count=players, clock=clock, rated=False
    )
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    return game, users


class Clock:
    """A controllable clock for django.utils.timezone.now."""

    def __init__(self):
        self.now = timezone.now()
        self.patch = mock.patch("django.utils.timezone.now", side_effect=lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    c = Clock()
    with c.patch:
        yield c


# --- time controls ------------------------------------------------------------


def test_clock_validation():
    assert clocks.clean_clock(None) == {"kind": "correspondence", "days": 3}
    assert clocks.clean_clock({"kind": "realtime", "minutes": 5, "increment": 2})["minutes"] == 5
    for bad in [
        {"kind": "blitz"},
        {"kind": "correspondence", "days": 15},
        {"kind": "realtime", "minutes": 0},
        "x",
    ]:
        with pytest.raises(GameError) as info:
            clocks.clean_clock(bad)
        assert info.value.code == "bad_clock"


def test_correspondence_deadline_and_timeout(clock):
    game, (_white, _black) = new_game()
    assert game.timer == "move"
    assert game.deadline == clock.now + timedelta(days=3)
    clock.advance(3 * 86400 - 1)
    assert sweep_once() == 0
    clock.advance(2)
    assert sweep_once() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
    assert "ran out of time" in game.result["reason"]
    assert sweep_once() == 0  # applied once only


def test_realtime_clock_charges_and_flags(clock):
    game, (white, black) = new_game({"kind": "realtime", "minutes": 1, "increment": 2})
    assert game.clocks == [60.0, 60.0] and game.timer == "clock"
    clock.advance(10)
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    game.refresh_from_db()
    assert game.clocks == [52.0, 60.0]
    assert game.deadline == clock.now + timedelta(seconds=60)
    clock.advance(59)
    assert sweep_once() == 0
    clock.advance(1.5)
    with pytest.raises(GameError) as info:
        game_act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    assert info.value.code == "deadline_passed"
    assert sweep_once() == 1
    game.refresh_from_db()
    assert game.result["winners"] == [0]
    assert game.events.last().kind == Event.Kind.END


def test_paused_game_stops_its_clock(clock):
    game, _ = new_game({"kind": "realtime", "minutes": 1, "increment": 0})
    Game.objects.filter(pk=game.pk).update(paused=True)
    clock.advance(3600)
    assert sweep_once() == 0


def test_snapshot_shows_server_countdown(clock):
    game, (_white, _) = new_game({"kind": "realtime", "minutes": 1, "increment": 0})
    clock.advance(15)
    data = APIClient().get(f"/api/games/{game.pk}/").json()["state"]["clock"]
    assert data["kind"] == "realtime" and data["remaining"] == [45.0, 60.0]
    assert data["deadline"] and data["now"]


# --- every event kind charges the clocks once, and refills nothing --------------
REALTIME = {"kind": "realtime", "minutes": 1, "increment": 2}


def fresh(game):
    game.refresh_from_db()
    return game


def test_draw_offers_and_answers_charge_the_running_clock_and_the_turn_goes_on(clock):
    game, (white, black) = new_game(REALTIME)
    started = clock.now
    assert game.clocks == [60.0, 60.0] and game.deadline == started + timedelta(seconds=60)
    clock.advance(10)
    game_offer_draw(game_id=game.pk, user=white)  # by the player to move
    game = fresh(game)
    assert game.clocks == [50.0, 60.0] and game.turn_started == clock.now
    assert game.deadline == started + timedelta(seconds=60)  # not refilled
    clock.advance(5)
    game_decline_draw(game_id=game.pk, user=black)
    game = fresh(game)
    assert game.clocks == [45.0, 60.0] and game.deadline == started + timedelta(seconds=60)
    clock.advance(5)
    game_act(game_id=game.pk, user=white, version=game.version, action=FIRST_MOVE)
    game = fresh(game)
    assert game.clocks == [42.0, 60.0]  # 40 left plus the increment
    assert game.deadline == clock.now + timedelta(seconds=60)  # Black's turn begins
    clock.advance(7)
    game_offer_draw(game_id=game.pk, user=white)  # by the player not to move
    game = fresh(game)
    assert game.clocks == [42.0, 53.0] and game.deadline == clock.now + timedelta(seconds=53)
    clock.advance(3)
    game_decline_draw(game_id=game.pk, user=black)
    game = fresh(game)
    assert game.clocks == [42.0, 50.0] and game.deadline == clock.now + timedelta(seconds=50)


def test_a_correspondence_turn_is_not_refilled_by_draw_offers(clock):
    game, (white, black) = new_game({"kind": "correspondence", "days": 1})
    turn_ends = clock.now + timedelta(days=1)
    assert game.deadline == turn_ends and game.timer == "move"
    clock.advance(20 * 3600)
    game_offer_draw(game_id=game.pk, user=black)
    assert fresh(game).deadline == turn_ends
    clock.advance(3600)
    game_decline_draw(game_id=game.pk, user=white)
    assert fresh(game).deadline == turn_ends
    clock.advance(3600)
    game_act(game_id=game.pk, user=white, version=fresh(game).version, action=FIRST_MOVE)
    assert fresh(game).deadline == clock.now + timedelta(days=1)  # a move starts a new turn


def test_a_game_whose_clocks_predate_correspondence_clocks_keeps_its_turn(clock):
    game, (_white, black) = new_game({"kind": "correspondence", "days": 1})
    Game.objects.filter(pk=game.pk).update(clocks=[])  # as stored before
    clock.advance(3600)
    game_offer_draw(game_id=game.pk, user=black)
    game = fresh(game)
    assert game.clocks == [82800.0, 86400.0]
    assert game.deadline == clock.now + timedelta(seconds=82800)


def end_by_resigning(game, white, black, clock):
    game_resign(game_id=game.pk, user=black)


def end_by_aborting(game, white, black, clock):
    game_abort(game_id=game.pk, user=black)


def end_by_agreeing(game, white, black, clock):
    game_offer_draw(game_id=game.pk, user=black)
    game_accept_draw(game_id=game.pk, user=white)


def end_by_flag(game, white, black, clock):
    clock.advance(48)
    assert sweep_once() == 1


@pytest.mark.parametrize(
    ("ending", "white_left"),
    [
        (end_by_resigning, 48.0),
        (end_by_aborting, 48.0),
        (end_by_agreeing, 48.0),
        (end_by_flag, 0.0),
    ],
)
def test_endings_charge_the_clock_and_stop_it(clock, ending, white_left):
    game, (white, black) = new_game(REALTIME)
    clock.advance(12)
    ending(game, white, black, clock)
    game = fresh(game)
    assert game.is_over and game.deadline is None and game.timer == ""
    assert game.clocks == [white_left, 60.0]
    clock.advance(30)
    data = APIClient().get(f"/api/games/{game.pk}/").json()["state"]["clock"]
    assert data["remaining"] == [white_left, 60.0]  # stopped for good


def test_a_seat_leaving_out_of_turn_leaves_the_turn_running(malefiz, clock):
    game, users = new_game({"kind": "correspondence", "days": 1}, players=3, ruleset="malefiz")
    mover = game.to_act[0]
    turn_ends = clock.now + timedelta(days=1)
    clock.advance(3600)
    other = next(s for s in range(3) if s != mover)
    game_resign(game_id=game.pk, user=users[other])
    # Nobody hands the seat to a bot (services/handover.py): it leaves.
    game_handover_decline(game_id=game.pk, user=users[mover], seat=other)
    game = fresh(game)
    assert game.left_seats == [other] and game.to_act == [mover]
    assert game.deadline == turn_ends  # the mover's turn goes on
    clock.advance(3600)
    game_resign(game_id=game.pk, user=users[mover])  # the mover leaves: the last seat wins
    game = fresh(game)
    assert game.status == Game.Status.FINISHED and game.deadline is None


def test_the_mover_leaving_starts_the_next_turn(malefiz, clock):
    game, users = new_game({"kind": "realtime", "minutes": 1, "increment": 0}, players=4,
                           ruleset="malefiz")  # fmt: skip
    mover = game.to_act[0]
    clock.advance(10)
    game_resign(game_id=game.pk, user=users[mover])
    other = next(s for s in range(4) if s != mover)
    game_handover_decline(game_id=game.pk, user=users[other], seat=mover)  # it leaves
    game = fresh(game)
    (following,) = game.to_act
    assert game.clocks[mover] == 50.0 and game.clocks[following] == 60.0
    assert game.deadline == clock.now + timedelta(seconds=60)


# --- ending and leaving -----------------------------------------------------------


def test_draw_offer_decline_accept():
    game, (white, black) = new_game()
    game_offer_draw(game_id=game.pk, user=white)
    with pytest.raises(GameError, match="already offered"):
        game_offer_draw(game_id=game.pk, user=white)
    with pytest.raises(GameError, match="your own"):
        game_accept_draw(game_id=game.pk, user=white)
    game_decline_draw(game_id=game.pk, user=black)
    game.refresh_from_db()
    assert game.draw_offers == [] and game.status == Game.Status.ACTIVE
    with pytest.raises(GameError, match="no draw offer"):
        game_accept_draw(game_id=game.pk, user=black)
    game_offer_draw(game_id=game.pk, user=black)
    game_accept_draw(game_id=game.pk, user=white)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["draw"] is True


def test_a_move_withdraws_draw_offers():
    game, (white, black) = new_game()
    game_offer_draw(game_id=game.pk, user=black)
    game_act(game_id=game.pk, user=white, version=2, action=FIRST_MOVE)
    game.refresh_from_db()
    assert game.draw_offers == []


def test_abort_only_before_every_seat_moved():
    game, (white, black) = new_game()
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    game_act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    with pytest.raises(GameError) as info:
        game_abort(game_id=game.pk, user=white)
    assert info.value.code == "cannot_abort"
    fresh, (a, _) = new_game()
    game_abort(game_id=fresh.pk, user=a)
    fresh.refresh_from_db()
    assert fresh.status == Game.Status.ABORTED


def test_resigning_a_finished_game_is_refused():
    game, (white, black) = new_game()
    game_resign(game_id=game.pk, user=white)
    for call in (game_resign, game_offer_draw, game_abort):
        with pytest.raises(GameError) as info:
            call(game_id=game.pk, user=black)
        assert info.value.code == "game_over"


@pytest.fixture
def malefiz(monkeypatch):
    monkeypatch.setitem(RULESETS, "malefiz", MalefizRuleset())


def test_leaving_a_three_seat_game(malefiz, clock):
    game, users = new_game(
        {"kind": "realtime", "minutes": 1, "increment": 0}, players=3, ruleset="malefiz"
    )
    leaver = users[game.to_act[0]]
    seat = game.to_act[0]
    game_resign(game_id=game.pk, user=leaver)
    other = next(s for s in range(3) if s != seat)
    game_handover_decline(game_id=game.pk, user=users[other], seat=seat)  # it leaves
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.left_seats == [seat]
    assert seat not in game.to_act
    with pytest.raises(GameError):
        game_act(game_id=game.pk, user=leaver, version=game.version, action={"type": "roll"})
    # The next seat runs out of time: it leaves too, and the last one wins.
    clock.advance(61)
    assert sweep_once() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert len(game.result["winners"]) == 1 and game.result["winners"][0] not in game.left_seats


def test_draw_in_three_seats_needs_everyone(malefiz):
    game, users = new_game(players=3, ruleset="malefiz")
    game_offer_draw(game_id=game.pk, user=users[0])
    game_accept_draw(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.draw_offers == [0, 1]
    game_accept_draw(game_id=game.pk, user=users[2])
    game.refresh_from_db()
    assert game.result["draw"] is True


# --- chat -------------------------------------------------------------------------


def test_chat_rules():
    game, (white, _) = new_game()
    spectator = make_user()
    msg = chat.chat_post(game_id=game.pk, user=white, text="  <b>hallo</b> ")
    assert msg["text"] == "<b>hallo</b>" and msg["seat"] == 0 and not msg["spectator"]
    assert chat.chat_post(game_id=game.pk, user=spectator, text="gg")["spectator"] is True
    for text, code in [("", "bad_request"), ("x" * 501, "too_long"), (None, "bad_request")]:
        with pytest.raises(GameError) as info:
            chat.chat_post(game_id=game.pk, user=white, text=text)
        assert info.value.code == code
    for i in range(4):
        chat.chat_post(game_id=game.pk, user=white, text=f"m{i}")
    with pytest.raises(GameError) as info:
        chat.chat_post(game_id=game.pk, user=white, text="flood")
    assert info.value.code == "rate_limited"
    assert ChatMessage.objects.filter(game=game).count() == 6
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(GameError):
        chat.chat_post(game_id=game.pk, user=AnonymousUser(), text="hi")


# --- notifications ---------------------------------------------------------------


def test_notifications_for_turns_offers_and_endings(django_capture_on_commit_callbacks, mailoutbox):
    black_user = make_user()
    black_user.email, black_user.email_notifications = "b@example.org", True
    black_user.save()
    white = make_user()
    game = lobby.table_create(host=white, ruleset="halma", challenge=black_user.username)
    assert Notification.objects.filter(user=black_user, kind="challenge").exists()
    lobby.table_join(game_id=game.pk, user=black_user)
    lobby.table_start(game_id=game.pk, user=white)
    with django_capture_on_commit_callbacks(execute=True):
        game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    assert Notification.objects.filter(user=black_user, kind="your_turn").count() == 1
    assert mailoutbox == []  # mail goes out in the background, from the outbox
    assert mail_send_due() >= 1
    assert "Your turn" in mailoutbox[-1].body
    game_offer_draw(game_id=game.pk, user=black_user)
    assert Notification.objects.filter(user=white, kind="draw_offer").exists()
    game_resign(game_id=game.pk, user=white)
    assert Notification.objects.filter(kind="game_over").count() == 2
    client = APIClient()
    client.force_authenticate(black_user)
    items = client.get("/api/notifications/").json()
    assert items[0]["kind"] == "game_over" and "is over" in items[0]["text"]
    assert client.post("/api/notifications/read/", {}, format="json").json()["marked"] >= 3


# --- replay, export, import ----------------------------------------------------------


def finished_game():
    game, (white, black) = new_game()
    game_act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    game_act(game_id=game.pk, user=black, version=2, action=BLACK_MOVE)
    game_resign(game_id=game.pk, user=black)
    game.refresh_from_db()
    return game, white, black


def test_replay_frames_for_each_eye():
    game, _white, _ = finished_game()
    frames = replays.replay_frames(game, None)
    assert [f["version"] for f in frames] == [1, 2, 3, 4]
    assert frames[1]["view"]["last_move"]["path"] == FIRST_MOVE["path"]
    assert APIClient().get(f"/api/games/{game.pk}/replay/?seat=1").status_code == 200
    running, _ = new_game()
    assert APIClient().get(f"/api/games/{running.pk}/replay/?seat=0").status_code == 403
    assert APIClient().get(f"/api/games/{running.pk}/replay/").status_code == 200


def test_export_import_round_trip():
    game, _white, _ = finished_game()
    data = APIClient().get(f"/api/games/{game.pk}/export/").json()
    assert data["seed"] == game.seed and len(data["log"]) == 4
    client = APIClient()
    client.force_authenticate(make_user())
    imported = import_export(client, data)
    assert imported["status"] == "done" and imported["error"] is None, imported
    copy_game = Game.objects.get(pk=imported["game"])
    assert copy_game.imported and copy_game.state == game.state and copy_game.result == game.result
    running, _ = new_game()
    assert APIClient().get(f"/api/games/{running.pk}/export/").status_code == 403


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d.update(format="other"),
        lambda d: d.update(ruleset="chess"),
        lambda d: d.update(seed=d["seed"] + 1) or d["final_state"].update(plies=99),
        lambda d: d["log"][1]["action"]["path"].__setitem__(1, [2, 9]),
        lambda d: d["final_state"].update(plies=7),
        lambda d: d["log"].pop(1),
        lambda d: d.update(log="nope"),
        lambda d: d.update(seat_count=9),
        lambda d: d["result"].update(winners=[1]),
        lambda d: (
            d["log"].insert(2, {**d["log"][-1], "version": 3})
            or [e.update(version=n) for n, e in enumerate(d["log"], 1)]
        ),
        lambda d: d["log"][-1]["events"].clear(),
        lambda d: d["log"][1].update(seat="0"),
    ],
)
def test_tampered_exports_are_refused(tamper):
    game, _, _ = finished_game()
    data = copy.deepcopy(replays.export_game(game))
    tamper(data)
    client = APIClient()
    client.force_authenticate(make_user())
    before = Game.objects.count()
    response = client.post("/api/games/import/", data, format="json")
    if response.status_code == 202:  # the header is sound: the worker finds the change
        response = import_export(client, data)
        assert response["status"] == "failed" and response["game"] is None
        assert response["error"]["code"] == "bad_export" and response["error"]["message"]
    else:  # refused at once: not an export at all
        assert response.status_code == 400 and response.json()["code"] == "bad_export"
    assert Game.objects.count() == before


def test_draws_and_abort_through_the_api():
    game, (white, black) = new_game()
    w, b = APIClient(), APIClient()
    w.force_authenticate(white)
    b.force_authenticate(black)
    assert w.post(f"/api/games/{game.pk}/draw/offer/").json() == {"version": 2}
    assert w.post(f"/api/games/{game.pk}/draw/offer/").json()["code"] == "already_offered"
    assert w.post(f"/api/games/{game.pk}/draw/accept/").json()["code"] == "no_offer"
    assert b.post(f"/api/games/{game.pk}/draw/decline/").json() == {"version": 3}
    assert APIClient().post(f"/api/games/{game.pk}/abort/").status_code in {401, 403}
    assert b.post(f"/api/games/{game.pk}/abort/").json() == {"version": 4}
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert w.post(f"/api/games/{game.pk}/resign/").json()["code"] == "game_over"


def test_chat_through_the_api_and_no_system_lines_in_hidden_games():
    from games.models import ChatMessage
    from games.rules.hexenhalma import HexenhalmaRuleset

    RULESETS.setdefault("hexenhalma", HexenhalmaRuleset())
    game, users = new_game(players=3, ruleset="hexenhalma")
    client = APIClient()
    client.force_authenticate(users[1])
    posted = client.post(f"/api/games/{game.pk}/chat/", {"text": "Viel Glück!"}, format="json")
    assert posted.status_code == 201 and posted.json()["text"] == "Viel Glück!"
    # The platform never writes chat lines itself, so nothing about the secret
    # orders can reach the chat: only what people typed is there.
    assert list(ChatMessage.objects.filter(game=game).values_list("user_id", flat=True)) == [
        users[1].pk
    ]


# --- imports recompute; stored texts never break a page (issue 14, item 7) ----------


@pytest.mark.parametrize(
    "result",
    [
        None,
        "text",
        {"reason": "%(nope)s"},
        {"reason": "%(nope)s", "reason_params": {"x": 1}},
        {"reason": "%(player)s resigned.", "reason_params": ["a"]},
        {"reason": "%d %s", "reason_params": {"player": "a"}},
        {"reason": ["not", "text"], "reason_params": {}},
        {"reason": "%(player)s resigned.", "reason_params": {"player": "ann"}},
    ],
)
def test_result_text_never_raises(result):
    from games.selectors.frames import result_text

    text = result_text(result)
    assert isinstance(text, str)
    if isinstance(result, dict) and result.get("reason_params") == {"player": "ann"}:
        assert text == "ann resigned."


def test_a_stored_result_whose_text_does_not_format_breaks_no_page():
    game, _white, _black = finished_game()
    bad = {"winners": [0], "draw": False, "reason": "%(nope)s", "reason_params": {"x": 1}}
    Game.objects.filter(pk=game.pk).update(result=bad)
    for url in ("/", "/replay/", "/events/?since=0"):
        response = APIClient().get(f"/api/games/{game.pk}{url}")
        assert response.status_code == 200, (url, response.content[:200])
    assert APIClient().get(f"/api/games/{game.pk}/").json()["state"]["result_text"] == "%(nope)s"


def test_import_recomputes_the_result_and_every_event_from_the_log():
    from games.reasons import REASON_RESIGNED

    game, _white, black = finished_game()
    data = copy.deepcopy(replays.export_game(game))
    data["result"]["reason"] = "%(nope)s"
    data["result"]["reason_params"] = {"player": black.username, "nope": "%(nope)s"}
    for entry in data["log"]:
        entry["events"] = [{"type": "moved", "note": "%(nope)s" * 100}, *entry["events"]]
    data["log"][1]["action"]["junk"] = "x" * 10_000
    client = APIClient()
    client.force_authenticate(make_user())
    imported = import_export(client, data)
    assert imported["status"] == "done", imported
    copied = Game.objects.get(pk=imported["game"])
    assert copied.result == {**game.result, "reason": REASON_RESIGNED}
    assert copied.result["reason_params"] == {"player": black.username}
    original = list(Event.objects.filter(game=game).values_list("kind", "seat", "action", "events"))
    rebuilt = list(
        Event.objects.filter(game=copied).values_list("kind", "seat", "action", "events")
    )
    assert rebuilt == original
    for url in ("/", "/replay/", "/events/?since=0"):
        response = APIClient().get(f"/api/games/{copied.pk}{url}")
        assert response.status_code == 200, (url, response.content[:200])


def test_an_imported_format_string_stays_a_parameter():
    """A player's name is the one thing only the export knows: it is a
    parameter of a known template, never a template itself."""
    game, _white, _black = finished_game()
    data = copy.deepcopy(replays.export_game(game))
    data["result"]["reason_params"] = {"player": "%(nope)s"}
    client = APIClient()
    client.force_authenticate(make_user())
    copied = import_export(client, data)
    detail = APIClient().get(f"/api/games/{copied['game']}/").json()
    assert detail["state"]["result_text"] == "%(nope)s resigned."
