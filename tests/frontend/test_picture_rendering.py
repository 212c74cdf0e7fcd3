"""Position pictures drawn once, off the event loop, in a bounded pool, by the
lean painter (frontend/positions.py, frontend/pictures/raster.py)."""

from __future__ import annotations

import asyncio
import io
import os
import threading

import cairosvg
import pytest
from asgiref.sync import ThreadSensitiveContext
from django.test import AsyncClient, Client
from PIL import Image, ImageChops, ImageStat

from frontend import pictures, positions
from frontend.pictures import raster
from games.rules import get_ruleset
from games.selectors.positions import spectator_view
from tests.db_threads import sync_to_async
from tests.factories import make_user, started_game

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SEATS = {"hexenhalma": 3}


class Counted:
    """``png_of`` counted, with the pool threads it ran on; ``hold`` keeps a
    drawing going until ``release`` is set."""

    def __init__(self, hold: bool = False) -> None:
        self.calls: list[str] = []
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def __call__(self, svg: str) -> bytes:
        self.calls.append(threading.current_thread().name)
        self.started.set()
        assert self.release.wait(30), "never released"
        return pictures.png_of(svg)


@pytest.mark.django_db
def test_a_versioned_picture_is_drawn_once_then_revalidated(monkeypatch):
    counted = Counted()
    monkeypatch.setattr(positions, "png_of", counted)
    game = started_game()
    url = f"/g/{game.pk}/position.png?v=1"
    first = Client().get(url)
    assert first.status_code == 200 and first["X-Picture-Cache"] == "miss"
    assert first["Cache-Control"] == "public, max-age=31536000, immutable"
    again = Client(REMOTE_ADDR="10.9.8.7").get(url)
    assert again["X-Picture-Cache"] == "hit" and again.content == first.content
    assert again["ETag"] == first["ETag"] and first["ETag"].startswith('"')
    assert len(counted.calls) == 1
    held = Client().get(url, headers={"if-none-match": first["ETag"]})
    assert held.status_code == 304 and held.content == b""
    assert held["ETag"] == first["ETag"]
    assert Client().get(url, headers={"if-none-match": '"other"'}).status_code == 200
    assert len(counted.calls) == 1
    assert all(name.startswith("picture") for name in counted.calls), counted.calls


async def get(url: str):
    """One request in a context of its own, as Django's ASGI handler serves
    each request under Daphne (its sync middleware on a thread of its own)."""
    async with ThreadSensitiveContext():
        return await AsyncClient().get(url)


@pytest.mark.django_db(transaction=True)
async def test_drawings_queue_in_the_pool_and_the_loop_stays_free(monkeypatch, settings):
    """While the pool's only thread draws, the process answers other requests;
    other PNG requests wait at the gate, on the event loop, and the same
    picture asked for again meanwhile is drawn once."""
    assert positions.POOL._max_workers == settings.PICTURE_WORKERS == 1
    counted = Counted(hold=True)
    monkeypatch.setattr(positions, "png_of", counted)
    joined = asyncio.Event()
    gate = positions._gate

    def watched():
        joined.set()  # a PNG request has come to the gate
        return gate()

    monkeypatch.setattr(positions, "_gate", watched)
    first, second = await sync_to_async(lambda: [started_game(), started_game()])()
    png = f"/g/{first.pk}/position.png"
    one = asyncio.ensure_future(get(png))
    assert await asyncio.to_thread(counted.started.wait, 30)
    joined.clear()
    two = asyncio.ensure_future(get(png))
    await asyncio.wait_for(joined.wait(), 30)  # the same picture, waiting at the gate
    joined.clear()
    other = asyncio.ensure_future(get(f"/g/{second.pk}/position.png"))
    await asyncio.wait_for(joined.wait(), 30)
    svg = await get(f"/g/{second.pk}/position.svg")  # answered while the pool is busy
    assert svg.status_code == 200
    # The other drawing waits at the gate, on the event loop: not in the pool's
    # queue, and not building its SVG in a thread.
    assert len(counted.calls) == 1 and positions.POOL._work_queue.qsize() == 0
    assert gate().locked() and len(positions._drawing) == 1
    counted.release.set()
    answers = await asyncio.gather(one, two, other)
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].content == answers[1].content
    assert [a["X-Picture-Cache"] for a in answers] == ["miss", "hit", "miss"]
    assert len(counted.calls) == 2 and all(n.startswith("picture") for n in counted.calls)


def _view(slug: str) -> tuple[dict, str]:
    game = started_game(slug, players=[make_user() for _ in range(SEATS.get(slug, 2))])
    return spectator_view(game, None), get_ruleset(slug).title


def _difference(a: bytes, b: bytes) -> list[float]:
    first, second = (Image.open(io.BytesIO(x)).convert("RGB") for x in (a, b))
    assert first.size == second.size
    return ImageStat.Stat(ImageChops.difference(first, second)).mean


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["halma", "malefiz", "daschax", "hexenhalma"])
def test_the_painter_draws_what_cairosvg_draws(slug):
    view, title = _view(slug)
    svg = pictures.svg_of(slug, view, title)
    ours = raster.png(svg, pictures.PNG_WIDTH)
    theirs = cairosvg.svg2png(bytestring=svg.encode(), output_width=pictures.PNG_WIDTH)
    assert ours.startswith(PNG_MAGIC)
    assert max(_difference(ours, theirs)) < 0.5  # edges' anti-aliasing at most


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["halma", "malefiz", "daschax", "hexenhalma", "idiotenspiel"])
def test_every_game_is_painted_without_cairosvg(slug, monkeypatch):
    def refused(**kwargs):
        raise AssertionError("cairosvg was asked")

    monkeypatch.setattr(cairosvg, "svg2png", refused)
    view, title = _view(slug)
    assert pictures.png_of(pictures.svg_of(slug, view, title)).startswith(PNG_MAGIC)


def test_the_painter_hands_what_it_does_not_draw_to_cairosvg():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<ellipse cx="5" cy="5" rx="4" ry="2" fill="#c00"/></svg>'
    )
    with pytest.raises(raster.Unsupported):
        raster.png(svg, 20)
    image = Image.open(io.BytesIO(pictures.png_of(svg)))
    assert image.size == (800, 800)


def test_faint_lines_stay_faint():
    """An eight-digit colour's alpha is kept (cairosvg drew Idiotenspiel's
    grid lines opaque black)."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<rect x="0" y="0" width="10" height="10" fill="#ffffff"/>'
        '<rect x="2" y="2" width="6" height="6" fill="#00000014"/></svg>'
    )
    image = Image.open(io.BytesIO(raster.png(svg, 10))).convert("RGB")
    assert image.getpixel((5, 5)) == (235, 235, 235) and image.getpixel((0, 0)) == (255, 255, 255)


def test_the_process_pool_draws_in_workers_of_lower_priority(settings):
    """PICTURE_POOL=process (production's default): drawings run outside the
    server's interpreter lock, at a lower priority than its requests."""
    settings.PICTURE_POOL = "process"
    pool = positions._pool()
    try:
        svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'
        assert pool.submit(pictures.png_of, svg).result(60).startswith(PNG_MAGIC)
        assert pool.submit(os.getpid).result(60) != os.getpid()
        assert pool.submit(os.nice, 0).result(60) >= os.nice(0) + 10
    finally:
        pool.shutdown()
