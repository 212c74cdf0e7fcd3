"""Hostile frames on the four sockets, through real websocket connections.

Every bad frame gets an error frame (a flood: a policy-violation close), the game in the
database is unchanged, and the socket stays usable (a ping still answers).
Runs against config.asgi.application with the in-memory channel layer.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from games.models import Event, Game, RemisRequest
from games.realtime.socket_frames import MAX_FRAME, POLICY_VIOLATION
from tests.conftest import clear_local_cache
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, make_user, started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fuzz]
ORIGIN = (b"origin", b"http://localhost")
HUGE = 10**30

# What answers the probe ``{"type": "ping"}`` on each socket.
PROBE_ANSWER = {"game": "pong", "lobby": "pong", "notify": "pong", "remis": "queue"}
# Frames the server pushes on its own (presence, lobby changes): never an answer.
PUSHED = {"watchers", "table", "event", "chat", "notify", "request"}
# Frames that get an answer of their own (when they are valid), and its type.
SAME_ANSWER = {
    "game": {"ping": "pong"},
    "lobby": {"ping": "pong"},
    "notify": {"ping": "pong", "read": "notifications"},
    "remis": {"ping": "queue", "queue": "queue"},
}


@dataclass
class World:
    game: Game
    white: Any  # seat 0, to move
    black: Any  # seat 1, not to move
    watcher: Any  # logged in, no seat
    staff: Any

    def path(self, url: str) -> str:
        return f"/ws/game/{self.game.pk}/" if url == "game" else f"/ws/{url}/"

    def user(self, role: str) -> Any:
        return {"anonymous": None}.get(role, getattr(self, role, None))


@pytest.fixture
async def world() -> World:
    def build() -> World:
        white, black = make_user(), make_user()
        game = started_game(players=[white, black])
        return World(game, white, black, make_user(), make_user(staff=True))

    return await sync_to_async(build)()


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_socket(path: str, user=None) -> tuple[WebsocketCommunicator, bool, Any]:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=3)
    return comm, connected, code


def strict_json(text: str) -> dict:
    """Server frames must be real JSON (no NaN/Infinity, which browsers refuse)."""

    def refuse(name: str) -> None:
        raise AssertionError(f"the server sent non-JSON constant {name}: {text[:300]}")

    frame = json.loads(text, parse_constant=refuse)
    assert isinstance(frame, dict) and isinstance(frame.get("type"), str), text[:300]
    return frame


async def next_output(comm: WebsocketCommunicator, timeout: float = 3) -> dict:
    """The next thing the server does: a frame (parsed) or a close."""
    out = await comm.receive_output(timeout)
    if out["type"] == "websocket.close":
        return {"type": "<close>", "code": out.get("code")}
    assert out["type"] == "websocket.send", out
    assert out.get("text") is not None, "the server only sends text frames"
    return strict_json(out["text"])


async def send_frame(comm: WebsocketCommunicator, frame: tuple[str, Any]) -> None:
    """Any frame, empty ones included (send_to refuses those)."""
    kind, payload = frame
    key = "bytes" if kind == "bytes" else "text"
    await comm.send_input({"type": "websocket.receive", key: payload})


async def answers(comm: WebsocketCommunicator, url: str, send: tuple[str, Any]) -> list[dict]:
    """Send one frame, then the probe; return what came back before the probe's answer.

    A frame of a kind that the probe's answer also answers (a ping, a read)
    gets that answer or an error first. A close (e.g. for a flood) ends
    the list with ``{"type": "<close>"}``.
    """
    await send_frame(comm, send)
    await comm.send_to(text_data='{"type": "ping"}')
    own_answer = SAME_ANSWER[url].get(_frame_type(send))
    own_answer_pending = own_answer is not None
    got: list[dict] = []
    while True:
        frame = await next_output(comm)
        if frame["type"] == "<close>":
            got.append(frame)
            return got
        if own_answer_pending and frame["type"] in {"error", own_answer}:
            own_answer_pending = False
            got.append(frame)
            continue
        if frame["type"] == PROBE_ANSWER[url]:
            return got
        if frame["type"] in PUSHED:
            continue
        got.append(frame)


async def db_snapshot(game: Game) -> dict:
    def read() -> dict:
        row = Game.objects.filter(pk=game.pk).values(
            "version",
            "state",
            "status",
            "to_act",
            "result",
            "paused",
            "draw_offers",
            "left_seats",
            "remis_pending",
            "deadline",
        )[0]
        row["events"] = list(
            Event.objects.filter(game=game).values_list("version", "kind", "action")
        )
        row["remis"] = RemisRequest.objects.count()
        row["games"] = Game.objects.count()
        return row

    return await sync_to_async(read)()


def assert_error(frames: list[dict], frame: Any, codes: set[str] | None) -> None:
    errors = [f for f in frames if f["type"] == "error"]
    assert errors, f"no error frame for {_short(frame)}: got {frames}"
    error = errors[0]
    assert isinstance(error.get("code"), str) and error["code"], error
    assert isinstance(error.get("message"), str) and error["message"], error
    if codes is not None:
        assert error["code"] in codes, f"{_short(frame)} -> {error}, expected one of {codes}"
    assert not [f for f in frames if f["type"] in {"ack", "remis_filed"}], frames


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + f"... ({len(text)} chars)"


# --- the bad frames -------------------------------------------------------------

BAD = {"bad_request"}
UNKNOWN = {"unknown_type"}
DEEP = "[" * 20_000 + "]" * 20_000  # under 64 KiB, far deeper than the JSON parser's stack


def t(value: Any) -> tuple[str, str]:
    """A text frame: a str as it is, anything else as JSON."""
    return ("text", value if isinstance(value, str) else json.dumps(value))


# (frame, expected codes) for every socket
COMMON: list[tuple[tuple[str, Any], set[str] | None]] = [
    (t("not json"), BAD),
    (t(""), BAD),
    (t("{"), BAD),
    (t('{"type": "ping"} trailing'), BAD),
    (t('\ufeff{"type": "ping"}'), BAD),
    (t("[1, 2]"), BAD),
    (t('[{"type": "ping"}]'), BAD),
    (t("42"), BAD),
    (t("-1e999"), BAD),
    (t("NaN"), BAD),
    (t('"ping"'), BAD),
    (t("null"), BAD),
    (t("true"), BAD),
    (t("{}"), BAD),
    (t({"kind": "ping"}), BAD),
    (t({"type": 5}), BAD),
    (t({"type": None}), BAD),
    (t({"type": True}), BAD),
    (t({"type": ["ping"]}), BAD),
    (t({"type": {"ping": 1}}), BAD),
    (t({"type": "ping", "pad": "x" * MAX_FRAME}), BAD),  # over 64 KiB
    (t("x" * (MAX_FRAME + 1)), BAD),
    (t(DEEP), BAD),
    (t('{"type": "ping", "deep": ' + DEEP + "}"), BAD),
    (("bytes", b'{"type": "ping"}'), BAD),
    (("bytes", b"\x00\xff" * 100), BAD),
    (("bytes", b""), BAD),
    (t({"type": "dance"}), UNKNOWN),
    (t({"type": ""}), UNKNOWN),
    (t({"type": "PING"}), UNKNOWN),
    (t({"type": "x" * 5000}), UNKNOWN),
    (t({"type": "__init__"}), UNKNOWN),
    (t({"type": "receive"}), UNKNOWN),
    (t({"type": "websocket.disconnect"}), UNKNOWN),
    (t({"type": "game.frames", "frames": {}}), UNKNOWN),  # a group handler's name
    (t({"type": "lobby.table", "table": {}}), UNKNOWN),
    (t({"type": "user.notify", "payload": {}}), UNKNOWN),
]


def game_frames(game_id: int, role: str) -> list[tuple[tuple[str, Any], set[str] | None]]:
    """Wrong field types for the game socket's frames (none may change anything)."""
    # What an otherwise well-formed act by this role is refused with.
    refused = {
        "white": {"stale_version", "illegal"},
        "black": {"not_your_turn", "stale_version", "illegal"},
        "watcher": {"not_seated"},
        "anonymous": {"login_required"},
    }[role]
    seated = role in {"white", "black"}
    move = FIRST_MOVE
    frames: list[tuple[tuple[str, Any], set[str] | None]] = [
        # act: version
        (t({"type": "act", "version": "1", "action": move}), BAD),
        (t({"type": "act", "version": 1.0, "action": move}), BAD),
        (t({"type": "act", "version": True, "action": move}), BAD),
        (t({"type": "act", "version": None, "action": move}), BAD),
        (t({"type": "act", "version": [1], "action": move}), BAD),
        (t({"type": "act", "action": move}), BAD),
        (t('{"type": "act", "version": NaN, "action": {"type": "move"}}'), BAD),
        (t('{"type": "act", "version": 1e999, "action": {"type": "move"}}'), BAD),
        # act: action
        (t({"type": "act", "version": 1, "action": "move"}), BAD),
        (t({"type": "act", "version": 1, "action": [move]}), BAD),
        (t({"type": "act", "version": 1, "action": None}), BAD),
        (t({"type": "act", "version": 1, "action": 7}), BAD),
        (t({"type": "act", "version": 1}), BAD),
        # act: game
        (t({"type": "act", "game": str(game_id), "version": 1, "action": move}), {"wrong_game"}),
        (t({"type": "act", "game": None, "version": 1, "action": move}), {"wrong_game"}),
        (t({"type": "act", "game": HUGE, "version": 1, "action": move}), {"wrong_game"}),
        (t({"type": "act", "game": [game_id], "version": 1, "action": move}), {"wrong_game"}),
        (t({"type": "act", "game": game_id + 1, "version": 1, "action": move}), {"wrong_game"}),
        # act: well-formed but wrong
        (t({"type": "act", "version": HUGE, "action": move}), refused),
        (t({"type": "act", "version": -HUGE, "action": move}), refused),
        (t({"type": "act", "version": 0, "action": move}), refused),
        (
            t(
                {
                    "type": "act",
                    "version": 1,
                    "action": {"type": "move", "path": [[HUGE, 9], [4, 9]]},
                }
            ),
            refused | {"illegal"},
        ),
        (
            t(
                '{"type": "act", "version": 1, "action": {"type": "move", "path": [[NaN, 9], [4, 9]]}}'
            ),
            refused | {"illegal", "bad_request"},
        ),
        (
            t({"type": "act", "version": 1, "action": {"type": "move", "path": "5,9-4,9"}}),
            refused | {"illegal"},
        ),
        (
            t({"type": "act", "version": 1, "action": {"type": "fly", "path": move["path"]}}),
            refused | {"illegal"},
        ),
        (t({"type": "act", "version": 1, "action": {}}), refused | {"illegal"}),
        (
            t({"type": "act", "version": 1, "action": move, "ref": {"x": [1] * 100}}),
            refused,
        )
        if role != "white"
        else (t({"type": "act", "version": 2, "action": move, "ref": "r"}), {"stale_version"}),
        # chat
        (t({"type": "chat", "text": 5}), {"bad_request", "login_required"}),
        (t({"type": "chat", "text": None}), {"bad_request", "login_required"}),
        (t({"type": "chat", "text": ["hi"]}), {"bad_request", "login_required"}),
        (t({"type": "chat", "text": {"hi": 1}}), {"bad_request", "login_required"}),
        (t({"type": "chat", "text": "   "}), {"bad_request", "login_required"}),
        (t({"type": "chat"}), {"bad_request", "login_required"}),
        (t({"type": "chat", "text": "x" * 600}), {"too_long", "login_required"}),
        (t({"type": "chat", "game": "x", "text": "hi"}), {"wrong_game"}),
        # remis
        (t({"type": "remis"}), BAD),
        (t({"type": "remis", "kind": 5}), BAD),
        (t({"type": "remis", "kind": ["deadlock"]}), BAD),
        (t({"type": "remis", "kind": "surrender"}), BAD),
        (
            t({"type": "remis", "kind": "deadlock", "reason": 5}),
            {"bad_request", "not_your_turn", "not_seated", "login_required"},
        ),
        (
            t({"type": "remis", "kind": "deadlock", "reason": "x" * 1001}),
            {"bad_request", "not_your_turn", "not_seated", "login_required"},
        ),
        (
            t({"type": "remis", "kind": "repetition", "action": "x", "move_numbers": "1,2,3"}),
            {"bad_request", "not_your_turn", "not_seated", "login_required"},
        ),
        (
            t(
                {
                    "type": "remis",
                    "kind": "repetition",
                    "action": move,
                    "move_numbers": [1, 2, HUGE],
                }
            ),
            {"bad_move_numbers", "not_your_turn", "not_seated", "login_required"},
        ),
        (
            t(
                {
                    "type": "remis",
                    "kind": "repetition",
                    "action": {"type": "move", "path": [[0, 0]]},
                    "move_numbers": [-1, 0, 1],
                }
            ),
            {"bad_move_numbers", "not_your_turn", "not_seated", "login_required", "illegal"},
        ),
        # seat commands with a wrong game, and by those without a seat
        (t({"type": "offer_draw", "game": "x"}), {"wrong_game"}),
        (t({"type": "offer_draw", "game": HUGE}), {"wrong_game"}),
        (t({"type": "resign", "game": -1}), {"wrong_game"}),
        (t({"type": "abort", "game": [game_id]}), {"wrong_game"}),
        (t({"type": "decline_draw"}), {"no_offer", "not_seated", "login_required"}),
        (t({"type": "accept_draw"}), {"no_offer", "not_seated", "login_required"}),
    ]
    if not seated:
        frames += [
            (t({"type": kind}), {"not_seated", "login_required"})
            for kind in ("resign", "offer_draw", "abort")
        ]
    return frames


LOBBY_FRAMES = [
    (t({"type": "act", "version": 1, "action": FIRST_MOVE}), UNKNOWN),
    (t({"type": "join", "table": 1}), UNKNOWN),
    (t({"type": "read", "ids": [1]}), UNKNOWN),
]
NOTIFY_FRAMES = [
    (t({"type": "read", "ids": "1"}), BAD),
    (t({"type": "read", "ids": 1}), BAD),
    (t({"type": "read", "ids": [1.5]}), BAD),
    (t({"type": "read", "ids": ["1"]}), BAD),
    (t({"type": "read", "ids": [None]}), BAD),
    (t({"type": "read", "ids": {"1": 1}}), BAD),
    (t({"type": "read", "ids": [[1]]}), BAD),
    (t({"type": "act", "version": 1, "action": FIRST_MOVE}), UNKNOWN),
]
REMIS_FRAMES = [
    (t({"type": "queue", "page": "1"}), BAD),
    (t({"type": "queue", "page": 1.5}), BAD),
    (t({"type": "queue", "page": True}), BAD),
    (t({"type": "queue", "page": None}), BAD),
    (t({"type": "queue", "page": [1]}), BAD),
    (t({"type": "queue", "older_than_hours": "2"}), BAD),
    (t({"type": "queue", "older_than_hours": None}), BAD),
    (t({"type": "ping", "page": {}}), BAD),
    (t({"type": "decide"}), {"bad_request"}),
    (t({"type": "decide", "id": 1, "approve": "yes"}), BAD),
    (t({"type": "decide", "id": 1, "approve": 1}), BAD),
    (t({"type": "decide", "id": "x", "approve": True}), {"not_found"}),
    (t({"type": "decide", "id": None, "approve": True}), {"not_found"}),
    (t({"type": "decide", "id": [1], "approve": True}), {"not_found"}),
    (t({"type": "decide", "id": HUGE, "approve": True}), {"not_found"}),
    (t({"type": "decide", "id": -HUGE, "approve": True}), {"not_found"}),
    (t({"type": "decide", "id": 1.5, "approve": True}), {"not_found"}),
    (t({"type": "decide", "id": 1, "approve": False}), {"reason_required"}),
    (t({"type": "decide", "id": 1, "approve": False, "reason": 5}), {"reason_required"}),
    (t({"type": "act", "version": 1, "action": FIRST_MOVE}), UNKNOWN),
]
# Out-of-range numbers that pass the type checks: the server must not crash on them.
EDGE_NUMBERS = {
    "notify": [
        t({"type": "read", "ids": [HUGE]}),
        t({"type": "read", "ids": [-HUGE, 1]}),
        t({"type": "read", "ids": [2**63]}),
    ],
    "remis": [
        t({"type": "queue", "page": HUGE}),
        t({"type": "queue", "page": 2**62}),
        t({"type": "queue", "page": -HUGE}),
        t({"type": "queue", "older_than_hours": 1e308}),
        t({"type": "queue", "older_than_hours": HUGE}),
        t('{"type": "queue", "older_than_hours": Infinity}'),
        t('{"type": "queue", "older_than_hours": NaN}'),
        t({"type": "ping", "older_than_hours": -1e308}),
    ],
    "game": [
        t({"type": "sync", "version": HUGE}),
        t({"type": "sync", "version": -HUGE}),
        t({"type": "sync", "version": 2**63}),
        t({"type": "ping", "version": -HUGE}),
        t({"type": "ping", "version": HUGE}),
        t('{"type": "sync", "version": NaN}'),
        t('{"type": "ping", "version": -Infinity}'),
        t({"type": "sync", "version": "3"}),
        t({"type": "sync", "version": None}),
        t({"type": "sync", "version": [1]}),
        t({"type": "ping", "version": "x", "ref": {"a": [1, 2]}}),
    ],
    "lobby": [t({"type": "ping", "extra": HUGE}), t('{"type": "ping", "x": NaN}')],
}

# (url, role): who may connect. Everyone else is refused with the code given.
CONNECTS = {
    "game": {"white": True, "black": True, "watcher": True, "anonymous": True},
    "lobby": {"white": True, "watcher": True, "anonymous": True},
    "notify": {"white": True, "watcher": True, "anonymous": 4401},
    "remis": {"staff": True, "white": 4403, "watcher": 4403, "anonymous": 4403},
}
CASES = [(url, role) for url, roles in CONNECTS.items() for role, ok in roles.items()]


def frames_for(world: World, url: str, role: str):
    extra = {
        "game": game_frames(world.game.pk, role) if url == "game" else [],
        "lobby": LOBBY_FRAMES,
        "notify": NOTIFY_FRAMES,
        "remis": REMIS_FRAMES,
    }[url]
    return COMMON + extra


async def first_frame(comm: WebsocketCommunicator, url: str) -> dict:
    """What a socket says right after connecting (hello, tables, ...)."""
    want = {"game": "hello", "lobby": "tables", "notify": "notifications", "remis": "queue"}[url]
    while True:
        frame = await next_output(comm)
        if frame["type"] == want:
            return frame
        assert frame["type"] in PUSHED, frame


class Socket:
    """A connection that reconnects before the flood limit would close it."""

    FRAMES_PER_CONNECTION = 24  # each bad frame is followed by a probe: 48 < 60 per 5 s

    def __init__(self, world: World, url: str, role: str) -> None:
        self.world, self.url, self.role = world, url, role
        self.comm: WebsocketCommunicator | None = None
        self.sent = 0

    async def get(self) -> WebsocketCommunicator:
        if self.comm is None or self.sent >= self.FRAMES_PER_CONNECTION:
            await self.close()
            comm, connected, code = await open_socket(
                self.world.path(self.url), self.world.user(self.role)
            )
            assert connected, f"{self.url} refused {self.role}: {code}"
            await first_frame(comm, self.url)
            self.comm, self.sent = comm, 0
        self.sent += 1
        return self.comm

    async def close(self) -> None:
        if self.comm is not None:
            await self.comm.disconnect()
            self.comm = None


@pytest.mark.parametrize(("url", "role"), CASES)
async def test_bad_frames_get_errors_and_change_nothing(world, url, role):
    allowed = CONNECTS[url][role]
    if allowed is not True:
        _comm, connected, code = await open_socket(world.path(url), world.user(role))
        assert not connected and code == allowed, (url, role, connected, code)
        return
    before = await db_snapshot(world.game)
    sock = Socket(world, url, role)
    for frame, codes in frames_for(world, url, role):
        got = await answers(await sock.get(), url, frame)
        assert {"type": "<close>"} not in [{"type": f["type"]} for f in got], (frame, got)
        assert_error(got, frame, codes)
        assert await db_snapshot(world.game) == before, f"{_short(frame)} changed the game"
    # and the socket still works
    got = await answers(await sock.get(), url, t({"type": "ping"}))
    assert not [f for f in got if f["type"] in {"error", "<close>"}], got
    await sock.close()


@pytest.mark.parametrize("url", sorted(EDGE_NUMBERS))
async def test_out_of_range_numbers_do_not_crash(world, url):
    """Numbers of the right type but absurd size: an answer or an error, never a crash."""
    role = {"remis": "staff", "game": "black"}.get(url, "white")
    before = await db_snapshot(world.game)
    sock = Socket(world, url, role)
    for frame in EDGE_NUMBERS[url]:
        try:
            got = await answers(await sock.get(), url, frame)
        except Exception as exc:  # the consumer died: the communicator re-raises
            raise AssertionError(f"{url} socket crashed on {_short(frame)}: {exc!r}") from exc
        assert not [f for f in got if f["type"] == "<close>"], (frame, got)
        for error in (f for f in got if f["type"] == "error"):
            assert error["code"] and error["message"]
        assert await db_snapshot(world.game) == before
    await sock.close()


async def test_nan_in_an_accepted_action_is_refused(world):
    """A legal Halma move with a NaN or Infinity riding along in an extra key.

    Python's json accepts NaN/Infinity/1e999; stored in Event.action they
    would break every strict JSON reader later (the API's renderer, the
    export, PostgreSQL's jsonb)."""
    comm, connected, _ = await open_socket(world.path("game"), world.white)
    assert connected
    await first_frame(comm, "game")
    for junk in ("NaN", "Infinity", "-1e999"):
        text = (
            '{"type": "act", "version": 1, "action": {"type": "move", '
            '"path": [[5, 9], [4, 9]], "note": ' + junk + "}}"
        )
        got = await answers(comm, "game", ("text", text))
        assert_error(got, text, {"bad_request", "illegal"})
    await comm.disconnect()

    def events() -> int:
        # The strict JSON renderer reads every stored event: nothing non-JSON got in.
        return Client().get(f"/api/games/{world.game.pk}/events/?since=0").status_code

    assert await sync_to_async(events)() == 200


@pytest.mark.parametrize("url", sorted(CONNECTS))
async def test_floods_close_the_socket_and_the_server_recovers(world, url):
    role = {"remis": "staff"}.get(url, "white")
    before = await db_snapshot(world.game)
    comm, connected, _ = await open_socket(world.path(url), world.user(role))
    assert connected
    await first_frame(comm, url)
    for _ in range(80):  # the limit is 60 frames in 5 s per connection
        await comm.send_to(text_data="junk")
    closed = None
    for _ in range(200):
        out = await next_output(comm)
        if out["type"] == "<close>":
            closed = out["code"]
            break
        assert out["type"] in {"error", *PUSHED}, out
    assert closed == POLICY_VIOLATION
    await comm.wait(timeout=1)
    assert await db_snapshot(world.game) == before
    # a new connection of the same user works
    comm, connected, _ = await open_socket(world.path(url), world.user(role))
    assert connected
    await first_frame(comm, url)
    got = await answers(comm, url, t({"type": "ping"}))
    assert not [f for f in got if f["type"] in {"error", "<close>"}]
    await comm.disconnect()


async def test_act_flood_closes_the_socket(world):
    """Moves are limited separately (40 in 5 s per connection)."""
    before = await db_snapshot(world.game)
    comm, connected, _ = await open_socket(world.path("game"), world.black)
    assert connected
    await first_frame(comm, "game")
    frame = json.dumps({"type": "act", "version": 0, "action": FIRST_MOVE})
    for _ in range(45):
        await comm.send_to(text_data=frame)
    codes = []
    while True:
        out = await next_output(comm)
        if out["type"] == "<close>":
            assert out["code"] == POLICY_VIOLATION
            break
        if out["type"] == "error":
            codes.append(out["code"])
    assert codes and set(codes) <= {"not_your_turn", "stale_version"}
    await comm.wait(timeout=1)
    assert await db_snapshot(world.game) == before


# --- random frames ----------------------------------------------------------------

SAFE_TYPES = [  # no seat command: those are valid for a seated player and change the game
    "act",
    "sync",
    "ping",
    "chat",
    "remis",
    "read",
    "queue",
    "decide",
    "tables",
    "hello",
    "",
    "game.frames",
]
FIELDS = ["version", "action", "game", "ref", "text", "kind", "ids", "page", "id", "approve"]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["type", "path", *FIELDS]) | st.text(max_size=5), inner)
    ),
    max_leaves=10,
)
typed = st.builds(
    lambda kind, rest: {**rest, "type": kind},
    st.sampled_from(SAFE_TYPES),
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4),
)
random_frames = st.one_of(
    st.text(max_size=40).map(lambda s: ("text", s)),
    json_values.map(lambda v: ("text", json.dumps(v))),
    typed.map(lambda v: ("text", json.dumps(v))),
    typed.map(lambda v: ("text", json.dumps(v).replace("0", "NaN", 1))),
    st.binary(max_size=40).map(lambda b: ("bytes", b)),
)
# Who sends them: nobody here can change the game with a frame (black is not
# to move; the watcher and the anonymous socket hold no seat; staff has no
# pending request to decide).
SENDERS = [("game", "black"), ("game", "watcher"), ("game", "anonymous")]
SENDERS += [("lobby", "anonymous"), ("notify", "watcher"), ("remis", "staff")]


@settings(
    max_examples=settings.default.max_examples,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(random_frames, min_size=1, max_size=4))
async def test_random_frames(world, frames):
    """Every sender gets the same random frames; nothing may change the game."""
    clear_local_cache()  # the per-user budgets
    before = await db_snapshot(world.game)
    for url, role in SENDERS:
        sock = Socket(world, url, role)
        for frame in frames:
            got = await answers(await sock.get(), url, frame)
            assert not [f for f in got if f["type"] == "<close>"], (url, role, frame, got)
            if _frame_type(frame) != "chat":  # a good chat is answered by its broadcast
                assert got, f"{url}/{role}: no answer to {_short(frame)}"
            for error in (f for f in got if f["type"] == "error"):
                assert isinstance(error["code"], str) and error["code"], error
                assert isinstance(error["message"], str) and error["message"], error
            assert not [f for f in got if f["type"] in {"ack", "remis_filed"}], (frame, got)
            assert await db_snapshot(world.game) == before, f"{_short(frame)} changed the game"
        await sock.close()


def _frame_type(frame: tuple[str, Any]) -> str | None:
    kind, payload = frame
    if kind != "text":
        return None
    try:
        value = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict) and isinstance(value.get("type"), str):
        return value["type"]
    return None


def test_flood_close_code_is_a_policy_violation():
    """1008, or 4008 where the websocket server lets applications send only 3000-4999."""
    assert POLICY_VIOLATION in {1008, 4008}


def test_frames_of_this_file_are_what_they_claim():
    """Guards the fixtures above: the big ones really are over the limit, the deep one under."""
    sizes = {len(frame[1]) for frame, _ in COMMON if frame[0] == "text"}
    assert max(sizes) > MAX_FRAME
    assert len(t(DEEP)[1]) < MAX_FRAME
    assert math.isnan(json.loads("NaN"))  # what Python's parser lets through


@pytest.mark.parametrize("game_id", [0, 2**31, 2**63, HUGE])
async def test_game_sockets_for_absurd_ids_close_with_4404(world, game_id):
    for user in (None, world.white):
        _comm, connected, code = await open_socket(f"/ws/game/{game_id}/", user)
        assert not connected and code == 4404, (game_id, connected, code)
