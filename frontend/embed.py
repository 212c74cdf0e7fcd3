"""``/embed/<id>/``: a game's board that other sites may frame.

Only this page loosens the framing rules: no X-Frame-Options (Django's
``xframe_options_exempt``) and CSP ``frame-ancestors *`` (django-csp's
``csp_replace``); every other page keeps ``DENY`` and ``'none'``. It shows
the spectators' picture of the position (frontend/positions.py), never a
seat's view, whoever's cookies the browser sends along.
"""

from __future__ import annotations

from csp.decorators import csp_replace
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from games.models import Game
from games.rules import RULESETS
from games.selectors.frames import result_text
from games.selectors.seats import game_with_seats


@require_safe
@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})  # type: ignore[arg-type]  # its types take request-only views
def embed_page(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist:
        raise Http404(gettext("There is no such game.")) from None
    if game.state is None:
        raise Http404(gettext("This game has not started yet."))
    live = game.status == Game.Status.ACTIVE
    context = {
        "game": game,
        "title": gettext(RULESETS[game.ruleset].title),
        "players": ", ".join(s.user.username for s in game.seats.all() if s.user),
        "status_text": gettext("live")
        if live
        else result_text(game.result) or gettext("The game is over."),
        "page_url": request.build_absolute_uri(f"/g/{game.pk}/"),
    }
    return render(request, "frontend/embed.html", context)
