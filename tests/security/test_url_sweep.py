"""Every route, odd input, every method: never a 5xx (issue item 13).

Each URL pattern's parameters are filled with a NUL byte, 10,000 characters,
unicode, negative and too-large numbers and a real object's key; each URL is
asked with every method, as a visitor and as a signed-in player (a
superuser, so the admin and staff pages are reached too). Whatever the
answer (404, 400, 405, 403, a redirect), it is never a server error.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.conftest import clear_local_cache
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db

METHODS = ("get", "head", "post", "put", "patch", "delete", "options", "trace")
VISITOR_METHODS = ("get", "post", "options")  # a visitor mostly meets the same refusals
ODD = ("a\x00b", "x" * 10_000, "ünï€😀", "-1", "9" * 30)
# A route's parameter: "<int:pk>" (path()) or "(?P<app_label>a|b)" (re_path()).
PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>|\(\?P<\w+>[^)]*\)")


def routes(resolver: URLResolver | None = None, prefix: str = "") -> list[str]:
    """Every pattern as a route string, e.g. "api/games/<int:game_id>/"."""
    out = []
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            out.extend(routes(entry, route))
        elif isinstance(entry, URLPattern):
            out.append(route)
    return out


# Django's admin repeats one set of views per model: two models stand for all.
ADMIN_MODEL = re.compile(r"^admin/(?!games/game/|accounts/user/)\w+/\w+/")
ROUTES = sorted({r for r in routes() if not ADMIN_MODEL.match(r)})


def filled(route: str, value: str) -> str:
    route = PARAM.sub(lambda m: quote(value, safe=""), route)
    return "/" + route.replace("^", "").replace("$", "").replace("\\Z", "").replace("\\", "")


def urls_for(route: str, real: str) -> list[str]:
    if not PARAM.search(route):
        return [filled(route, ""), filled(route, "") + "?page=%00&speed=%00&q=" + "y" * 5000]
    return [filled(route, v) for v in (*ODD, real)]


def test_the_sweep_covers_the_routes_people_reach():
    assert len(ROUTES) > 40
    for route in ("players/<str:username>/", "t/<str:code>/", "api/docs/", "g/<int:game_id>/"):
        assert route in ROUTES


@pytest.mark.parametrize("route", ROUTES)
def test_no_route_answers_a_server_error(route):
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(players=[ann, bob])
    ann.is_superuser = ann.is_staff = True  # the admin and the staff pages too
    ann.save()
    # A real key, so the deeper paths run too: a game, a player, an invitation.
    param = PARAM.search(route)
    real = {"int": str(game.pk), "path": str(game.pk)}.get(param and param["conv"], "bob")
    if "<str:code>" in route:
        real = game.invite_code
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(ann)
    failures = []
    for client, methods in (
        (Client(raise_request_exception=False), VISITOR_METHODS),
        (signed_in, METHODS),
    ):
        for url in urls_for(route, real):
            for method in methods:
                clear_local_cache()  # throttles would hide what lies behind them
                answer = getattr(client, method)(url)
                if answer.status_code >= 500:
                    failures.append((method.upper(), url[:80], answer.status_code))
    assert not failures
