"""Tournament pages: the list (with the form to create one) and a tournament's
page (standings, rounds, pairings; join, withdraw, start). Forms post here and
call the same services as the API; the page refreshes itself when the lobby
socket says the tournament changed."""

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
from games.row_ids import row_pk
from games.rules import RULESETS
from lobby import tournaments as services
from lobby.models import Club, Tournament
from lobby.selectors import tournaments as read
from lobby.selectors.tournament_page import Asked, page_data
from lobby.tournaments.creation import NO_TOURNAMENTS

PAGE_ACTIONS = {
    "join": services.tournament_join,
    "withdraw": services.tournament_withdraw,
    "start": services.tournament_start,
}


def _asked(request: HttpRequest) -> Asked:
    """The round and pages the query string asks for; anything unreadable: the default."""
    return Asked(
        round=_number(request.GET.get("round")),
        standings_page=_number(request.GET.get("standings")),
        boards_page=_number(request.GET.get("boards")),
    )


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 7 else None


def _games() -> list[dict[str, Any]]:
    return [
        {"slug": slug, "title": gettext(rs.title), "max_seats": rs.max_seats}
        for slug, rs in RULESETS.items()
        if slug not in NO_TOURNAMENTS
    ]


@require_http_methods(["GET", "HEAD", "POST"])
@write_budget("tournaments")
def tournament_list_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            made = services.tournament_create(creator=request.user, **_form_fields(request.POST))
        except GameError as exc:
            messages.error(request, exc.message)
        else:
            return redirect("tournament", tournament_id=made.pk)
    titles = {g["slug"]: g["title"] for g in _games()}
    sections = []
    for status, label in Tournament.Status.choices:
        items = read.listing(status, limit=20)
        for item in items:
            item["title"] = titles.get(item["ruleset"], item["ruleset"])
        sections.append({"status": status, "label": label, "items": items})
    context = {"sections": sections, "games": _games(), "club": _club_asked(request)}
    return render(request, "lobby/tournaments.html", context)


def _club_asked(request: HttpRequest) -> dict[str, Any] | None:
    """``?club=<id>`` (a club page's link, or the form's own field): the form
    makes a tournament of that club (the service checks the creator's role)."""
    asked = request.GET.get("club") or request.POST.get("club")
    pk = row_pk(asked)
    if pk is None:
        return None
    name = Club.objects.filter(pk=pk, dissolved__isnull=True).values_list("name", flat=True).first()
    return None if name is None else {"id": pk, "name": name}


def _form_fields(form: Any) -> dict[str, Any]:
    """The create form's text fields as the service takes them (it checks them)."""

    def whole(name: str, default: int | None) -> int | str | None:
        raw = (form.get(name) or "").strip()
        if not raw:
            return default
        return int(raw) if raw.isdigit() else raw  # not a number: the service says so

    kind = form.get("clock", "correspondence")
    clock: dict[str, Any] = {"kind": kind}
    if kind == "realtime":
        clock.update(minutes=whole("minutes", 10), increment=whole("increment", 5))
    elif kind == "correspondence":
        clock.update(days=whole("days", 3))
    system = form.get("system", "swiss")
    return {
        "name": form.get("name", ""),
        "ruleset": form.get("ruleset", ""),
        "system": system,
        "seat_count": whole("seat_count", None),
        "rounds": whole("rounds", 3) if system == "swiss" else None,
        "clock": clock,
        "rated": form.get("rated") == "on",
        "round_pause_seconds": whole("round_pause_seconds", 0),
        "round_days": whole("round_days", None),
        "play": form.get("organise_only") != "on",
        "club": form.get("club") or None,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@write_budget("writes")
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(gettext("There is no such tournament."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        action = PAGE_ACTIONS.get(request.POST.get("action", ""))
        try:
            if action is None:
                raise GameError("bad_request", gettext_noop("Choose join, withdraw or start."))
            action(tournament_id=tournament.pk, user=request.user)
        except GameError as exc:
            messages.error(request, exc.message)
        return redirect("tournament", tournament_id=tournament.pk)
    me = request.user.pk if request.user.is_authenticated else None
    data = page_data(tournament, _asked(request), me)
    context = {
        **data,
        "title": gettext(RULESETS[tournament.ruleset].title)
        if tournament.ruleset in RULESETS
        else tournament.ruleset,
        "can_start": tournament.status == "open"
        and request.user.is_authenticated
        and (request.user.pk == tournament.creator_id or request.user.is_staff),
        "me": request.user.username if me is not None else None,
        "round_deadline": tournament.round_deadline,
        "chat": read.chat_lines(tournament),
    }
    return render(request, "lobby/tournament.html", context)
