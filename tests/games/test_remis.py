"""Brettspielnetz Halma: the 50-move rule through real games, and the admin remis queue."""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games import remis
from games.errors import GameError
from games.models import Event, Game, Notification, RemisRequest
from games.services import game_act
from games.sweeper import sweep_once
from lobby import services as lobby
from tests.factories import make_user
from tests.games.halma_script import RS, _progress, march, pinned_log, repetition_log

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
    candidates = remis.repetition_candidates(game, 0)
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
    assert Notification.objects.filter(kind="decision").count() == 2
    with pytest.raises(GameError) as info:
        remis.remis_decide(request_id=request.pk, admin=admin, approve=False, reason="late")
    assert info.value.code == "already_decided"


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
    from games.services import game_resign

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
    import asyncio

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

    filed, event = asyncio.run(file_over_socket())
    assert event["state"]["paused"] and event["state"]["remis"]["move_numbers"] == numbers
    assert RemisRequest.objects.get().pk == filed["id"]
