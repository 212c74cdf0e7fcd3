"""The import form stops following an import the server never decides and
says so (the API answers are the test's: a queue nobody works on)."""

from __future__ import annotations

import json

import pytest

from .helpers import BrowserLiveTestCase

pytestmark = [pytest.mark.browser, pytest.mark.live]


class ImportPage(BrowserLiveTestCase):
    def test_an_import_never_decided_ends_with_a_clear_error(self):
        (user,) = self.users("importer")
        page = self.new_page("importer", user)
        asked = []

        def queue(route):
            asked.append(route.request.method)
            body = {"id": 7, "status": "pending"}
            route.fulfill(status=202, content_type="application/json", body=json.dumps(body))

        page.route("**/api/games/import/**", queue)
        page.goto(f"{self.live_server_url}/my/games/")
        page.evaluate(
            "() => { document.getElementById('import-form').dataset.deadlineSeconds = '1' }"
        )
        page.set_input_files(
            "#import-file",
            files=[{"name": "game.json", "mimeType": "application/json", "buffer": b"{}"}],
        )
        page.click("#import-form button")
        error = page.locator("#import-error")
        error.wait_for(state="visible")
        assert "try the import again later" in error.inner_text()
        assert page.locator("#import-status").is_hidden()
        assert page.locator("#import-form button").is_enabled()
        assert asked[0] == "POST" and 2 <= len(asked) <= 4, asked
        self.shot(page, "import-deadline")
        assert not self.page_errors
