"""A bot's turn reads as one turn (issue 29, item 4), in Chromium: against
the Malefiz bot, the page says "… is thinking…" while the bot decides, the
bot's pause is paid once, and the rest of its turn (the move after the roll)
follows within a second. Before: no such words, and every action of the turn
waited for a poll and a pause of its own.

Run: .venv/bin/pytest tests/browser/test_bot_turns.py   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import itertools
import time

import pytest

from games.models import Event, Game
from lobby.services import table_create
from tests.factories import make_user

from .helpers import InstantBotsLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

# The person's first legal action, sent on the page's own socket.
ACT_JS = """() => {
  const g = window.__game, st = g.model.state;
  g.socket.send({ type: "act", game: st.id ?? Number(location.pathname.split("/")[2]),
                  version: g.model.version, action: st.legal[0] });
}"""
MY_TURN_JS = """() => { const st = window.__game.model.state;
  return st.status !== "active" || st.to_act.includes(window.__game.model.seat); }"""
BOTS_TURN_JS = """() => { const st = window.__game.model.state;
  return st.status === "active" && st.to_act.includes(1); }"""


class BotTurnTests(InstantBotsLiveTestCase):
    SERVER_ENV = {"BOT_DELAY_MIN": "1.0", "BOT_DELAY_MAX": "1.0"}

    def test_the_bot_thinks_once_and_its_turn_follows_at_once(self):
        human = make_user("berta")
        game = off_loop(table_create, host=human, ruleset="malefiz", bot={"level": "easy"})
        page = self.new_page("player", user=human)
        page.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(page)
        # Every status text and board turn line the page shows, however briefly.
        page.evaluate(
            "() => { window.__shown = []; for (const el of [document.getElementById('status'),"
            " document.querySelector('[data-testid=mz-turn]')])"
            " new MutationObserver(() => window.__shown.push(el.dataset.testid + ': ' + el.textContent))"
            ".observe(el, { childList: true, characterData: true, subtree: true }); }"
        )
        waits = []
        while len(waits) < 3:  # three of the bot's turns, each after a move of the person's
            page.wait_for_function(f"() => ({MY_TURN_JS})() || ({BOTS_TURN_JS})()")
            acted = False
            while page.evaluate(MY_TURN_JS) and self.state(page)["status"] == "active":
                version = self.state(page)["version"]
                page.evaluate("() => { window.__shown = []; }")
                page.evaluate(ACT_JS)
                page.wait_for_function(f"() => window.__game.model.version > {version}")
                acted = True
            if self.state(page)["status"] != "active":
                break
            if not acted:  # the bot began the game before the page was open
                page.wait_for_function(MY_TURN_JS, timeout=15_000)
                continue
            began = time.monotonic()
            version = self.state(page)["version"]
            page.wait_for_function(MY_TURN_JS, timeout=15_000)
            waits.append(time.monotonic() - began)
            shown = page.evaluate("() => window.__shown")
            for line in ("status", "mz-turn"):  # the board's own line too, not "… to roll."
                thinking = "(bot-malefiz-easy · bot) is thinking…"
                self.assertTrue([t for t in shown if t.startswith(line) and thinking in t], shown)
            self.assertFalse([text for text in shown if "bot) to roll" in text], shown)
            times = list(
                Event.objects.filter(game_id=game.pk, version__gt=version, seat=1)
                .order_by("version")
                .values_list("created", flat=True)
            )
            self.assertGreaterEqual(len(times), 2)  # the roll and the move (or a pass)
            # Each further action of the turn within a second of the one before
            # (before: each waited for a poll and paid the 1 s pause again).
            gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
            self.assertLess(max(gaps), 1.0, f"gaps in the bot's turn: {gaps}")
        print("seconds waited per bot turn:", [f"{w:.2f}" for w in waits])
        # The first turn may also start the bot processes (seconds on a busy machine).
        self.assertTrue(len(waits) > 1 and all(w < 3.5 for w in waits[1:]), waits)
        self.assertEqual(Game.objects.get(pk=game.pk).bots, {"1": "easy"})
        self.shot(page, "after-thinking")
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 800})
            self.shot(page, f"after-{width}")
        self.assertEqual(self.page_errors, [])
