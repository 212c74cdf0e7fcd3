"""Position pictures: ``/g/<id>/position.svg`` and ``.png`` (``?v=<version>``:
after a past version), the board as spectators see it.

Drawing costs CPU (a PNG 15-35 ms), so: each address has a budget for
requests and a smaller one for drawings (the "pictures" and
"picture_renders" throttle scopes, counted in Redis across processes), a
drawing is cached by (game, version, language) in the "pictures" cache
(Redis: shared by every process, so a version is drawn once), the database
is read and let go before drawing, and rasterising runs in a small pool of
its own (``PICTURE_WORKERS`` threads per process), neither on the event
loop nor in the thread every sync view shares; the same picture asked for
by many at once is drawn once per process. A URL
with ``v`` never changes: browsers and proxies keep it (``immutable``) and
revalidate by ``ETag``.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import weakref
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool as BrokenExecutor
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_safe

from games.errors import GameError
from games.models import Game
from games.rules import get_ruleset
from games.selectors.positions import position_game, spectator_view
from games.selectors.replays import ReplayPending
from games.store.replay_requests import request_pending

from .budget import OverBudget, spend, too_many
from .pictures import lower_priority, png_of, svg_of

CACHE = "pictures"
KEEP_PAST = 24 * 3600  # a past version never changes
KEEP_NOW = 10 * 60  # the current one only until the next move changes the key
FOREVER = 365 * 24 * 3600  # a URL with ``v`` names one drawing for good
TYPES = {"svg": "image/svg+xml", "png": "image/png"}


def _pool() -> Executor:
    """Bounded: drawings queue here instead of taking every core from the
    process's other requests. "process": in worker processes of a lower
    priority, outside this process's interpreter lock (docs/performance.md)."""
    if settings.PICTURE_POOL == "process":
        return ProcessPoolExecutor(
            max_workers=settings.PICTURE_WORKERS,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=lower_priority,  # Django-free: the workers load no apps
        )
    return ThreadPoolExecutor(max_workers=settings.PICTURE_WORKERS, thread_name_prefix="picture")


POOL = _pool()
_drawing: dict[str, asyncio.Future[bytes]] = {}  # key -> the drawing in progress
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


@dataclass
class Picture:
    key: str
    version: int
    past: bool
    game: Game
    svg: str = ""
    cached: bytes | None = None


@require_safe
async def position_svg(request: HttpRequest, game_id: int) -> HttpResponse:
    return await _picture(request, game_id, "svg")


@require_safe
async def position_png(request: HttpRequest, game_id: int) -> HttpResponse:
    return await _picture(request, game_id, "png")


async def _picture(request: HttpRequest, game_id: int, kind: str) -> HttpResponse:
    try:
        if kind == "svg":  # built while prepared: nothing to rasterise
            picture = await sync_to_async(_prepare)(request, game_id, kind)
            body = picture.cached or await _saved(picture, picture.svg.encode())
        else:
            async with _gate():
                picture = await sync_to_async(_prepare)(request, game_id, kind)
                body = picture.cached or await _drawn(picture)
    except OverBudget as over:
        return too_many(request, over.wait, page=False)
    except GameError as error:
        refused = JsonResponse(error.as_dict(), status=error.status)
        if error.retry_after:
            refused["Retry-After"] = str(error.retry_after)
        return refused
    return _answer(request, picture, body, kind)


def _answer(request: HttpRequest, picture: Picture, body: bytes, kind: str) -> HttpResponse:
    """The picture, or 304 when the client holds it (``If-None-Match``)."""
    response = HttpResponse(body, content_type=TYPES[kind])
    versioned = "v" in request.GET
    age = FOREVER if versioned else KEEP_PAST if picture.past else 10
    response["Cache-Control"] = f"public, max-age={age}" + (", immutable" if versioned else "")
    response["X-Picture-Version"] = str(picture.version)
    response["X-Picture-Cache"] = "hit" if picture.cached is not None else "miss"
    response["ETag"] = f'"{hashlib.blake2b(body, digest_size=12).hexdigest()}"'
    return get_conditional_response(request, etag=response["ETag"], response=response) or response


async def _drawn(picture: Picture) -> bytes:
    """The PNG, drawn once per process however many requests ask for it at
    the same time, and cached for every process."""
    running = _drawing.get(picture.key)
    if running is None:
        picture.svg = await sync_to_async(_svg_of)(picture)
        running = _drawing.get(picture.key)  # begun meanwhile (PICTURE_WORKERS > 1)
        if running is None:
            running = _drawing[picture.key] = asyncio.ensure_future(_draw(picture))
    return await asyncio.shield(running)  # a caller gone does not stop it for the others


async def _saved(picture: Picture, body: bytes) -> bytes:
    await caches[CACHE].aset(picture.key, body, _keep(picture))
    return body


async def _draw(picture: Picture) -> bytes:
    try:
        return await _saved(picture, await _rasterised(picture.svg))
    finally:
        del _drawing[picture.key]


async def _rasterised(svg: str) -> bytes:
    global POOL
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(POOL, png_of, svg)
    except BrokenExecutor:  # a worker process died (killed, out of memory): a new pool
        POOL = _pool()
        return await loop.run_in_executor(POOL, png_of, svg)


def _gate() -> asyncio.Semaphore:
    """All of a PNG request's work passes this gate of ``PICTURE_WORKERS``
    places: fifty asked for at once wait on the event loop, not in fifty
    threads taking turns at the interpreter lock with every other request of
    the process. One gate per event loop (one per Daphne process; tests run
    many)."""
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(settings.PICTURE_WORKERS)
    return gate


def _keep(picture: Picture) -> int:
    return KEEP_PAST if picture.past else KEEP_NOW


def _prepare(request: HttpRequest, game_id: int, kind: str) -> Picture:
    """Count the request, read the game, and either find the drawing cached or
    build its SVG (a drawing still to make counted against the address's
    budget first); the connection is handed back before anything is drawn."""
    try:
        spend(request, "pictures", per_address=True)
        game = position_game(game_id)
        version = _version(request, game.version)
        picture = Picture(
            key=f"position:{game.pk}:{version}:{get_language()}:{kind}",
            version=version,
            past=version != game.version or game.status != game.Status.ACTIVE,
            game=game,
        )
        picture.cached = caches[CACHE].get(picture.key)
        if picture.cached is None:
            if kind == "png" or picture.version != game.version:
                spend(
                    request, "picture_renders", per_address=True
                )  # rasterising, or walking a replay
            if kind == "svg":
                picture.svg = _svg(game, version)
        return picture
    finally:
        if transaction.get_autocommit():  # not inside a test's transaction
            connection.close()


def _svg_of(picture: Picture) -> str:
    try:
        return _svg(picture.game, picture.version)
    finally:
        if transaction.get_autocommit():
            connection.close()


def _svg(game: Game, version: int) -> str:
    rs = get_ruleset(game.ruleset)
    try:
        view = spectator_view(game, None if version == game.version else version)
    except ReplayPending as pending:
        request_pending(pending.build)  # the worker prepares it; the page asks again
        raise
    title = gettext("%(game)s #%(id)s") % {"game": gettext(rs.title), "id": game.pk}
    return svg_of(game.ruleset, view, title)


def _version(request: HttpRequest, current: int) -> int:
    text = request.GET.get("v")
    if text is None:
        return current
    # ASCII digits only: str.isdigit() also takes '²' and '①', which int() refuses.
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) > current:
        raise GameError("bad_request", gettext_noop("This game has no such version."))
    return int(text)
