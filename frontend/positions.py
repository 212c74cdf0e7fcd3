"""Position pictures: ``/g/<id>/position.svg`` and ``.png`` (``?v=<version>``:
after a past version), the board as spectators see it.

Drawing costs (a PNG takes a few hundred milliseconds of CPU), so: each
address has a budget for requests and a smaller one for drawings (the
"pictures" and "picture_renders" throttle scopes), a drawing is cached by
(game, version, language), the database is read and let go before drawing,
and rasterising runs in a worker thread, not in the thread every sync view
of the process shares.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_safe

from games import ratelimit
from games.addresses import request_key
from games.errors import GameError
from games.rules import get_ruleset
from games.selectors.positions import position_game, spectator_view
from games.selectors.replays import ReplayPending
from games.store.replay_requests import request_pending

from .pictures import png_of, svg_of

CACHE = "pictures"
KEEP_PAST = 24 * 3600  # a past version never changes
KEEP_NOW = 10 * 60  # the current one only until the next move changes the key
TYPES = {"svg": "image/svg+xml", "png": "image/png"}


@dataclass
class Picture:
    key: str
    version: int
    past: bool
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
        picture = await sync_to_async(_prepare)(request, game_id, kind)
    except GameError as error:
        refused = JsonResponse(error.as_dict(), status=error.status)
        if error.retry_after:
            refused["Retry-After"] = str(error.retry_after)
        return refused
    body = picture.cached
    if body is None:
        # In a worker thread: the CPU-bound drawing holds neither the
        # process's shared sync thread nor a database connection.
        body = (
            await asyncio.to_thread(png_of, picture.svg) if kind == "png" else picture.svg.encode()
        )
        await caches[CACHE].aset(picture.key, body, KEEP_PAST if picture.past else KEEP_NOW)
    response = HttpResponse(body, content_type=TYPES[kind])
    response["Cache-Control"] = f"public, max-age={KEEP_PAST if picture.past else 10}"
    response["X-Picture-Version"] = str(picture.version)
    return response


def _prepare(request: HttpRequest, game_id: int, kind: str) -> Picture:
    """Count the request, read the game, and either find the drawing cached or
    build its SVG; the connection is handed back before anything is drawn."""
    try:
        _spend(request, "pictures")
        game = position_game(game_id)
        version = _version(request, game.version)
        picture = Picture(
            key=f"position:{game.pk}:{version}:{get_language()}:{kind}",
            version=version,
            past=version != game.version or game.status != game.Status.ACTIVE,
        )
        picture.cached = caches[CACHE].get(picture.key)
        if picture.cached is None:
            if kind == "png" or picture.version != game.version:
                _spend(request, "picture_renders")  # rasterising, or walking a replay
            rs = get_ruleset(game.ruleset)
            try:
                view = spectator_view(game, None if version == game.version else version)
            except ReplayPending as pending:
                request_pending(pending.build)  # the worker prepares it; the page asks again
                raise
            title = gettext("%(game)s #%(id)s") % {"game": gettext(rs.title), "id": game.pk}
            picture.svg = svg_of(game.ruleset, view, title)
        return picture
    finally:
        if transaction.get_autocommit():  # not inside a test's transaction
            connection.close()


def _spend(request: HttpRequest, scope: str) -> None:
    limit, seconds = ratelimit.scope_rate(scope)
    wait = ratelimit.hit(ratelimit.budget_key(scope, request_key(request)), limit, seconds)
    if wait is not None:
        raise GameError(
            "rate_limited",
            gettext_noop("Too many pictures asked for; try again in %(n)s seconds."),
            status=429,
            retry_after=wait,
            n=wait,
        )


def _version(request: HttpRequest, current: int) -> int:
    text = request.GET.get("v")
    if text is None:
        return current
    if not text.isdigit() or len(text) > 9 or int(text) > current:
        raise GameError("bad_request", gettext_noop("This game has no such version."))
    return int(text)
