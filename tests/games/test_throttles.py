"""Every write is throttled by default, and socket frames spend the same
per-user budgets as their API twins (issue "Hold against strangers", item 6)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from games.api.common import WriteThrottle
from games.models import Game
from tests.db_threads import sync_to_async
from tests.factories import client_for, make_user, started_game
from tests.games.test_consumers import connect, receive

WRITES = ("post", "put", "patch", "delete")


def api_views(patterns=None, prefix=""):
    """(route, view class) of every DRF view the site serves."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from api_views(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            cls = getattr(entry.callback, "cls", None)
            if cls is not None and issubclass(cls, APIView):
                yield prefix + str(entry.pattern), cls


def test_every_api_write_view_is_throttled():
    """A new view cannot forget: each write handler has a throttle that counts
    writes, with a configured rate."""
    rates = django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    writers = [(route, cls) for route, cls in api_views() if any(hasattr(cls, m) for m in WRITES)]
    assert len(writers) > 20, writers  # the walk found the API
    unthrottled = []
    for route, cls in writers:
        view = cls()
        scopes = [
            getattr(view, "throttle_scope", None) or WriteThrottle.default_scope
            for throttle in view.get_throttles()
            if isinstance(throttle, WriteThrottle)
        ]
        if not scopes or not all(rates.get(scope) for scope in scopes):
            unthrottled.append(route)
    assert unthrottled == []


def test_the_default_never_lowers_the_existing_budgets():
    rates = django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates["tables"] == "30/min" and rates["acts"] == "300/min"
    assert rates["chat"] == "60/min" and rates["push"] == "30/min"


@pytest.fixture
def writes_3_a_minute(settings):
    rates = {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
        "writes": "3/min",
        "acts": "3/min",
    }
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.mark.django_db
def test_seat_commands_and_table_joins_are_throttled_over_the_api(writes_3_a_minute):
    game = started_game()
    black = client_for(game.seats.get(index=1).user)
    codes = [black.post(f"/api/games/{game.pk}/draw/decline/").status_code for _ in range(4)]
    assert codes == [400, 400, 400, 429]  # nothing to decline, then over the budget
    refused = black.post(f"/api/games/{game.pk}/draw/offer/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert Game.objects.get(pk=game.pk).draw_offers == []  # nothing changed
    other = client_for(make_user())
    assert other.post(f"/api/games/{game.pk}/draw/offer/").status_code == 403  # own budget


@pytest.mark.django_db(transaction=True)
async def test_socket_commands_spend_the_same_budget_as_the_api(writes_3_a_minute):
    def build():
        game = started_game()
        return game, game.seats.get(index=1).user

    game, black = await sync_to_async(build)()
    api = client_for(black)
    for _ in range(2):
        answer = await sync_to_async(api.post)(f"/api/games/{game.pk}/draw/decline/")
        assert answer.status_code == 400
    sock = await connect(f"/ws/game/{game.pk}/", black)
    await receive(sock, "hello")
    await sock.send_json_to({"type": "decline_draw", "ref": 1})
    assert (await receive(sock, "error"))["code"] == "no_offer"  # the third: within budget
    await sock.send_json_to({"type": "offer_draw", "ref": 2})
    refused = await receive(sock, "error")
    assert refused["code"] == "rate_limited" and refused["ref"] == 2
    assert 0 < refused["retry_after"] <= 60
    await sock.send_json_to({"type": "act", "version": 0, "action": {}, "ref": 3})
    assert (await receive(sock, "error"))["code"] != "rate_limited"  # moves: their own budget
    assert (await sync_to_async(Game.objects.get)(pk=game.pk)).draw_offers == []
    await sock.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_socket_moves_and_api_moves_share_one_budget(writes_3_a_minute):
    def build():
        game = started_game()
        return game, game.seats.get(index=0).user

    game, white = await sync_to_async(build)()
    api = client_for(white)
    stale = {"version": 0, "action": {"type": "move", "path": [[5, 9], [4, 9]]}}
    for _ in range(3):
        answer = await sync_to_async(api.post)(f"/api/games/{game.pk}/act/", stale, format="json")
        assert answer.status_code == 409 or answer.json()["code"] == "stale_version"
    sock = await connect(f"/ws/game/{game.pk}/", white)
    await receive(sock, "hello")
    await sock.send_json_to({"type": "act", **stale, "ref": "m"})
    refused = await receive(sock, "error")
    assert refused["code"] == "rate_limited" and refused["ref"] == "m"
    await sock.disconnect()
