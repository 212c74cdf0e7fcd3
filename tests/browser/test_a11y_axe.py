"""axe-core on every page type: 0 violations of any impact (issue 17, item 9; the
moderate and minor ones too since the game page's heading order, the replay's h1
and the lists' unnamed action column were fixed).

axe-core is a dev-only npm dependency (package.json); the script is injected
from node_modules into each page, run against the whole document, and its
violations are written to artifacts/screenshots/axe-results.json. Every page is
also shot at 1280 and 360 px wide.

Run: .venv/bin/pytest tests/browser/test_a11y_axe.py -q
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from lobby.services import table_create, table_join, table_start
from moderation import roles
from moderation.services import report_file

from .axe import AxeMixin, require_axe
from .helpers import SHOTS, BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

GAMES = {
    "halma": {},
    "malefiz": {"seat_count": 2},
    "daschax": {},
    "idiotenspiel": {},
    "hexenhalma": {"seat_count": 3},
}


class AxeTests(AxeMixin, BrowserLiveTestCase):
    def test_every_page_type_has_no_violation_of_any_impact(self):
        require_axe()
        User = get_user_model()
        users = [
            User.objects.create_user(username=f"p{i}", password="s3cret-pass-123") for i in range(3)
        ]
        staff = User.objects.create_user(
            username="staff", password="s3cret-pass-123", is_staff=True
        )
        roles.grant(staff, roles.ARBITERS)  # the remis queue
        roles.grant(staff, roles.MODERATORS)  # the reports queue and a case
        report = off_loop(
            report_file, reporter=users[1], username=users[0].username, reason="other"
        )

        def make(ruleset, extra):
            game = table_create(host=users[0], ruleset=ruleset, **extra)
            for user in users[1 : extra.get("seat_count", 2)]:
                table_join(game_id=game.pk, user=user)
            table_start(game_id=game.pk, user=users[0])
            return game.pk

        ids = {name: off_loop(make, name, extra) for name, extra in GAMES.items()}
        results: dict[str, list[dict]] = {}
        anon = self.new_page("anon")
        for name, path in [("login", "/accounts/login/"), ("signup", "/accounts/signup/")]:
            anon.goto(self.live_server_url + path)
            results[name] = self.axe(anon, name)
        page = self.new_page("p0", user=users[0])
        page.goto(self.live_server_url + "/")
        page.wait_for_selector("#game-list, .list, main")
        results["lobby"] = self.axe(page, "lobby")
        for name, game_id in ids.items():
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            results[f"game-{name}"] = self.axe(page, f"game-{name}")
        page.goto(self.live_server_url + "/my/games/")
        results["my-games"] = self.axe(page, "my-games")
        page.goto(f"{self.live_server_url}/g/{ids['halma']}/replay/")
        page.wait_for_selector("#board svg")
        results["replay"] = self.axe(page, "replay")
        admin = self.new_page("staff", user=staff)
        admin.goto(self.live_server_url + "/remis/")
        results["remis-queue"] = self.axe(admin, "remis-queue")
        admin.goto(self.live_server_url + "/moderation/")
        admin.wait_for_selector("#reports li")
        results["moderation-queue"] = self.axe(admin, "moderation-queue")
        admin.goto(f"{self.live_server_url}/moderation/reports/{report.pk}/")
        results["moderation-case"] = self.axe(admin, "moderation-case")

        (SHOTS / "axe-results.json").write_text(json.dumps(results, indent=1))
        bad = {
            page_type: [
                v for v in found if v["impact"] in ("minor", "moderate", "serious", "critical")
            ]
            for page_type, found in results.items()
        }
        bad = {k: v for k, v in bad.items() if v}
        self.assertEqual(bad, {}, json.dumps(bad, indent=1))
        self.assertEqual(self.page_errors, [])
