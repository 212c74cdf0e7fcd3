"""Brettspielnetz Halma: the 50-move rule through real games, and the admin remis queue."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games import publish
from games.errors import GameError
from games.models import Event, Game, Notification, RemisRequest
from games.realtime.sweeper import sweep_once
from games.selectors import remis as remis_reads
from games.selectors.notifications import notification_text
from games.services import remis
from games.services.endings import game_accept_draw, game_decline_draw, game_offer_draw, game_resign
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import make_user
from tests.games.halma_script import RS, _progress, march, pinned_log, repetition_log
from tests.loops import run_on_own_loop

pytestmark = pytest.mark.django_db


def play(log, clock=None):
    white, black = make_user(), make_user()
    game = lobby.table_create(
        host=white,
        ruleset="halma",
        clock=clock or {"kind": "realtime", "minutes": 60, "increment": 0},
    )
    lobby.table_join(game_id=game.pk, user=black)
    lobby.table_start(game_id=game.pk, user=white)
    users = [white, black]
    for version, (seat, action) in enumerate(log, start=1):
        game_act(game_id=game.pk, user=users[seat], version=version, action=action)
    game.refresh_from_db()
    return game, white, black


@pytest.fixture(scope="module")
def repeating_log():
    return repetition_log(104, 2)


def white_repeat(game, log):
    """White's move that repeats the position a third time, and the cited move numbers."""
    return log[-4][1], [53, 55, 57]


def test_the_api_offers_candidates_only_where_the_service_takes_a_claim(repeating_log):
    """/remis/candidates/ follows the service's rule (selectors.remis.remis_refusal)."""
    game, white, black = play(repeating_log)

    def offered(user):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        response = client.get(f"/api/games/{game.pk}/remis/candidates/")
        assert response.status_code == 200
        return response.json()["candidates"]

    action, numbers = white_repeat(game, repeating_log)
    assert {"action": action, "move_numbers": numbers} in offered(white)
    assert offered(None) == []  # a spectator files nothing
    assert offered(black) == []  # not black's move: the service says not_your_turn
    with pytest.raises(GameError) as info:
        remis.remis_request(
            game_id=game.pk, user=black, kind="repetition", action=action, move_numbers=numbers
        )
    assert info.value.code == "not_your_turn"
    remis.remis_request(
        game_id=game.pk, user=white, kind="repetition", action=action, move_numbers=numbers
    )
    assert offered(white) == []  # a request waits: the service says remis_pending


# --- the 50-move rule -----------------------------------------------------------


def test_a_piece_left_at_home_after_move_50_loses():
    """Black never moves its corner piece: when move 50 is complete, black loses."""
    state = RS.setup({}, 2, 1)
    log = []
    for _ in range(100):
        seat = RS.to_act(state)[0]
        actions = sorted(
            RS.legal_actions(state, seat), key=lambda a: (-_progress(seat, a), a["path"])
        )
        if seat == 1:
            actions = [a for a in actions if a["path"][0] != [0, 0]]
        log.append((seat, actions[0]))
        state, _ = RS.apply(state, seat, actions[0])
    game, _, _ = play(log[:-1])
    assert game.status == Game.Status.ACTIVE  # move 50 not yet complete
    game, _, _ = play(log)
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [0]
    assert game.result["reason"] == "Black still had a piece in its house after move 50"


def test_a_win_before_move_50_and_no_loss_when_both_houses_are_empty():
    log, _ = march(100)
    game, _, _ = play(log)
    assert game.status == Game.Status.ACTIVE  # both houses empty at move 50: play goes on


def test_fifty_move_rule_loss_and_draw():
    # Neither side leaves its house properly: shuffle inside the open area only.
    log = []
    white_steps = [
        {"type": "move", "path": [[5, 9], [4, 9]]},
        {"type": "move", "path": [[4, 9], [5, 9]]},
    ]
    black_steps = [
        {"type": "move", "path": [[4, 0], [5, 0]]},
        {"type": "move", "path": [[5, 0], [4, 0]]},
    ]
    for n in range(50):
        log.append((0, white_steps[n % 2]))
        log.append((1, black_steps[n % 2]))
    game, _, _ = play(log)
    assert game.status == Game.Status.FINISHED and game.result["draw"] is True
    assert "both sides" in game.result["reason"]


def test_reentering_ones_house_after_move_50_loses_at_once():
    log = pinned_log({"type": "move", "path": [[6, 8], [5, 8]]}, 100)
    game, _, _ = play(log)
    assert game.status == Game.Status.ACTIVE
    game, _, _ = play([*log, (0, {"type": "move", "path": [[5, 8], [5, 9]]})])
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
    assert game.result["reason"] == "White moved a piece back into its own house after move 50"


def test_a_win_before_move_50():
    log = pinned_log({"type": "move", "path": [[5, 9], [4, 9]]}, 100, avoid_endings=False)
    game, _, _ = play(log)
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [1]
    assert RS.decode(game.state).plies < 100
    assert game.result["reason"] == "Black brought all 15 pieces into White's house"


# --- candidates and filing ----------------------------------------------------------


def test_candidates_and_a_real_repetition_request(
    repeating_log, django_capture_on_commit_callbacks
):
    game, white, _black = play(repeating_log)
    action, numbers = white_repeat(game, repeating_log)
    candidates = remis_reads.repetition_candidates(game, 0)
    assert {"action": action, "move_numbers": numbers} in candidates
    request = remis.remis_request(
        game_id=game.pk, user=white, kind="repetition", action=action, move_numbers=numbers
    )
    assert request.evidence["identical"] and request.evidence["past_51"]
    assert len(request.evidence["positions"]) == 3
    game.refresh_from_db()
    assert game.paused and game.deadline is None and game.remis_pending["kind"] == "repetition"
    with pytest.raises(GameError) as info:
        game_act(game_id=game.pk, user=white, version=game.version, action=action)
    assert info.value.code == "paused"
    with pytest.raises(GameError) as info:
        remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="again")
    assert info.value.code == "remis_pending"
    assert sweep_once() == 0  # a paused clock never runs out
    admin = make_user(staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        remis.remis_decide(request_id=request.pk, admin=admin, approve=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["draw"] is True
    with pytest.raises(GameError) as info:
        remis.remis_decide(request_id=request.pk, admin=admin, approve=False, reason="late")
    assert info.value.code == "already_decided"


def test_an_approved_remis_is_one_event_and_one_notice_per_player(
    repeating_log, django_capture_on_commit_callbacks
):
    """One fact, told once: the game's end (its reason says remis, approved)."""
    game, white, black = play(repeating_log)
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled in.")
    request = RemisRequest.objects.get(game=game)
    before = Event.objects.filter(game=game).count()
    with django_capture_on_commit_callbacks(execute=True):
        remis.remis_decide(request_id=request.pk, admin=make_user(staff=True), approve=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["draw"] is True
    assert Event.objects.filter(game=game).count() == before + 1
    notes = Notification.objects.filter(game=game).exclude(kind="your_turn")
    assert sorted(n.user_id for n in notes) == sorted([white.pk, black.pk])
    assert {n.kind for n in notes} == {"game_over"}
    assert "approved by an admin" in notification_text(notes[0].kind, notes[0].params)


def test_a_rejected_remis_tells_each_player_why(repeating_log):
    game, white, black = play(repeating_log)
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled in.")
    request = RemisRequest.objects.get(game=game)
    admin = make_user(staff=True)
    remis.remis_decide(request_id=request.pk, admin=admin, approve=False, reason="Play on.")
    notes = Notification.objects.filter(game=game, kind="decision")
    assert sorted(n.user_id for n in notes) == sorted([white.pk, black.pk])
    assert notes[0].params["reason"] == "Play on."


def test_reject_resumes_with_the_clock_running(repeating_log):
    game, white, _black = play(repeating_log)
    remis.remis_request(
        game_id=game.pk, user=white, kind="deadlock", reason="Both sides are walled in."
    )
    request = RemisRequest.objects.get(game=game)
    admin = make_user(staff=True)
    with pytest.raises(GameError) as info:
        remis.remis_decide(request_id=request.pk, admin=admin, approve=False)
    assert info.value.code == "reason_required"
    remis.remis_decide(
        request_id=request.pk, admin=admin, approve=False, reason="White can still break through."
    )
    game.refresh_from_db()
    assert not game.paused and game.deadline is not None and game.status == Game.Status.ACTIVE
    action, _ = white_repeat(game, repeating_log)
    game_act(game_id=game.pk, user=white, version=game.version, action=action)


def test_playing_on_lets_the_claim_lapse(repeating_log):
    game, white, black = play(repeating_log)
    action, numbers = white_repeat(game, repeating_log)
    game_act(
        game_id=game.pk, user=white, version=game.version, action=action
    )  # plays the repetition
    game.refresh_from_db()
    black_move = RS.legal_actions(RS.decode(game.state), 1)[0]
    game_act(game_id=game.pk, user=black, version=game.version, action=black_move)
    with pytest.raises(GameError) as info:
        remis.remis_request(
            game_id=game.pk, user=white, kind="repetition", action=action, move_numbers=numbers
        )
    assert info.value.code in {"bad_move_numbers", "illegal"}


@pytest.mark.parametrize(
    ("who", "kwargs", "code"),
    [
        ("white", {"kind": "repetition", "move_numbers": [53, 55, 57]}, "bad_request"),
        ("white", {"kind": "repetition", "move_numbers": [53, 57]}, "bad_request"),
        ("white", {"kind": "repetition", "move_numbers": [55, 53, 57]}, "bad_move_numbers"),
        ("white", {"kind": "repetition", "move_numbers": [53, 55, 99]}, "bad_move_numbers"),
        ("white", {"kind": "repetition", "move_numbers": [0, 55, 57]}, "bad_move_numbers"),
        ("white", {"kind": "repetition", "move_numbers": [52, 55, 57]}, "bad_move_numbers"),
        (
            "white",
            {
                "kind": "repetition",
                "move_numbers": [53, 55, 57],
                "action": {"type": "move", "path": [[0, 0], [9, 9]]},
            },
            "illegal",
        ),
        ("white", {"kind": "deadlock", "reason": "  "}, "bad_request"),
        ("white", {"kind": "surrender"}, "bad_request"),
        ("black", {"kind": "deadlock", "reason": "stuck"}, "not_your_turn"),
        ("stranger", {"kind": "deadlock", "reason": "stuck"}, "not_seated"),
    ],
)
def test_bad_requests_change_nothing(repeating_log, who, kwargs, code):
    game, white, black = play(repeating_log)
    if "action" not in kwargs and kwargs.get("kind") == "repetition":
        kwargs = {**kwargs, "action": white_repeat(game, repeating_log)[0]}
        if kwargs["move_numbers"] == [53, 55, 57]:
            kwargs["action"] = None
    user = {"white": white, "black": black, "stranger": make_user()}[who]
    before = game.version
    with pytest.raises(GameError) as info:
        remis.remis_request(game_id=game.pk, user=user, **kwargs)
    assert info.value.code == code, info.value
    game.refresh_from_db()
    assert game.version == before and not game.paused and not RemisRequest.objects.exists()


def test_false_claim_before_move_51_shows_in_the_evidence():
    log = repetition_log(92, 2)  # the shuffling happens around moves 47-51
    game, white, _ = play(log, clock={"kind": "none"})
    if game.status != Game.Status.ACTIVE:
        pytest.skip("the scripted game ended early")
    action = log[-4][1]
    numbers = [47, 49, 51]
    request = remis.remis_request(
        game_id=game.pk, user=white, kind="repetition", action=action, move_numbers=numbers
    )
    assert request.evidence["identical"] is True and request.evidence["past_51"] is False


def test_request_in_finished_game_and_unsupported_games():
    game, white, black = play([])
    game_resign(game_id=game.pk, user=black)
    with pytest.raises(GameError) as info:
        remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="x")
    assert info.value.code == "game_over"


# --- the queue ------------------------------------------------------------------------


def test_queue_is_staff_only_paged_and_filtered(repeating_log):
    game, white, _ = play(repeating_log)
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Nobody can win.")
    request = RemisRequest.objects.get()
    player = APIClient()
    player.force_authenticate(white)
    assert player.get("/api/remis/").status_code == 403
    assert (
        player.post(
            f"/api/remis/{request.pk}/decide/", {"approve": True}, format="json"
        ).status_code
        == 403
    )
    assert APIClient().get("/api/remis/").status_code in {401, 403}
    admin = APIClient()
    admin.force_authenticate(make_user(staff=True))
    page = admin.get("/api/remis/").json()
    assert page["total"] == 1 and page["items"][0]["reason"] == "Nobody can win."
    assert admin.get("/api/remis/?older_than_hours=2").json()["total"] == 0
    detail = admin.get(f"/api/remis/{request.pk}/").json()
    assert len(detail["moves"]) == len(repeating_log)
    decided = admin.post(
        f"/api/remis/{request.pk}/decide/", {"approve": False, "reason": "Play on."}, format="json"
    )
    assert decided.json()["status"] == "rejected"
    from django.test import Client

    browser = Client()
    browser.force_login(white)
    assert browser.get("/remis/").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_two_admins_decide_at_once_one_counts(repeating_log):
    game, white, _ = play(repeating_log)
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Blocked.")
    request = RemisRequest.objects.get()
    admins = [make_user(staff=True), make_user(staff=True)]
    barrier = threading.Barrier(2)
    results = []

    def decide(admin, approve):
        try:
            barrier.wait()
            results.append(
                remis.remis_decide(request_id=request.pk, admin=admin, approve=approve, reason="r")
            )
        except GameError as exc:
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=decide, args=(a, i == 0)) for i, a in enumerate(admins)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    errors = [r for r in results if isinstance(r, GameError)]
    assert len(results) == 2 and len(errors) == 1 and errors[0].code == "already_decided"
    assert (
        Event.objects.filter(game=game, kind__in=["remis", "end"]).count() == 2
    )  # filed + decided


@pytest.mark.django_db(transaction=True)
def test_filing_through_the_api_and_the_socket(repeating_log):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.db_threads import sync_to_async
    from tests.games.test_consumers import ORIGIN, receive, session_cookie

    game, white, black = play(repeating_log)
    client = APIClient()
    client.force_authenticate(black)
    refused = client.post(
        f"/api/games/{game.pk}/remis/", {"kind": "deadlock", "reason": "x"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_your_turn"
    action, numbers = white_repeat(game, repeating_log)
    candidates = APIClient()
    candidates.force_authenticate(white)
    assert candidates.get(f"/api/games/{game.pk}/remis/candidates/").json()["candidates"]

    async def file_over_socket():
        cookie = await sync_to_async(session_cookie)(white)
        comm = WebsocketCommunicator(
            application, f"/ws/game/{game.pk}/", headers=[ORIGIN, (b"cookie", cookie)]
        )
        assert (await comm.connect())[0]
        await receive(comm, "hello")
        await comm.send_json_to(
            {"type": "remis", "kind": "repetition", "action": action, "move_numbers": numbers}
        )
        filed = await receive(comm, "remis_filed")
        event = await receive(comm, "event")
        await comm.disconnect()
        return filed, event

    filed, event = run_on_own_loop(file_over_socket())
    assert event["state"]["paused"] and event["state"]["remis"]["move_numbers"] == numbers
    assert RemisRequest.objects.get().pk == filed["id"]


# --- the queue must not be a way to stall (RULES.md §1) ----------------------------


@pytest.fixture
def clock():
    from tests.games.test_lifecycle import Clock

    c = Clock()
    with c.patch:
        yield c


def state_of(game, user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client.get(f"/api/games/{game.pk}/").json()["state"]


def test_filing_stops_both_clocks_and_a_rejection_resumes_them_where_they_stood(
    repeating_log, clock
):
    game, white, black = play(repeating_log)
    clock.advance(100)
    request = remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled.")
    game.refresh_from_db()
    assert game.paused and game.deadline is None and game.clocks == [3500.0, 3600.0]
    clock.advance(5000)
    assert sweep_once() == 0
    assert state_of(game)["clock"]["remaining"] == [3500.0, 3600.0]
    # Draw offers still work while it waits, and leave the stopped clocks alone.
    game_offer_draw(game_id=game.pk, user=black)
    clock.advance(50)
    game_decline_draw(game_id=game.pk, user=white)
    game.refresh_from_db()
    assert game.paused and game.deadline is None and game.clocks == [3500.0, 3600.0]
    remis.remis_decide(
        request_id=request.pk, admin=make_user(staff=True), approve=False, reason="No."
    )
    game.refresh_from_db()
    assert not game.paused and game.clocks == [3500.0, 3600.0] and game.turn_started == clock.now
    assert game.deadline == clock.now + timedelta(seconds=3500)
    clock.advance(10)
    action, _ = white_repeat(game, repeating_log)
    game_act(game_id=game.pk, user=white, version=game.version, action=action)
    game.refresh_from_db()
    assert game.clocks == [3490.0, 3600.0]


def test_a_correspondence_turn_resumes_with_the_time_it_had_left(repeating_log, clock):
    game, white, _black = play(repeating_log, clock={"kind": "correspondence", "days": 3})
    clock.advance(20 * 3600)
    request = remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled.")
    clock.advance(10 * 86400)
    remis.remis_decide(
        request_id=request.pk, admin=make_user(staff=True), approve=False, reason="No."
    )
    game.refresh_from_db()
    assert game.deadline == clock.now + timedelta(days=3) - timedelta(hours=20)


def test_filing_once_time_is_up_is_refused(repeating_log, clock):
    game, white, _black = play(repeating_log)
    clock.advance(3601)
    with pytest.raises(GameError) as info:
        remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled.")
    assert info.value.code == "deadline_passed"
    game.refresh_from_db()
    assert not game.paused and not RemisRequest.objects.exists()


def test_deadlock_only_once_move_50_is_complete():
    log, _ = march(100)
    game, white, black = play(log[:-1])  # Black is about to make its 50th move
    assert state_of(game, black)["remis_allowed"] == ["repetition"]
    with pytest.raises(GameError) as info:
        remis.remis_request(game_id=game.pk, user=black, kind="deadlock", reason="Walled.")
    assert info.value.code == "remis_too_early"
    game.refresh_from_db()
    assert not game.paused and not RemisRequest.objects.exists() and game.deadlock_requests == []
    game_act(game_id=game.pk, user=black, version=game.version, action=log[-1][1])
    assert state_of(game, white)["remis_allowed"] == ["repetition", "deadlock"]
    assert state_of(game, black)["remis_allowed"] == []  # not Black's turn
    assert state_of(game)["remis_allowed"] == []  # spectators
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled.")
    assert state_of(game, white)["remis_allowed"] == []  # one is waiting


def test_two_deadlock_requests_per_player_repetition_claims_uncapped(repeating_log):
    game, white, _black = play(repeating_log)
    admin = make_user(staff=True)
    for _ in range(2):
        request = remis.remis_request(
            game_id=game.pk, user=white, kind="deadlock", reason="Walled."
        )
        remis.remis_decide(request_id=request.pk, admin=admin, approve=False, reason="Play on.")
    before = Game.objects.get(pk=game.pk)
    assert before.deadlock_requests == [2, 0]
    assert state_of(game, white)["remis_allowed"] == ["repetition"]
    with pytest.raises(GameError) as info:
        remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Still.")
    assert info.value.code == "remis_limit"
    assert Game.objects.get(pk=game.pk).version == before.version
    action, numbers = white_repeat(game, repeating_log)
    claim = remis.remis_request(
        game_id=game.pk, user=white, kind="repetition", action=action, move_numbers=numbers
    )
    assert claim.status == "pending"
    assert Game.objects.get(pk=game.pk).deadlock_requests == [2, 0]


def resign_white(game, white, black):
    game_resign(game_id=game.pk, user=white)


def resign_black(game, white, black):
    game_resign(game_id=game.pk, user=black)


def agree_draw(game, white, black):
    game_offer_draw(game_id=game.pk, user=black)
    game_accept_draw(game_id=game.pk, user=white)


@pytest.mark.parametrize("ending", [resign_white, resign_black, agree_draw])
def test_a_game_that_ends_closes_its_waiting_request(
    repeating_log, ending, monkeypatch, django_capture_on_commit_callbacks
):
    game, white, black = play(repeating_log)
    request = remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled.")
    sent = []
    monkeypatch.setattr(publish, "_send", lambda group, message: sent.append((group, message)))
    with django_capture_on_commit_callbacks(execute=True):
        ending(game, white, black)
    game.refresh_from_db()
    result, version = game.result, game.version
    assert game.is_over and not game.paused and game.remis_pending is None
    request.refresh_from_db()
    assert request.status == "closed" and request.decided is not None
    queued = [m["request"] for group, m in sent if group == publish.QUEUE_GROUP]
    assert [(r["id"], r["status"]) for r in queued] == [(request.pk, "closed")]
    assert remis_reads.queue_page()["total"] == 0
    admin = make_user(staff=True)
    for approve in (True, False):
        with pytest.raises(GameError) as info:
            remis.remis_decide(request_id=request.pk, admin=admin, approve=approve, reason="r")
        assert info.value.code == "already_decided"
    game.refresh_from_db()
    assert (game.result, game.version, game.to_act) == (result, version, [])


def test_a_request_left_waiting_in_a_finished_game_cannot_change_it(repeating_log):
    """Games that ended with a request waiting before the fix: deciding it changes nothing."""
    game, white, black = play(repeating_log)
    game_resign(game_id=game.pk, user=black)
    request = RemisRequest.objects.create(
        game=game, seat=0, requested_by=white, kind="deadlock", reason="Walled."
    )
    game.refresh_from_db()
    before = (game.result, game.version, game.to_act)
    with pytest.raises(GameError) as info:
        remis.remis_decide(request_id=request.pk, admin=make_user(staff=True), approve=True)
    assert info.value.code == "already_decided"
    game.refresh_from_db()
    assert (game.result, game.version, game.to_act) == before
    request.refresh_from_db()
    assert request.status == "pending"


def test_the_migration_counts_deadlocks_and_closes_requests_of_ended_games(repeating_log):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0007_remis_limits")
    game, white, black = play(repeating_log)
    game_resign(game_id=game.pk, user=black)
    RemisRequest.objects.create(
        game=game, seat=0, requested_by=white, kind="deadlock", status="rejected"
    )
    waiting = RemisRequest.objects.create(game=game, seat=0, requested_by=white, kind="deadlock")
    Game.objects.filter(pk=game.pk).update(paused=True, deadlock_requests=[])
    migration.count_and_close(apps, None)
    game.refresh_from_db()
    waiting.refresh_from_db()
    assert game.deadlock_requests == [2, 0] and not game.paused
    assert waiting.status == "closed"


def test_the_queue_lists_realtime_games_first(repeating_log, clock):
    slow, slow_white, _ = play(repeating_log, clock={"kind": "correspondence", "days": 3})
    fast, fast_white, _ = play(repeating_log)
    remis.remis_request(game_id=slow.pk, user=slow_white, kind="deadlock", reason="Walled.")
    clock.advance(60)
    remis.remis_request(game_id=fast.pk, user=fast_white, kind="deadlock", reason="Walled.")
    items = remis_reads.queue_page()["items"]
    assert [(i["game"], i["realtime"]) for i in items] == [(fast.pk, True), (slow.pk, False)]
