"""/api/schema/ describes the real answers: every success of every operation
is a serializer's component with its fields, every refusal the error shape
(schemathesis then checks the answers against it: tests/security/test_fuzz_api.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict[str, Any]:
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def _component(schema: dict[str, Any], body: dict[str, Any]) -> dict[str, Any] | None:
    """The component a response body names (an array's items for a list), or None."""
    if body.get("type") == "array":
        body = body.get("items", {})
    ref = body.get("$ref")
    if not ref:
        return None
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


def test_every_success_is_described_by_a_component_with_fields(schema):
    vague = []
    for method, path, operation in _operations(schema):
        successes = {c: r for c, r in operation["responses"].items() if c.startswith("2")}
        if not successes:
            vague.append(f"{method} {path}: no success described")
        for code, response in successes.items():
            body = response.get("content", {}).get("application/json", {}).get("schema", {})
            component = _component(schema, body)
            if not component or not component.get("properties"):
                vague.append(f"{method} {path} {code}: {body}")
    assert not vague, "answers the schema does not describe:\n" + "\n".join(vague)


def test_every_api_operation_describes_its_refusals(schema):
    missing = []
    for method, path, operation in _operations(schema):
        if path == "/api/schema/":
            continue  # drf-spectacular's own view
        for code in ("400", "403", "404", "429"):
            body = (
                operation["responses"]
                .get(code, {})
                .get("content", {})
                .get("application/json", {})
                .get("schema", {})
            )
            component = _component(schema, body) or {}
            if set(component.get("required", [])) != {"code", "message"}:
                missing.append(f"{method} {path} {code}")
    assert not missing, "refusals not described as the error shape:\n" + "\n".join(missing)


def test_the_game_state_is_described_field_by_field(schema):
    components = schema["components"]["schemas"]
    state = components["StateOut"]["properties"]
    for name in ("version", "status", "to_act", "result", "view", "legal", "clock"):
        assert name in state, name
    assert state["version"]["type"] == "integer"
    assert state["to_act"] == {"type": "array", "items": {"type": "integer"}}
    game = components["GameOut"]["properties"]
    assert game["state"] == {"$ref": "#/components/schemas/StateOut"}


def test_players_and_leaderboard_are_described_with_the_fixed_shapes(schema):
    components = schema["components"]["schemas"]
    player = schema["paths"]["/api/players/{username}/"]["get"]["responses"]["200"]
    assert player["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PlayerOut"
    }
    assert set(components["PlayerOut"]["properties"]) == {
        "username",
        "bot",
        "guest",  # issue 29: a guest's profile says so (an extension)
        "ratings",
        "recent_games",
        "clubs",  # issue 52: the clubs they are in (an extension)
    }
    assert set(components["PlayerRatingOut"]["properties"]) == {
        "ruleset",
        "speed",
        "rating",
        "games",
        "provisional",
    }
    board = schema["paths"]["/api/leaderboard/{ruleset}/"]["get"]
    assert [p["name"] for p in board["parameters"] if p["in"] == "query"] == ["speed"]
    assert set(components["LeaderboardRowOut"]["properties"]) == {
        "rank",
        "username",
        "rating",
        "games",
        "provisional",
    }
    create = schema["paths"]["/api/tables/"]["post"]["requestBody"]["content"]
    body = _component(schema, create["application/json"]["schema"])
    assert body["properties"]["rated"]["type"] == "boolean"
