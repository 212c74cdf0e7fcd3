"""The embed page framed by another site (issue 36): a second HTTP server on
another port serves a page with the <iframe>; Chromium draws the board in it,
follows the game's moves, and still refuses to frame the game page itself."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.factories import FIRST_MOVE

from .helpers import BrowserLiveTestCase, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]


def serve(html: str) -> ThreadingHTTPServer:
    """Another origin (127.0.0.1 on a port of its own) serving one page."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class EmbedFramed(BrowserLiveTestCase):
    bypass_csp = False

    def test_another_site_frames_the_live_board_but_not_the_game_page(self):
        ann, bob = self.users("ann", "bob")
        game_id = started_table("halma", [ann, bob], seat_count=2)
        site = self.live_server_url
        html = (
            "<!doctype html><title>club news</title><h1>Our club's game</h1>"
            f'<iframe id="embed" src="{site}/embed/{game_id}/" width="420" height="480"></iframe>'
            f'<iframe id="page" src="{site}/g/{game_id}/" width="420" height="200"></iframe>'
        )
        other = serve(html)
        self.addCleanup(other.shutdown)
        page = self.new_page("club")
        page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        embed = page.frame_locator("#embed")
        board = embed.locator("[data-testid=embed-board]")
        board.wait_for()
        frame = page.query_selector("#embed").content_frame()
        frame.wait_for_function(
            "() => window.__embed && document.getElementById('embed-board').naturalWidth > 0"
        )
        self.assertIn("v=1", board.get_attribute("src"))
        self.shot(page, "embed-framed")

        white = self.new_page("embed-ann", ann)  # on the site: the server pushes the move
        white.goto(f"{site}/g/{game_id}/")
        self.wait_connected(white)
        self.move(white, FIRST_MOVE["path"])
        frame.wait_for_function(
            "() => { const b = document.getElementById('embed-board');"
            " return b.src.endsWith('v=2') && b.complete && b.naturalWidth > 0; }"
        )
        self.shot(page, "embed-framed-after-move")

        # The game page itself refuses to be framed: Chromium shows its error page.
        refused = page.query_selector("#page").content_frame()
        self.assertFalse(refused.url.startswith(site), refused.url)
        self.assertEqual(self.page_errors, [])

    def test_the_embed_box_copies_the_iframe_code_by_keyboard_at_phone_width(self):
        ann, bob = self.users("ann", "bob")
        game_id = started_table("halma", [ann, bob], seat_count=2)
        page = self.new_page("embed-box", ann)
        page.context.grant_permissions(
            ["clipboard-read", "clipboard-write"], origin=self.live_server_url
        )
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{self.live_server_url}/g/{game_id}/")
        summary = page.locator("#share summary")
        summary.focus()
        page.keyboard.press("Enter")
        code = page.locator("[data-testid=embed-code]")
        code.wait_for()
        page.locator("[data-testid=copy-embed]").focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.getElementById('copy-embed-note').textContent !== ''"
        )
        copied = page.evaluate("() => navigator.clipboard.readText()")
        self.assertEqual(copied, code.input_value())
        self.assertIn(f"/embed/{game_id}/", copied)
        self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), 360)
        page.locator("#share").scroll_into_view_if_needed()
        self.shot(page, "embed-box-phone")
        self.assertEqual(self.page_errors, [])
