"""Hashed static files and the import map that lets the modules find each other.

The session's static files are collected for real (tests/conftest.py), so these
pages use the manifest exactly as a deployment does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from frontend.templatetags.importmap import module_names
from tests.factories import started_game

pytestmark = pytest.mark.django_db

HASHED = r"\.[0-9a-f]{12}\.js"
MODULE_JS = Path(settings.BASE_DIR) / "frontend" / "static" / "frontend" / "js"
# Relative specifiers in import statements and in dynamic import() calls.
IMPORT_RE = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*)["'`](\.{1,2}/[^"'`]+)["'`]""")


def import_map(html: str) -> dict[str, str]:
    maps = re.findall(r'<script type="importmap" nonce="[^"]+">(.*?)</script>', html, re.S)
    assert len(maps) == 1, "one import map per page"
    return json.loads(maps[0])["imports"]


def served(client: Client, url: str) -> tuple[int, bytes, str]:
    response = client.get(url)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, body, response.get("Cache-Control", "")


def test_a_board_module_is_served_under_a_hashed_url_that_the_import_map_names():
    client = Client()
    game = started_game()  # Halma
    html = client.get(f"/g/{game.pk}/").content.decode()
    imports = import_map(html)

    board = imports["/static/frontend/js/boards/halma.js"]
    assert re.fullmatch(rf"/static/frontend/js/boards/halma{HASHED}", board)
    status, body, cache = served(client, board)
    assert status == 200
    assert body == Path(finders.find("frontend/js/boards/halma.js")).read_bytes()
    assert "immutable" in cache  # hashed names may be kept for good

    # The page's own module is hashed too, and comes after the map.
    entry = re.search(r'<script type="module" src="(/static/frontend/js/game\.[^"]+)"', html)
    assert entry and re.fullmatch(rf"/static/frontend/js/game{HASHED}", entry.group(1))
    assert html.index('type="importmap"') < entry.start()
    assert served(client, entry.group(1))[0] == 200


def test_every_module_another_one_imports_is_in_the_map():
    imports = import_map(Client().get("/").content.decode())
    names = module_names()
    assert {"frontend/js/dom.js", "frontend/js/boards/malefiz.js"} <= set(names)
    assert len(imports) == len(names)
    for name in names:
        here = urljoin(settings.STATIC_URL, name)
        source = (MODULE_JS / name.removeprefix("frontend/js/")).read_text()
        for spec in IMPORT_RE.findall(source):
            if "${" in spec:  # import(`./boards/${ruleset}.js`): every board module
                pattern = re.escape(urljoin(here, spec)).replace(r"\$\{ruleset\}", "[a-z-]+")
                targets = [url for url in imports if re.fullmatch(pattern, url)]
                assert len(targets) >= 5, (name, spec)
            else:
                targets = [urljoin(here, spec)]
            for url in targets:
                assert url in imports, f"{name} imports {spec}: {url} is not in the import map"
                assert re.search(HASHED + "$", imports[url])
