"""The installable web app's server side: the manifest every page links, the
service worker at /sw.js (root scope, never cached, naming the shell's hashed
URLs) and the offline page. The browser's side: tests/browser/test_push_pwa.py."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from frontend import pwa
from tests.factories import make_user, started_game
from tests.frontend.test_static import served

pytestmark = pytest.mark.django_db


def test_every_page_links_the_manifest_and_registers_the_worker():
    user = make_user()
    game = started_game(players=[user, make_user()])
    client = Client()
    client.force_login(user)
    for url in ("/", f"/g/{game.pk}/", "/accounts/settings/", "/my/games/"):
        html = client.get(url).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, url
        [register] = re.findall(r'src="(/static/frontend/js/sw-register\.[0-9a-f]{12}\.js)"', html)
        status, body, _ = served(client, register)
        assert status == 200 and b'register("/sw.js", { scope: "/" })' in body
    assert '<link rel="manifest"' in Client().get("/accounts/login/").content.decode()


def test_the_manifest_makes_the_site_installable():
    client = Client()
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["name"] and data["short_name"] and data["lang"] == "de"
    sizes = {i["sizes"] for i in data["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert re.search(r"\.[0-9a-f]{12}\.(png|svg)$", icon["src"]), (
            icon
        )  # hashed: cached for good
        status, body, _ = served(client, icon["src"])
        assert status == 200
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            assert int.from_bytes(body[16:20], "big") == int.from_bytes(body[20:24], "big") == side


def test_the_service_worker_is_served_at_the_root_uncached_with_the_hashed_shell():
    client = Client()
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    body = response.content.decode()
    config = json.loads(re.search(r"self\.SW_CONFIG = (\{.*\});", body).group(1))
    assert config["offline"] == "/offline/" and "/offline/" in config["shell"]
    assets = [u for u in config["shell"] if u.startswith("/static/")]
    assert any("/frontend/css/site." in u for u in assets)
    assert any("/frontend/js/game." in u for u in assets)
    for url in assets:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
        assert served(client, url)[0] == 200
    [worker] = re.findall(
        r'importScripts\("(/static/frontend/sw/worker\.[0-9a-f]{12}\.js)"\)', body
    )
    status, code, _ = served(client, worker)
    assert status == 200 and b'addEventListener("push"' in code
    # The cache's name follows the files: the same bytes while nothing changes.
    assert client.get("/sw.js").content.decode() == body
    assert client.post("/sw.js").status_code == 405


def test_the_offline_page_is_the_same_for_everyone():
    user = make_user("ann-offline")
    client = Client()
    client.force_login(user)
    html = client.get("/offline/").content.decode()
    assert 'data-testid="offline"' in html
    assert "ann-offline" not in html and "csrfmiddlewaretoken" not in html


def test_the_shell_lists_every_module():
    pwa.shell_urls.cache_clear()
    assert len(pwa.shell_urls()) > len(pwa.SHELL_FILES)
