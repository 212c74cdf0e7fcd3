"""Club pages: the list (search, pages, the form to create one), a club's
page (members with their ratings, their running games, the club's
tournaments, the chat; join, leave; for its owner and admins the invite code
and the members' roles) and the invite link. Forms post here and call the
same services as the API; the page refreshes its live part when the lobby
socket (``?club=<id>``) says the club changed or a table started or ended."""

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
from games.rules import RULESETS
from lobby import clubs as services
from lobby.clubs import matches as match_services
from lobby.selectors import club_page as page_read
from lobby.selectors import clubs as read
from lobby.selectors.club_matches import club_matches_of, match_rulesets

MAX_PAGE = 10**5


def _page(request: HttpRequest, name: str) -> int:
    """``?<name>=n`` (from 1); anything unreadable: the first page."""
    text = request.GET.get(name) or ""
    number = int(text) if text.isascii() and text.isdigit() and len(text) < 7 else 1
    return min(max(number, 1), MAX_PAGE)


@require_http_methods(["GET", "HEAD", "POST"])
@write_budget("clubs")
def club_list_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            club = services.club_create(
                creator=request.user,
                name=request.POST.get("name", ""),
                description=request.POST.get("description", ""),
                open=request.POST.get("closed") != "on",
            )
        except GameError as exc:
            messages.error(request, exc.message)
        else:
            return redirect("club", club_id=club.pk)
    query = (request.GET.get("q") or "")[: read.QUERY_MAX]
    listing = read.club_listing(query, _page(request, "page"))
    return render(request, "lobby/clubs.html", {**listing, "q": query})


# The time controls the challenge form offers (any other through the API).
MATCH_CLOCKS: dict[str, dict[str, Any]] = {
    "days3": {"kind": "correspondence", "days": 3},
    "days1": {"kind": "correspondence", "days": 1},
    "rt10": {"kind": "realtime", "minutes": 10, "increment": 5},
    "rt5": {"kind": "realtime", "minutes": 5, "increment": 3},
}


def _challenge(request: HttpRequest, club_id: int) -> HttpResponse:
    """The challenge form: another club by its name, a game, boards, a clock;
    on to the new match's page, or back with the service's refusal."""
    form = request.POST
    boards = form.get("boards", "")
    try:
        match = match_services.club_match_challenge(
            user=request.user,
            club_id=club_id,
            opponent=read.club_named(form.get("opponent", "")[:100]) or 0,
            ruleset=form.get("ruleset"),
            boards=int(boards) if boards.isdigit() and len(boards) < 4 else None,
            clock=MATCH_CLOCKS.get(form.get("clock", ""), MATCH_CLOCKS["days3"]),
        )
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect(request.get_full_path())
    return redirect("club-match", match_id=match.pk)


def _member_action(request: HttpRequest, club_id: int) -> None:
    """One form's action on the club, through its service."""
    action, user, form = request.POST.get("action", ""), request.user, request.POST
    if action == "join":
        services.club_join(club_id=club_id, user=user, invite=form.get("invite") or None)
    elif action == "leave":
        services.club_leave(club_id=club_id, user=user)
    elif action == "renew":
        services.club_invite_renew(club_id=club_id, user=user)
    elif action == "revoke":
        services.club_invite_revoke(club_id=club_id, user=user)
    elif action == "role":  # one form for the members' buttons: "<role> <username>"
        role, _, username = (form.get("change") or "").partition(" ")
        services.club_set_role(club_id=club_id, user=user, username=username, role=role)
    else:
        raise GameError("bad_request", gettext_noop("Choose join, leave, renew, revoke or role."))


@require_http_methods(["GET", "HEAD", "POST"])
@write_budget("clubs")
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if request.POST.get("action") == "challenge":
            return _challenge(request, club.pk)
        try:
            _member_action(request, club.pk)
        except GameError as exc:
            messages.error(request, exc.message)
        if request.POST.get("action") == "leave" and not read.is_member(club.pk, request.user.pk):
            return redirect("clubs")
        return redirect(request.get_full_path())
    viewer = request.user if request.user.is_authenticated else None
    members_page, games_page = _page(request, "members"), _page(request, "games")
    detail = read.club_detail(club, viewer, members_page=members_page, games_page=games_page)
    titles = {slug: gettext(rs.title) for slug, rs in RULESETS.items()}
    for member in detail["members"]:  # the games they are rated in, in the site's order
        rated = member["ratings"]
        member["cells"] = [(title, rated[slug]) for slug, title in titles.items() if slug in rated]
    for game in detail["games"]:
        game["title"] = titles.get(game["ruleset"], game["ruleset"])
    readable = page_read.may_read_chat(club, viewer)
    context: dict[str, Any] = {
        "club": detail,
        "members_pager": page_read.pager(members_page, detail["member_count"], read.MEMBERS_PAGE),
        "games_pager": page_read.pager(games_page, detail["games_count"], read.GAMES_PAGE),
        "tournaments": page_read.tournaments(detail["tournaments"]),
        "club_matches": club_matches_of(club.pk),
        "match_games": [(slug, titles[slug]) for slug in match_rulesets()],
        "is_staff": detail["my_role"] in ("owner", "admin"),
        "chat_readable": readable,
        "chat": page_read.chat_lines(club) if readable else [],
        "invite_link": request.build_absolute_uri(f"/clubs/{club.pk}/join/?invite={club.invite}")
        if detail.get("invite")
        else None,
    }
    return render(request, "lobby/club.html", context)


@require_http_methods(["GET", "HEAD"])
def club_join_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """The invite link: signed in, one button joins with the link's code
    (a GET never joins: a link in a mail or a picture must not)."""
    club = _club(club_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if read.is_member(club.pk, request.user.pk):
        return redirect("club", club_id=club.pk)
    invite = (request.GET.get("invite") or "")[:64]
    return render(request, "lobby/club_join.html", {"club": club, "invite": invite})


def _club(club_id: int) -> Any:
    try:
        return read.club_or_404(club_id)
    except GameError:
        raise Http404(gettext("There is no such club.")) from None
