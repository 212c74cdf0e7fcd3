"""Schemathesis against the REST API's own OpenAPI schema (/api/schema/).

Runs in-process through Django's WSGI handler (no network), authenticated
with a token: once as a normal player, once as staff. Checked for every
generated request, valid and invalid alike: never a 500, every answer's
status, content type and body as the schema describes them (the output
serializers in games/api/serializers.py), and every 4xx the API's JSON error
shape ``{"code": ..., "message": ...}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import Game
from tests.factories import FIRST_MOVE, make_user, started_game

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

EXAMPLES = 10  # per operation and run; the whole file stays well under a minute
APP = get_wsgi_application()


def routable(case: Any) -> bool:
    """Whether the URL resolver can match the path: ids are <int:...>, a
    username is <str:...> (anything but a slash)."""
    return all(
        re.fullmatch(r"[^/]+" if name == "username" else r"[0-9]+", str(value))
        for name, value in (case.path_parameters or {}).items()
    )


def _schema(staff: bool) -> Any:
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP)
    schema.config.generation.update(
        modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
        max_examples=EXAMPLES,
        deterministic=True,
    )
    schema.config.phases.update(phases=["examples", "fuzzing"])
    schema = schema.exclude(path_regex=r"^/api/(schema|docs)/")
    if staff:  # staff differs from a player only where remis requests are decided
        schema = schema.include(path_regex=r"remis")
    return schema


class Players:
    """The data the requests meet: a running game, a finished one, an open table."""

    def __init__(self, staff: bool) -> None:
        self.me = make_user(staff=staff)
        other = make_user()
        self.live = started_game(players=[self.me, other])
        self.done = started_game(players=[other, self.me])
        from lobby import services as lobby

        lobby.table_create(host=other, ruleset="malefiz", options={}, seat_count=3)
        from games.services import endings, play

        play.game_act(game_id=self.live.pk, user=self.me, version=1, action=FIRST_MOVE)
        endings.game_resign(game_id=self.done.pk, user=other)
        self.token = Token.objects.create(user=self.me).key
        self.ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))


@pytest.fixture
def keep_connection(db):
    """Django's WSGI handler closes the DB connection after each request (the
    test client switches that off; so must we, or the test's transaction dies)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


# Loaded at import (schemathesis' lazy from_fixture loader does not run on
# pytest 9); building the schema needs no database.
player_schema = _schema(staff=False)
staff_schema = _schema(staff=True)


def aim_at_real_objects(case: Any, players: Players) -> None:
    """Generated ids are mostly 404s: point most of them at objects that exist."""
    params = case.path_parameters or {}
    pk = params.get("id")
    if isinstance(pk, int) and pk % 4 != 0 and "remis" not in case.path:
        params["id"] = players.ids[pk % len(players.ids)]


def check_response(case: Any, players: Players) -> None:
    aim_at_real_objects(case, players)
    headers = {"Authorization": f"Token {players.token}"}
    response = case.call(headers=headers)
    # Every answer, success or refusal, as /api/schema/ describes it.
    case.validate_response(
        response,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
    status = response.status_code
    assert status < 500, f"{status} for {case.method} {case.formatted_path}"
    if not routable(case):
        # <int:...> does not match: the API's JSON 404 (config.urls.handler404)
        assert status == 404, f"{status} for {case.method} {case.formatted_path}"
        return
    if 400 <= status < 500:
        try:
            body = json.loads(response.content)
        except ValueError:
            raise AssertionError(
                f"{status} without JSON for {case.method} {case.formatted_path}: "
                f"{response.content[:300]!r}"
            ) from None
        assert isinstance(body, dict), body
        assert isinstance(body.get("code"), str) and body["code"], body
        assert isinstance(body.get("message"), str) and body["message"], body


@pytest.fixture
def players(keep_connection) -> Players:
    return Players(staff=False)


@pytest.fixture
def staff(keep_connection) -> Players:
    return Players(staff=True)


SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@player_schema.parametrize()
@SETTINGS
def test_api_as_a_player(case, players):
    check_response(case, players)


@staff_schema.parametrize()
@SETTINGS
def test_api_as_staff(case, staff):
    check_response(case, staff)


def test_unroutable_api_urls_answer_with_json(client):
    for path in ("/api/games/null/", "/api/games/-1/events/", "/api/tables/x/join/"):
        response = client.get(path)
        assert response.status_code == 404
        body = json.loads(response.content)
        assert body["code"] and body["message"]


def _operations(schema: Any) -> list[tuple[str, str]]:
    found = []
    for result in schema.get_all_operations():
        operation = result.ok()
        found.append((operation.method.upper(), operation.path))
    return sorted(found)


@pytest.mark.parametrize("huge", [2**31, 2**53 + 1, 2**63, 10**30])
def test_out_of_range_ids_are_refused_cleanly(keep_connection, huge):
    """Every {id}/{version}/{index} in the schema, far beyond any row: a JSON 4xx."""
    players = Players(staff=True)
    client = Client(HTTP_AUTHORIZATION=f"Token {players.token}", raise_request_exception=False)
    failures = []
    for method, path in _operations(staff_schema) + _operations(player_schema):
        if "{" not in path:
            continue
        url = re.sub(r"\{[a-z_]+\}", str(huge), path)
        if method == "GET":
            response = client.get(url)
        else:
            response = client.post(url, {}, content_type="application/json")
        if response.status_code >= 500:
            failures.append(f"{response.status_code} for {method} {url}")
            continue
        body = response.json()
        if not (body.get("code") and body.get("message")):
            failures.append(f"{method} {url}: {body}")
    assert not failures, "\n".join(failures)
