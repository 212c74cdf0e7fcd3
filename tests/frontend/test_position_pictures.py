"""Position pictures: /g/<id>/position.svg and .png, now and after a past version."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from PIL import Image

from games.services.play import game_act
from lobby import services as lobby
from tests.factories import FIRST_MOVE, make_user, started_game

pytestmark = pytest.mark.django_db

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
WHITE, BLACK = (0xF7, 0xF3, 0xEA), (0x2B, 0x2A, 0x28)  # Halma's piece colours on the page


def pixel(png: bytes, field: list[int]) -> tuple[int, ...]:
    """The colour at a Halma field's centre (the 400-unit board drawn 800 px wide)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    r, c = field
    return image.getpixel((c * 80 + 40, r * 80 + 40))


def close(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(abs(x - y) <= 6 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("kind", ["svg", "png"])
def test_other_digits_than_ascii_are_a_400_not_a_500(kind):
    """str.isdigit() takes '²' and '①', which int() refuses (it was a 500)."""
    game = started_game()
    for digit in ["²", "①", "1²"]:
        response = Client().get(f"/g/{game.pk}/position.{kind}", {"v": digit})
        assert response.status_code == 400, digit
        assert response.json()["code"] == "bad_request" and response.json()["message"]


def test_svg_parses_and_png_shows_the_pieces():
    game = started_game()
    svg = Client().get(f"/g/{game.pk}/position.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    root = ET.fromstring(svg.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 30
    png = Client().get(f"/g/{game.pk}/position.png")
    assert png.status_code == 200 and png["Content-Type"] == "image/png"
    assert png.content.startswith(PNG_MAGIC)
    assert Image.open(io.BytesIO(png.content)).size == (800, 800)
    assert close(pixel(png.content, [9, 9]), WHITE)
    assert close(pixel(png.content, [0, 0]), BLACK)
    assert not close(pixel(png.content, [4, 9]), WHITE)  # an empty field


def test_a_past_version_shows_the_position_then():
    game = started_game()
    game_act(game_id=game.pk, user=game.seats.get(index=0).user, version=1, action=FIRST_MOVE)
    now = Client().get(f"/g/{game.pk}/position.png")
    assert now["X-Picture-Version"] == "2"
    assert close(pixel(now.content, [4, 9]), WHITE) and not close(pixel(now.content, [5, 9]), WHITE)
    then = Client().get(f"/g/{game.pk}/position.png?v=1")
    assert then.status_code == 200 and then["X-Picture-Version"] == "1"
    assert close(pixel(then.content, [5, 9]), WHITE) and not close(
        pixel(then.content, [4, 9]), WHITE
    )
    assert then["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "immutable" not in now["Cache-Control"]  # no v: the next move changes it


@pytest.mark.parametrize(
    "query",
    ["?v=3", "?v=-1", "?v=x", "?v=99999999999", "?v=²", "?v=①", "?v=\u0661", "?v=\uff11", "?v="],
)
def test_a_version_not_reached_is_a_clear_400(query):
    game = started_game()
    response = Client().get(f"/g/{game.pk}/position.svg{query}")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


def test_unknown_games_and_open_tables_are_404():
    assert Client().get("/g/987654/position.png").status_code == 404
    table = lobby.table_create(host=make_user(), ruleset="halma", options={}, seat_count=2)
    response = Client().get(f"/g/{table.pk}/position.svg")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_no_secret_is_drawn():
    """Malefiz: the dice's seed never reaches the picture; a seated player's
    picture is the spectators' one."""
    players = [make_user(), make_user()]
    game = started_game("malefiz", players=players)
    anonymous = Client().get(f"/g/{game.pk}/position.svg").content
    assert str(game.seed).encode() not in anonymous
    seated = Client()
    seated.force_login(players[0])
    assert seated.get(f"/g/{game.pk}/position.svg").content == anonymous


@pytest.mark.parametrize("slug", ["malefiz", "daschax", "hexenhalma", "idiotenspiel"])
def test_every_game_draws(slug):
    seats = {"hexenhalma": 3}.get(slug, 2)
    game = started_game(slug, players=[make_user() for _ in range(seats)])
    response = Client().get(f"/g/{game.pk}/position.png")
    assert response.status_code == 200 and response.content.startswith(PNG_MAGIC)


def test_drawings_are_throttled_per_address(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "picture_renders": "2/min",
        },
    }
    first, second, third = started_game(), started_game(), started_game()
    client = Client()
    assert client.get(f"/g/{first.pk}/position.svg").status_code == 200  # cheap: not counted
    assert client.get(f"/g/{first.pk}/position.png").status_code == 200
    assert client.get(f"/g/{first.pk}/position.png").status_code == 200  # cached: no drawing
    assert client.get(f"/g/{second.pk}/position.png").status_code == 200
    refused = client.get(f"/g/{third.pk}/position.png")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["code"] == "rate_limited"
    assert Client(REMOTE_ADDR="10.1.2.3").get(f"/g/{third.pk}/position.png").status_code == 200


def test_game_pages_carry_open_graph_tags():
    game = started_game()
    page = Client().get(f"/g/{game.pk}/").content.decode()
    image = f'<meta property="og:image" content="http://testserver/g/{game.pk}/position.png?v=1">'
    assert image in page and 'property="og:title"' in page and 'property="og:description"' in page
    table = lobby.table_create(host=make_user(), ruleset="halma", options={}, seat_count=2)
    assert "og:image" not in Client().get(f"/g/{table.pk}/").content.decode()
