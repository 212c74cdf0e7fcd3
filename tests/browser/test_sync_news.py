"""A page that catches up by a sync shows what happened last, as a page that
received the event frame does.

A Malefiz page whose socket loses an event frame (dropped in the page before
the game sees it) asks for a sync; its news line must then say what the
other page's line says about that move, not stay one move behind.

Run: .venv/bin/pytest tests/browser/test_sync_news.py -q
"""

from __future__ import annotations

import random

import pytest

from games.models import Game
from games.rules import get_ruleset

from .helpers import BrowserLiveTestCase, off_loop, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Event frames are swallowed (and their versions noted) until the test lets them
# through; so is every other frame that would bring the page up to date
# meanwhile: the sync the server sends after the page's ping (every 10 s) finds
# it behind, and the hello of a reconnect (a busy machine can leave a ping
# unanswered for 3 s). Before, a loop of moves that outlasted a ping let that
# sync through, and the page was no longer behind when the test looked.
DROP_EVENTS_JS = """() => {
  const s = window.__game.socket;
  const dropped = (window.__dropped = []);
  const onFrame = s.handlers.onFrame;
  s.handlers.onFrame = (f) => {
    if (f.type === "event" && window.__dropping) return void dropped.push(f.version);
    if ((f.type === "sync" || f.type === "hello") && window.__dropping) return;
    onFrame(f);
  };
  window.__dropping = true;
}"""

NEWS = "() => document.querySelector('[data-testid=mz-news]').textContent"


class SyncNewsTests(BrowserLiveTestCase):
    def test_a_page_that_caught_up_by_sync_shows_the_last_move(self):
        users = self.users("syncA", "syncB")
        game_id = started_table("malefiz", users, seed=5, seat_count=2)
        pages = [self.new_page(f"seat{i}", user=u) for i, u in enumerate(users)]
        for page in pages:
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
        ref, behind = pages
        behind.evaluate(DROP_EVENTS_JS)
        rs, rng = get_ruleset("malefiz"), random.Random(1)
        news = ref.evaluate(NEWS)
        for _ in range(10):  # until a move the news line names (a roll alone is drawn, not told)
            game = off_loop(Game.objects.get, pk=game_id)
            seat = game.to_act[0]
            action = rs.random_action(rs.decode(game.state), seat, rng)
            pages[seat].evaluate(
                "([v, a]) => window.__game.socket.send({type: 'act', version: v, action: a})",
                [game.version, action],
            )
            self.wait_version(ref, game.version + 1)
            if ref.evaluate(NEWS) != news:
                break
        version = game.version + 1
        news = ref.evaluate(NEWS)
        self.assertTrue(news, "the page that got every event names the move")
        behind.wait_for_function("v => window.__dropped.includes(v)", arg=version)
        self.assertLess(behind.evaluate("() => window.__game.model.version"), version)
        behind.evaluate(
            """([id, v]) => { window.__dropping = false;
                window.__game.socket.send({type: 'sync', game: id, version: v}); }""",
            [game_id, behind.evaluate("() => window.__game.model.version")],
        )
        self.wait_version(behind, version)
        self.assertEqual(behind.evaluate(NEWS), news)
        self.assertEqual(self.page_errors, [])
