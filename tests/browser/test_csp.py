"""The Content-Security-Policy (issue "Hold against strangers", item 14): every
main page comes with the strict policy and works under it in Chromium. No
``securitypolicyviolation`` is reported, no console error, the sockets connect
and the boards are drawn; the API docs too, with their own looser styles."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.rules import get_ruleset

from .helpers import PASSWORD, BrowserLiveTestCase, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Before any page script: note every violation the browser reports.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""
RULESETS = ("halma", "malefiz", "daschax", "hexenhalma", "idiotenspiel")


class ContentSecurityPolicy(BrowserLiveTestCase):
    def visit(self, user, path: str, ready: str) -> None:
        """Open ``path`` as ``user``; wait for ``ready`` (a JS expression) and
        check the policy came with the page and nothing broke it."""
        name = path.strip("/").replace("/", "-") or "lobby"
        page = self.new_page(name, user)
        page.add_init_script(RECORD_VIOLATIONS)
        console: list[str] = []
        page.on("console", lambda m: m.type == "error" and console.append(f"{m.text} {m.location}"))
        answer = page.goto(self.live_server_url + path)
        policy = answer.headers.get("content-security-policy", "")
        for directive in ("script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"):
            self.assertIn(directive, policy, path)
        self.assertNotIn("unsafe", policy.split("script-src")[1].split(";")[0], path)
        page.wait_for_function(ready)
        page.wait_for_load_state("load")
        self.shot(page, name)
        self.assertEqual(page.evaluate("() => window.__csp"), [], path)
        # The admin links no icon: the browser's own /favicon.ico guess is no fault.
        self.assertEqual([c for c in console if "/favicon.ico'" not in c], [], path)
        self.assertEqual(self.page_errors, [], path)

    def test_every_main_page_works_under_the_policy(self):
        User = get_user_model()
        root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
        players = self.users("ann", "bob", "cid", "dan")
        games = {}
        for slug in RULESETS:
            seats = get_ruleset(slug).min_seats
            games[slug] = started_table(slug, players[:seats], seat_count=seats)
        ann = players[0]
        board = (
            "() => window.__game && document.getElementById('conn').dataset.state === 'open'"
            " && document.querySelector('#board *')"
        )
        for slug, game_id in games.items():
            with self.subTest(slug):
                self.visit(ann, f"/g/{game_id}/", board)
        lobby_live = "() => document.getElementById('lobby-live').dataset.state === 'open'"
        body = "() => document.readyState === 'complete'"
        pages = [
            (ann, "/", lobby_live),
            (ann, "/players/bob/", body),
            (ann, "/leaderboard/halma/", body),
            (ann, "/my/games/", body),
            (ann, "/accounts/settings/", body),
            (ann, f"/g/{games['halma']}/replay/", body),
            (root, "/remis/", body),
            (root, "/admin/", body),
            (root, f"/admin/games/game/{games['halma']}/change/", body),
            (None, "/accounts/login/", body),
            (None, "/accounts/signup/", body),
            (None, "/offline/", body),
            (ann, "/api/docs/", "() => document.querySelector('.swagger-ui .opblock')"),
        ]
        for user, path, ready in pages:
            with self.subTest(path):
                self.visit(user, path, ready)
