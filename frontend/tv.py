"""TV: ``/tv/`` and ``/tv/<ruleset>/`` show the featured live game
(games/selectors/tv.py) as the embed shows a game: the spectators' picture,
live over the game's socket. ``featured/`` answers which game that is now; the
page asks when its game ends (the socket tells it) and once a minute (a better
game may have started)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from games.rules import RULESETS
from games.selectors import tv

from .budget import budget

ASK_SCOPE = "reads"  # the API's read budget, per user or address


def _channel(ruleset: str | None) -> str | None:
    if ruleset is not None and ruleset not in RULESETS:
        raise Http404(gettext("There is no such game."))
    return ruleset


@require_safe
def tv_page(request: HttpRequest, ruleset: str | None = None) -> HttpResponse:
    channel = _channel(ruleset)
    context = {
        "ruleset": channel or "",
        "title": gettext(RULESETS[channel].title) if channel else "",
        "channels": [(slug, gettext(rs.title)) for slug, rs in RULESETS.items()],
    }
    return render(request, "frontend/tv.html", context)


@require_safe
@budget(ASK_SCOPE, methods=("GET", "HEAD"), page=False)
def tv_featured(request: HttpRequest, ruleset: str | None = None) -> HttpResponse:
    channel = _channel(ruleset)
    found = tv.featured(channel)
    if found is not None:
        found["title"] = gettext(RULESETS[found["ruleset"]].title)
    return JsonResponse({"featured": found})
