"""A club match's page: the boards, players, ratings, each board's game and
result, the score (refreshed when the lobby socket says the match changed,
``?club_match=<id>``); the clubs' owners and admins answer, start or call it
off here with the same services as the API."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_http_methods

from frontend.budget import write_budget
from games.errors import GameError
from lobby.clubs import matches as services
from lobby.models import ClubMatch, ClubMember
from lobby.selectors import club_matches as read


def _lineup(request: HttpRequest, match_id: int) -> None:
    """The lineup form: its names in order (blank fields left out), for its club."""
    names = [n.strip() for n in request.POST.getlist("player")[:50] if n.strip()]
    services.club_match_players_set(
        user=request.user, match_id=match_id, players=names, club=request.POST.get("club")
    )


def _lineup_forms(m: dict[str, Any], match: ClubMatch, runs: set[int]) -> list[dict[str, Any]]:
    """A lineup form for each side the viewer runs, while lineups may change:
    one field a board, filled with the players named so far."""
    if m["status"] not in (ClubMatch.Status.PROPOSED, ClubMatch.Status.ACCEPTED):
        return []
    forms = []
    for key, club_id in (("home", match.home_id), ("away", match.away_id)):
        if club_id in runs:
            named = [p["username"] for p in m["players"][key]]
            forms.append(
                {"key": key, "club": m[key], "names": (named + [""] * m["boards"])[: m["boards"]]}
            )
    return forms


PAGE_ACTIONS = {
    "accept": services.club_match_accept,
    "decline": services.club_match_decline,
    "start": services.club_match_start,
    "cancel": services.club_match_cancel,
}
STAFF = (ClubMember.Role.OWNER, ClubMember.Role.ADMIN)


@require_http_methods(["GET", "HEAD", "POST"])
@write_budget("writes")
def club_match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = ClubMatch.objects.select_related("home", "away").filter(pk=match_id).first()
    if match is None:
        raise Http404(gettext("There is no such club match."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        chosen = request.POST.get("action", "")
        action = PAGE_ACTIONS.get(chosen)
        try:
            if chosen == "lineup":
                _lineup(request, match.pk)
            elif action is None:
                raise GameError(
                    "bad_request", gettext_noop("Choose accept, decline, start or cancel.")
                )
            else:
                action(user=request.user, match_id=match.pk)
        except GameError as exc:
            messages.error(request, exc.message)
        return redirect("club-match", match_id=match.pk)
    runs: set[int] = set()
    if request.user.is_authenticated:
        runs = set(
            ClubMember.objects.filter(
                club_id__in=[match.home_id, match.away_id], user_id=request.user.pk, role__in=STAFF
            ).values_list("club_id", flat=True)
        )
    m = read.club_match_detail(match)
    m["title"] = gettext(m["title"])
    return render(
        request,
        "lobby/club_match.html",
        {
            "m": m,
            "runs_home": match.home_id in runs,
            "runs_away": match.away_id in runs,
            "lineup_forms": _lineup_forms(m, match, runs),
            "me": request.user.username if request.user.is_authenticated else None,
        },
    )
