"""Conditional moves are their owner's secret (issue 36): the opponent's and
a spectator's socket frames, NDJSON stream and API answers (game, events,
replay, export) never carry the lines nor any ``conditional…`` key, before,
while and after a line plays out. Everything they receive is captured and
searched."""

from __future__ import annotations

import json

import pytest

from games.models import Event
from games.services import endings
from games.services.play import game_act
from tests.api.test_streams_inprocess import line, opened, token_of
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

from .test_conditional import line_from, url
from .test_consumers import close_all, connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


def leaks(texts: list[str], secret: list[dict]) -> list[str]:
    """What in ``texts`` gives the plan away: a conditional key, the flag, or
    the path of a reply that was never played."""
    marks = ["conditional", "plan_seats", *(json.dumps(a["path"]) for a in secret)]
    compact = [json.dumps(json.loads(t)) if t.strip() else "" for t in texts]
    return [m for m in marks for t in compact if m.lower() in t.lower()]


async def frames_until(sock, version: int, into: list[str]) -> None:
    while True:
        text = await sock.receive_from(timeout=5)
        into.append(text)
        frame = json.loads(text)
        if frame["type"] == "event" and frame["version"] >= version:
            return


async def test_nobody_but_the_owner_sees_the_lines():
    white, black, watcher = [await sync_to_async(make_user)() for _ in range(3)]
    game = await sync_to_async(started_game)(players=[white, black])
    await sync_to_async(game_act)(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
    planned = await sync_to_async(line_from)(game, 6)
    put = await sync_to_async(client_for(white).put)(url(game), {"lines": [planned]}, format="json")
    assert put.status_code == 200
    never_played = planned[3:]  # after the first reply, nothing more is played

    seen: list[str] = []
    path = f"/ws/game/{game.pk}/"
    socks = [await connect(path, black), await connect(path, watcher), await connect(path)]
    for sock in socks:
        seen.append(json.dumps(await receive(sock, "hello")))
    secret = await sync_to_async(token_of)(black)
    stream, _ = await opened(f"/api/stream/games/{game.pk}/", secret)
    seen.append(json.dumps(await line(stream)))

    await socks[0].send_json_to(
        {"type": "act", "game": game.pk, "version": 2, "action": planned[0], "ref": "b"}
    )
    for sock in socks:
        await frames_until(sock, 4, seen)  # the move (3) and the reply (4)
    stream_lines = [json.dumps(await line(stream)) for _ in range(2)]
    assert [json.loads(t)["version"] for t in stream_lines] == [3, 4]
    seen += stream_lines
    reply = await sync_to_async(Event.objects.get)(game=game, version=4)
    assert reply.seat == 0 and reply.action == planned[1]

    def answers() -> list[str]:
        texts = []
        for client in (client_for(black), client_for(watcher)):
            for path in ("", "events/?since=0", "replay/?views=1", "conditional/"):
                answer = client.get(f"/api/games/{game.pk}/{path}")
                assert answer.status_code in (200, 503), (path, answer.status_code)
                texts.append(answer.content.decode())
        return texts

    seen += await sync_to_async(answers)()
    await sync_to_async(endings.game_resign)(game_id=game.pk, user=black)
    export = await sync_to_async(client_for(black).get)(f"/api/games/{game.pk}/export/")
    assert export.status_code == 200
    seen.append(export.content.decode())
    assert len(seen) > 10
    assert leaks(seen, never_played) == []
    # The search can fail: the owner's own answer names them.
    owner = await sync_to_async(client_for(white).get)(f"/api/games/{game.pk}/conditional/")
    assert owner.json() == {"lines": []}  # cleared at the end
    assert leaks([json.dumps({"lines": [planned]})], never_played)
    await stream.send_input({"type": "http.disconnect"})
    await close_all(socks)
