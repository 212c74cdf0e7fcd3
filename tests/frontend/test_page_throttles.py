"""Every page that takes a POST spends a per-user budget, as the API's writes
do (tests/games/test_throttles.py): walked from the URL patterns, so a new
page form cannot forget one. Pages that only show something refuse POST."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.models import Game
from tests.factories import make_user, started_game

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


PACKAGES = ("frontend.", "accounts.")
# lock-outs; sign-ups and guests per address (a signed-in visitor writes nothing); a session only
OWN_LIMITS = {"login", "signup", "guest", "logout"}
BUDGET = 2


def page_routes(patterns=None, prefix=""):
    """(route, name, view) of every page view of the site's own apps."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from page_routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            view = entry.callback
            module = getattr(getattr(view, "view_class", view), "__module__", "")
            if module.startswith(PACKAGES):
                yield prefix + str(entry.pattern), entry.name, view


def url_of(route: str, game: Game, user) -> str:
    values = {
        "<int:game_id>": str(game.pk),
        "<str:code>": game.invite_code or "nope",
        "<str:username>": user.username,
        "<str:ruleset>": "halma",
        "<int:token_id>": "1",
        "<int:tournament_id>": "1",
        "<int:pk>": "1",
        "<str:token>": "not-a-link",
    }
    for pattern, value in values.items():
        route = route.replace(pattern, value)
    assert "<" not in route, route
    return "/" + route


@pytest.fixture
def small_budgets(settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    rates = {scope: f"{BUDGET}/min" for scope in rates}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_every_page_post_is_throttled_or_refused(small_budgets):
    game = started_game()
    user = make_user()
    routes = [r for r in page_routes() if r[1] not in OWN_LIMITS]
    assert len(routes) > 10, routes  # the walk found the pages
    unthrottled = []
    for route, name, _view in routes:
        client = client_for(make_user())  # a fresh budget for each page
        url = url_of(route, game, user)
        codes = [client.post(url, {}).status_code for _ in range(BUDGET + 1)]
        if codes[-1] not in (405, 429):
            unthrottled.append((name, codes))
    assert unthrottled == []


def test_the_refusal_says_how_long_to_wait(small_budgets):
    client = client_for(make_user())
    for _ in range(BUDGET):
        assert client.post("/accounts/settings/push/", {"kinds": []}).status_code == 302
    refused = client.post("/accounts/settings/push/", {"kinds": []})
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert "try again in" in refused.content.decode()


def test_the_refusal_is_in_the_reader_s_language(small_budgets, settings):
    user = make_user()
    user.language = "de"
    user.save(update_fields=["language"])
    client = client_for(user)
    for _ in range(BUDGET + 1):
        refused = client.post("/accounts/settings/push/", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Zu viele Änderungen" in page and "sende das Formular noch einmal" in page


def test_budgets_outside_the_api_are_counted_in_one_place():
    """One count (``ratelimit.spend``) for every view that is not DRF's: a
    module reading a scope's rate itself is a fourth copy of the check."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    allowed = {root / "games/ratelimit.py", root / "games/api/throttles.py"}
    copies = [
        f"{path.relative_to(root)}:{node.lineno}"
        for package in ("games", "lobby", "accounts", "frontend", "moderation", "config")
        for path in (root / package).rglob("*.py")
        if path not in allowed
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute | ast.Name)
        and getattr(node, "attr", getattr(node, "id", None)) == "scope_rate"
    ]
    assert copies == []


def refused_after_budget(send) -> object:
    answers = [send() for _ in range(BUDGET + 1)]
    assert all(a.status_code != 429 for a in answers[:-1]), [a.status_code for a in answers]
    return answers[-1]


def assert_one_shape(refused, page: bool) -> None:
    wait = int(refused["Retry-After"])
    assert refused.status_code == 429 and 0 < wait <= 60
    if page:
        assert f"try again in {wait} second" in refused.content.decode()
    else:
        body = refused.json()
        assert body == {"code": "rate_limited", "message": body["message"], "retry_after": wait}
        assert f"try again in {wait} second" in body["message"]


def test_every_refusal_outside_the_api_has_one_shape(small_budgets):
    game = started_game()
    user = make_user()
    page = client_for(user)
    assert_one_shape(refused_after_budget(lambda: Client().get("/tv/featured/")), page=False)
    pictures = refused_after_budget(lambda: Client().get(f"/g/{game.pk}/position.png"))
    assert_one_shape(pictures, page=False)
    vacation = refused_after_budget(lambda: page.post("/accounts/settings/vacation/", {}))
    assert_one_shape(vacation, page=True)
    tournament = refused_after_budget(lambda: page.post("/tournaments/999/", {"action": "join"}))
    assert_one_shape(tournament, page=True)
