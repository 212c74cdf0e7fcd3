"""Per-user limits hold across two Daphne processes sharing Redis: a user's
table creations, chat lines and socket acts are counted once, wherever they
arrive (games/ratelimit.py). With per-process counts each process let its own
full budget through: 60 tables a minute instead of 30, 8 of 8 racing chat lines."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from games.ratelimit import CONNECTION_LIMITS, USER_LIMITS

from .cluster import Daphne, wait_until

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]

TABLES_PER_MINUTE = 30  # REST_FRAMEWORK's "tables" rate
CHAT_LINES = 5  # CHAT_RATE: lines per user and game in 10 s


def post_table(server: Daphne, token: str) -> tuple[int, dict, str | None]:
    request = urllib.request.Request(
        server.http + "/api/tables/",
        data=json.dumps({"ruleset": "halma"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), None
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers.get("Retry-After")


async def test_table_creations_are_counted_once_across_processes(cluster):
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    token = g["tokens"][0]
    tries = 40
    answers = await asyncio.gather(
        *(asyncio.to_thread(post_table, (a, b)[i % 2], token) for i in range(tries))
    )
    throttled = [(body, retry) for status, body, retry in answers if status == 429]
    # Past the throttle, table_create may refuse a host with 10 open tables
    # (400); only the throttle answers 429.
    assert tries - len(throttled) == TABLES_PER_MINUTE, [status for status, _, _ in answers]
    for body, retry in throttled:
        assert body["code"] == "throttled" and "seconds" in body["message"], body
        assert retry is not None and 0 < int(retry) <= 60
        assert 0 < body["retry_after"] <= 60


async def test_racing_chat_lines_and_acts_are_counted_once_across_processes(cluster):
    a, b = await cluster.daphnes("daphne-a", "daphne-b")
    [g] = cluster.games({"players": cluster.player_names(), "clock": {"kind": "none"}})
    gid, cookie = g["id"], g["cookies"][0]
    # Eight sockets of the same player, four on each process, one line each,
    # all at once (a socket's own frames are handled one after the other).
    tabs = [
        await cluster.client(f"tab{i}@{s.name}", s, gid, cookie=cookie)
        for i in range(4)
        for s in (a, b)
    ]
    await asyncio.gather(
        *(tab.send({"type": "chat", "game": gid, "text": f"from {tab.name}"}) for tab in tabs)
    )

    def chat_refusals() -> list[dict]:
        return [e for tab in tabs for e in tab.errors if e["code"] == "rate_limited"]

    def stored() -> int:
        rows = cluster.db.rows(
            "SELECT count(*) AS n FROM games_chatmessage WHERE game_id = %s", gid
        )
        return rows[0]["n"]

    await wait_until(lambda: stored() + len(chat_refusals()) == 8, 20, "8 answers", *tabs)
    assert stored() == CHAT_LINES
    for refusal in chat_refusals():
        assert 0 < refusal["retry_after"] <= 10 and "try again" in refusal["message"], refusal

    # Acts: more than the user's budget across sockets, none over a socket's
    # own window; every act on a stale version, so the game does not change.
    budget, _ = USER_LIMITS["act"]
    sockets = tabs[:4]
    per_socket = (budget + 20) // len(sockets)
    assert per_socket < CONNECTION_LIMITS["act"][0]
    for tab in sockets:
        tab.errors.clear()
    acts = [
        tab.send({"type": "act", "game": gid, "version": 0, "action": {"type": "move"}})
        for tab in sockets
        for _ in range(per_socket)
    ]
    await asyncio.gather(*acts)
    sent = len(acts)

    def answered() -> list[dict]:
        return [e for tab in sockets for e in tab.errors]

    await wait_until(lambda: len(answered()) >= sent, 60, f"{sent} answers", *sockets)
    codes = [e["code"] for e in answered()]
    assert len(codes) == sent and codes.count("rate_limited") == sent - budget, codes
    assert all(tab.drops == 0 for tab in sockets), [t.summary() for t in sockets]
    assert cluster.db.game(gid)["version"] == 1
