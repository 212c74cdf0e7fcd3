"""Position pictures across two Daphne processes sharing Redis: a drawing made
by one is served by the other from the shared cache, and an address's
drawings are counted once, wherever they arrive (frontend/positions.py)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from .cluster import Daphne

pytestmark = [pytest.mark.live, pytest.mark.postgres, pytest.mark.redis]


def fetch(server: Daphne, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(server.http + path, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


async def test_drawn_once_and_counted_once_across_processes(cluster):
    a, b = await cluster.daphnes("daphne-a", "daphne-b", PICTURE_RENDER_RATE="2/min")
    spec = {"players": cluster.player_names(), "clock": {"kind": "none"}}
    one, two, three = (g["id"] for g in cluster.games(spec, spec, spec))

    status, drawn, png = await asyncio.to_thread(fetch, a, f"/g/{one}/position.png?v=1")
    assert status == 200 and drawn["X-Picture-Cache"] == "miss", drawn
    assert drawn["Cache-Control"] == "public, max-age=31536000, immutable"
    status, shared, again = await asyncio.to_thread(fetch, b, f"/g/{one}/position.png?v=1")
    assert status == 200 and shared["X-Picture-Cache"] == "hit" and again == png
    assert shared["ETag"] == drawn["ETag"]

    status, _, _ = await asyncio.to_thread(fetch, b, f"/g/{two}/position.png")
    assert status == 200  # the address's second drawing, on the other process
    status, refused, body = await asyncio.to_thread(fetch, a, f"/g/{three}/position.png")
    assert status == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert json.loads(body)["code"] == "rate_limited"
