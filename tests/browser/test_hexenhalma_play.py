"""Hexenhalma end to end in Chromium: a game master, two teams and a spectator.

The GM loads the rule book's rectangle, changes it with a few clicks (a field
off, its twin follows; a start on, its goal appears; a start off) and sets the
round's limits, then opens the round. Team 1 draws both witches' orders
(walks, a Beelzebub flight, K, B with its ban target, I) and submits; team 2
first submits too short orders (the server refuses and the page repeats its
exact message, which the editor had already shown), then completes and submits.
Before the round resolves, neither the spectator's nor the other team's nor
the GM's page holds any order content. Both teams lock; the live server's
sweeper resolves the round; every page switches to the results and the
replay, which the spectator steps through (a burst, a ban, goals).

Run: .venv/bin/pytest tests/browser/test_hexenhalma_play.py -x -q
Screenshots: artifacts/screenshots/hexenhalma-*.png
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, MatchRecord
from games.rules.hexenhalma import HexenhalmaRuleset

from .helpers import SHOTS, BrowserLiveTestCase, settle, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 850}
PARAMS = {"witches": 2, "min": 3, "max": 12, "tiredness": 4, "K": 1, "M": 1, "B": 1, "I": 1, "Z": 1}

# Clicks on the board, as side A: ("start", rc), ("walk", rc), ("fly", rc),
# ("spell", letter) for the last step, ("ban", rc) for its ban target.
TEAM1 = [
    [("start", (11, 2)), ("walk", (10, 2)), ("fly", (3, 2)), ("spell", "K"),
     ("walk", (2, 2)), ("walk", (1, 2)), ("walk", (0, 2))],
    [("start", (11, 5)), ("walk", (10, 5)), ("spell", "B"), ("ban", (6, 6)), ("fly", (4, 5)),
     ("walk", (3, 5)), ("spell", "I"), ("walk", (2, 5)), ("walk", (1, 5)), ("walk", (0, 5))],
]  # fmt: skip
TEAM2_SHORT = [
    [("start", (11, 7)), ("walk", (10, 7)), ("spell", "M")],
    [("start", (11, 4)), ("walk", (10, 4))],
]
TEAM2_REST = [
    [("walk", (9, 7)), ("walk", (8, 7)), ("fly", (3, 7)), ("walk", (2, 7)), ("walk", (1, 7)),
     ("walk", (0, 7))],
    [("fly", (3, 4)), ("walk", (2, 4)), ("walk", (1, 4)), ("walk", (0, 4))],
]  # fmt: skip


def cell(rc) -> str:
    return f'#board [data-testid=hh-round] rect.hh-cell[data-field="{rc[0]},{rc[1]}"]'


class HexenhalmaPlayTests(BrowserLiveTestCase):
    def snap(self, page, name: str, phone: bool = False) -> None:
        if phone:
            page.set_viewport_size(PHONE)
        settle(page)  # dice stopped rolling, witches done gliding
        page.screenshot(path=str(SHOTS / f"hexenhalma-{name}.png"), full_page=True)
        if phone:
            page.set_viewport_size(DESKTOP)

    def draw(self, page, witches) -> None:
        for n, clicks in enumerate(witches, start=1):
            page.click(f"[data-testid=hh-witch-{n}]")
            for kind, arg in clicks:
                if kind == "fly":
                    page.click("[data-testid=hh-mode-fly]")
                if kind == "spell":
                    page.click(f"[data-testid=hh-spell-{arg}]")
                    page.wait_for_selector(f'[data-testid=hh-spell-{arg}][aria-pressed="true"]')
                    continue
                steps = page.locator("[data-testid=hh-steps] .hh-chip-btn").count()
                page.click(cell(arg))
                if kind in ("walk", "fly"):
                    page.wait_for_function(
                        "n => document.querySelectorAll('[data-testid=hh-steps] .hh-chip-btn').length === n",
                        arg=steps + 1,
                    )

    def model_json(self, page) -> str:
        return page.evaluate("() => JSON.stringify(window.__game.model)")

    def campaign(self, *names):
        """A running Hexenhalma table: the first user is the GM, the others teams."""
        User = get_user_model()
        users = [User.objects.create_user(username=n, password="pw-12345678") for n in names]
        game_id = started_table("hexenhalma", users, seat_count=len(users))
        return f"{self.live_server_url}/g/{game_id}/", game_id, users

    def test_gm_builds_a_board_teams_order_and_everybody_watches_the_replay(self):
        url, game_id, (gm, one, two) = self.campaign("gm", "hexe1", "hexe2")
        pages = {
            "gm": self.new_page("gm", gm),
            "t1": self.new_page("t1", one),
            "t2": self.new_page("t2", two),
            "spectator": self.new_page("spectator"),
        }
        for page in pages.values():
            page.goto(url)
            self.wait_connected(page)
        g, p1, p2, spec = pages["gm"], pages["t1"], pages["t2"], pages["spectator"]

        # -- the GM builds the board: a preset plus a few clicks ------------------
        g.wait_for_selector("[data-testid=hh-open-round]")
        self.assertEqual(
            g.inner_text("[data-testid=hh-title]"), "Round 1 · waiting for the first round"
        )
        g.select_option("[data-testid=hh-preset]", "rectangle")
        g.click("[data-testid=hh-load-preset]")
        self.assertEqual(g.locator("#board rect.hh-cell.start").count(), 8)
        g.click(cell((0, 0)))  # off; its 180° twin goes too
        g.wait_for_selector(f"{cell((11, 9))}.void")
        self.assertIn("void", g.get_attribute(cell((0, 0)), "class"))
        g.click("[data-testid=hh-tool-starts]")
        g.click(cell((11, 0)))  # a start; its goal appears opposite
        g.wait_for_selector(f"{cell((0, 9))}.goal")
        g.click(cell((11, 8)))  # and one start off again: its goal goes
        g.wait_for_selector(f"{cell((0, 1))}.plain")
        self.assertEqual(g.locator("#board rect.hh-cell.start").count(), 8)
        self.assertEqual(g.locator("#board rect.hh-cell.goal").count(), 8)
        for name, testid in [("witches", "witches"), ("min", "min"), ("max", "max"), ("tiredness", "tiredness")]:  # fmt: skip
            g.fill(f"[data-testid=hh-p-{testid}]", str(PARAMS[name]))
        for s in "KMBIZ":
            g.fill(f"[data-testid=hh-p-{s}]", str(PARAMS[s]))
        g.fill("[data-testid=hh-p-min]", "0")
        g.wait_for_selector("[data-testid=hh-setup-problems] li")
        self.assertTrue(g.is_disabled("[data-testid=hh-open-round]"))
        g.fill("[data-testid=hh-p-min]", str(PARAMS["min"]))
        g.wait_for_function("() => !document.querySelector('[data-testid=hh-open-round]').disabled")
        self.assertIn("8 start fields per side", g.inner_text("[data-testid=hh-board-counts]"))
        self.snap(g, "gm-editor")
        self.snap(g, "gm-editor-phone", phone=True)
        g.click("[data-testid=hh-open-round]")
        for page in pages.values():
            self.wait_version(page, 2)

        # -- team 1 draws and submits -----------------------------------------------
        p1.wait_for_selector("[data-testid=hh-witch-2]")
        self.draw(p1, TEAM1)
        for n in (1, 2):
            self.assertIn(
                "Ready: she ends in the goal.", p1.inner_text(f"[data-testid=hh-witch-{n}]")
            )
        self.assertEqual(p1.locator("#board .hh-path .hh-flight").count(), 2)
        self.assertEqual(p1.locator("#board .hh-ban line").count(), 1)
        self.assertEqual(p1.locator("#board .hh-spell").count(), 3)
        p1.click("[data-testid=hh-step-2]")  # select the flight step again: its K shows
        p1.wait_for_selector('[data-testid=hh-spell-I][aria-pressed="false"]')
        self.snap(p1, "team-orders")
        self.snap(p1, "team-orders-phone", phone=True)
        p1.click("[data-testid=hh-submit]")
        p1.wait_for_selector("[data-testid=hh-server-msg][data-kind=ok]")
        self.wait_version(p1, 3)

        # -- team 2: too short first (the server refuses, the page says why) -------
        p2.wait_for_selector("[data-testid=hh-witch-2]")
        self.draw(p2, TEAM2_SHORT)
        local = p2.inner_text("[data-testid=hh-witch-1] .hh-witch-msg")
        self.assertEqual(local, "Witch 1 has 1 steps: this round needs at least 3.")
        p2.click("[data-testid=hh-submit]")
        p2.wait_for_selector("[data-testid=hh-server-msg][data-kind=error]")
        self.assertEqual(
            p2.inner_text("[data-testid=hh-server-msg]"), f"The server refused: {local}"
        )
        self.snap(p2, "team-refused")
        self.draw(p2, TEAM2_REST)
        p2.click("[data-testid=hh-submit]")
        p2.wait_for_selector("[data-testid=hh-server-msg][data-kind=ok]")
        for page in pages.values():
            self.wait_version(page, 4)

        # -- secrecy before resolution ------------------------------------------------
        g.wait_for_selector('[data-testid=hh-teams] tr[data-seat="2"] td.yes')
        self.assertEqual(
            g.inner_text('[data-testid=hh-teams] tr[data-seat="1"]').split("\t")[1:],
            ["submitted", "not yet"],
        )
        for name in ("gm", "spectator", "t2"):
            page = pages[name]
            model, html = self.model_json(page), page.content()
            self.assertNotIn("ban_to", model, name)
            self.assertNotIn("[6, 6]", html, name)
            if name != "t2":
                for word in ("my_orders", '"fly"', '"walk"', '"steps"'):
                    self.assertNotIn(word, model, f"{name}: {word}")
                self.assertEqual(page.locator("#board .hh-path").count(), 0, name)
        self.assertNotIn("[3, 2]", p2.content())  # team 1's flight target
        self.snap(g, "gm-round-status")
        self.snap(spec, "spectator-round-status")

        # -- both lock; the live server's sweeper resolves the round ---------------
        p1.once("dialog", lambda d: d.accept())
        p1.click("[data-testid=hh-lock]")
        self.wait_version(p1, 5)
        p1.wait_for_selector("[data-testid=hh-status]")
        self.assertEqual(p1.locator("#board .hh-path").count(), 2)  # her own, read-only
        self.wait_version(p2, 5)
        p2.once("dialog", lambda d: d.accept())
        p2.click("[data-testid=hh-lock]")
        for page in pages.values():
            self.wait_version(page, 7)  # 6: team 2 locked; 7: the round resolved

        game = Game.objects.get(pk=game_id)
        state = HexenhalmaRuleset().decode(game.state)
        self.assertEqual(state.phase, "waiting")
        record = MatchRecord.objects.get(game_id=game_id, version=7, index=0)
        self.assertEqual(record.data["teams"], [1, 2])
        self.assertEqual(record.data["score"], [2, 0])
        fates = [[f["fate"] for f in side] for side in record.data["fates"]]
        self.assertEqual(fates, [["goal", "goal"], ["burst", "starved"]])
        last = len(record.data["trace"]) - 1

        for name, page in pages.items():
            page.wait_for_selector('[data-testid=hh-tab-results][aria-selected="true"]')
            page.wait_for_selector("[data-testid=hh-step-label]")
            rows = page.locator("[data-testid=hh-standings] tr[data-seat]")
            self.assertEqual(rows.first.get_attribute("data-seat"), "1", name)
            self.assertIn("hexe1", rows.first.inner_text(), name)
        self.assertIn("Round 1 resolved", spec.inner_text("#moves"))

        # Every page plays the replay live to its end (team 2's and the spectator's).
        for page in (p2, spec):
            page.wait_for_function(
                "n => document.querySelector('[data-testid=hh-step-label]').textContent === `Step ${n} of ${n}`",
                arg=last,
                timeout=20_000,
            )
            page.wait_for_selector('[data-testid=hh-play][data-icon="play"]')
        self.assertIn("burst", p2.inner_text("[data-testid=hh-fates]"))

        # The spectator steps through it: back to the start, step by step.
        spec.click("[data-testid=hh-first]")
        spec.wait_for_selector("text=Step 0 of")
        self.assertEqual(spec.locator("#board .hh-rwitch").count(), 4)
        for _ in range(3):
            spec.click("[data-testid=hh-next]")
        spec.wait_for_selector(f"text=Step 3 of {last}")
        log = spec.inner_text("[data-testid=hh-log]")
        self.assertIn("B1 is hit by Kugelblitz at [3, 2] (cast by A1).", log)
        self.assertIn("B1 bursts.", log)
        self.assertIn(
            "burst (step 3)", spec.inner_text('[data-testid=hh-fates] li[data-witch="B1"]')
        )
        self.assertEqual(spec.locator("#board .hh-rspell").count(), 3)  # B, M and K lie
        self.snap(spec, "replay-step-3")
        spec.click("[data-testid=hh-next]")
        spec.wait_for_selector(f"text=Step 4 of {last}")
        self.assertIn("She is banished to [6, 6].", spec.inner_text("[data-testid=hh-log]"))
        self.assertEqual(spec.locator("#board .hh-ban.live").count(), 1)
        self.snap(spec, "replay-step-4-ban")
        spec.locator("[data-testid=hh-slider]").evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", last
        )
        spec.wait_for_selector(f"text=Step {last} of {last}")
        fates_text = {
            w: spec.inner_text(f'[data-testid=hh-fates] li[data-witch="{w}"]')
            for w in ("A1", "A2", "B1", "B2")
        }
        self.assertIn("in goal (step 5)", fates_text["A1"])
        self.assertIn("in goal (step 6)", fates_text["A2"])
        self.assertIn("starved (step 5)", fates_text["B2"])
        self.snap(spec, "replay-end")
        self.snap(spec, "replay-end-phone", phone=True)
        spec.click("[data-testid=hh-play]")  # plays again from the start
        spec.wait_for_selector("text=Step 1 of")

        # The GM is back at the editor for round 2, the last board loaded.
        g.click("[data-testid=hh-tab-round]")
        g.wait_for_selector("[data-testid=hh-open-round]")
        self.assertEqual(g.inner_text("[data-testid=hh-open-round]"), "Open round 2")
        self.assertIn("void", g.get_attribute(cell((0, 0)), "class"))
        self.snap(g, "gm-after-round")

        # The platform's replay page shows the same results, read-only.
        spec.goto(f"{url}replay/")
        spec.wait_for_selector("[data-testid=hh-standings] tr[data-seat]")
        spec.wait_for_selector(f"[data-testid=hh-step-label]:has-text('of {last}')")
        self.assertEqual(
            spec.locator("[data-testid=hh-open-round], [data-testid=hh-submit]").count(), 0
        )
        self.snap(spec, "platform-replay-page")
        self.assertEqual(self.page_errors, [])

    def test_gm_paints_a_30x30_arena_by_dragging_and_a_team_gets_ten_witches(self):
        url, _game_id, (gm, one, _two) = self.campaign("gm2", "hexe3", "hexe4")
        g, p1 = self.new_page("gm", gm), self.new_page("t1", one)
        for page in (g, p1):
            page.goto(url)
            self.wait_connected(page)
        g.select_option("[data-testid=hh-preset]", "arena")
        g.click("[data-testid=hh-load-preset]")
        g.wait_for_function("() => document.querySelectorAll('#board rect.hh-cell').length === 900")
        self.assertEqual(g.locator("#board rect.hh-cell.start").count(), 20)
        # One drag along row 10 switches ten fields off; their twins on row 19 follow.
        a = g.locator(cell((10, 3))).bounding_box()
        b = g.locator(cell((10, 12))).bounding_box()
        g.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        g.mouse.down()
        g.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=25)
        g.mouse.up()
        self.assertEqual(g.locator("#board rect.hh-cell.void").count(), 20)
        for c in (3, 12):
            self.assertIn("void", g.get_attribute(cell((10, c)), "class"))
            self.assertIn("void", g.get_attribute(cell((19, 29 - c)), "class"))
        self.assertIn("880 fields", g.inner_text("[data-testid=hh-board-counts]"))
        self.snap(g, "gm-arena")
        self.snap(g, "gm-arena-phone", phone=True)
        g.click("[data-testid=hh-open-round]")
        p1.wait_for_selector("[data-testid=hh-witch-10]")
        self.assertEqual(p1.locator("#board rect.hh-cell").count(), 880)
        p1.click(cell((29, 5)))
        p1.click(cell((28, 5)))
        p1.click("[data-testid=hh-mode-fly]")
        p1.click(cell((10, 20)))
        self.assertIn("2 steps (29\u201360), 58 left", p1.inner_text("[data-testid=hh-witch-1]"))
        self.snap(p1, "team-arena")
        self.snap(p1, "team-arena-phone", phone=True)
        self.assertEqual(self.page_errors, [])
