"""Event frames carry what changed: the page rebuilds the full view from them.

For a game of each kind, every seat's page (and a spectator's) follows 20
moves sent through the pages' own sockets, so the live server pushes each
as an event frame (a view patch). After each move every page's model (its
state: view, legal actions, whose turn; and the latest events) equals a fresh
hello for that page's user (GET /api/games/<id>/, the hello's shape), and
every event frame's change applied (no page fell back to a sync for one).

Run: .venv/bin/pytest tests/browser/test_delta_frames.py -q
"""

from __future__ import annotations

import random

import pytest

from games.models import Game
from games.rules import get_ruleset

from .helpers import BrowserLiveTestCase, off_loop, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

MOVES = 20

# Counts the frames a page receives by type, and those with a view patch.
COUNT_FRAMES_JS = """() => {
  const s = window.__game.socket;
  const seen = (window.__frames = { types: {}, patched: 0, unapplied: [] });
  let next = null; // the event frame being applied, if it follows the model's version
  const onFrame = s.handlers.onFrame;
  s.handlers.onFrame = (f) => {
    seen.types[f.type] = (seen.types[f.type] || 0) + 1;
    if (f.type === "event" && f.view_patch) seen.patched += 1;
    next = f.type === "event" && f.version === window.__game.model.version + 1 ? f : null;
    try {
      onFrame(f);
    } finally {
      next = null;
    }
  };
  const send = s.send.bind(s);
  s.send = (f) => {
    // A sync asked for while applying the next event: its change did not fit.
    if (f.type === "sync" && next && next.event.kind !== "start") seen.unapplied.push(next.version);
    return send(f);
  };
}"""

# The page's model next to a fresh hello for its user, in the hello's terms.
MODEL_AND_HELLO_JS = """async (id) => {
  const m = window.__game.model;
  // Keys sorted: PostgreSQL's jsonb hands an event back in its own key order.
  const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
  const hello = await (await fetch(`/api/games/${id}/`, { credentials: "same-origin" })).json();
  const pick = (st, events) => ({
    version: st.version, status: st.status, to_act: st.to_act, legal: st.legal, view: st.view,
    draw_offers: st.draw_offers, remis_allowed: st.remis_allowed,
    events: events.slice(-hello.events.length).map(canonical),
  });
  return { model: pick(m.state, m.events), hello: pick(hello.state, hello.events) };
}"""


class DeltaFramesTests(BrowserLiveTestCase):
    def play(self, ruleset: str, seats: int, **options) -> None:
        users = self.users(*[f"{ruleset[:6]}{i}" for i in range(seats)])
        game_id = started_table(ruleset, users, seed=31, seat_count=seats, **options)
        pages = [self.new_page(f"seat{i}", user=u) for i, u in enumerate(users)]
        pages.append(self.new_page("spectator"))
        for page in pages:
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            page.evaluate(COUNT_FRAMES_JS)
        rs, rng = get_ruleset(ruleset), random.Random(31)
        compared = 0
        for n in range(MOVES):
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.ACTIVE:
                break
            if not game.to_act:  # Hexenhalma's round being resolved: the server's work
                pages[0].wait_for_function(
                    "v => window.__game.model.version > v && window.__game.model.state.to_act.length",
                    arg=game.version,
                )
                continue
            seat = game.to_act[0]
            action = rs.random_action(rs.decode(game.state), seat, rng)
            pages[seat].evaluate(
                "([v, a]) => window.__game.socket.send({type: 'act', version: v, action: a})",
                [game.version, action],
            )
            for page in pages:
                self.wait_version(page, game.version + 1)
            for i, page in enumerate(pages):
                got = page.evaluate(MODEL_AND_HELLO_JS, game_id)
                if got["hello"]["version"] == got["model"]["version"]:  # no later move meanwhile
                    self.assertEqual(got["model"], got["hello"], f"{ruleset} move {n} page {i}")
                    compared += 1
        self.assertGreater(compared, MOVES * len(pages) // 2, "too few pages compared")
        for i, page in enumerate(pages):
            frames = page.evaluate("() => window.__frames")
            # A sync may still come after a pong that overtook a push: not a patch's fault.
            self.assertEqual(frames["unapplied"], [], f"{ruleset} page {i}: {frames}")
            self.assertGreaterEqual(frames["patched"], n, f"{ruleset} page {i}: {frames}")
        self.shot(pages[0], ruleset)
        self.assertEqual(self.page_errors, [])

    def test_halma(self):
        self.play("halma", 2)

    def test_daschax(self):
        self.play("daschax", 2)

    def test_malefiz(self):
        self.play("malefiz", 3)

    def test_idiotenspiel(self):
        self.play("idiotenspiel", 2)

    def test_hexenhalma(self):
        self.play("hexenhalma", 3)


class EarlierMovesTests(BrowserLiveTestCase):
    def test_the_move_list_starts_from_the_tail_and_loads_earlier_moves(self):
        from games.selectors.frames import EVENTS_TAIL
        from tests.games.test_frame_deltas import long_halma

        game = off_loop(long_halma, 130)
        page = self.new_page("spectator")
        page.goto(f"{self.live_server_url}/g/{game.pk}/")
        self.wait_connected(page)
        versions = self.state(page)["eventVersions"]
        self.assertEqual(versions, list(range(game.version - EVENTS_TAIL + 1, game.version + 1)))
        button = page.locator("[data-testid=earlier-moves]")
        button.focus()  # keyboard: a button like any other
        page.keyboard.press("Enter")
        page.wait_for_function("n => window.__game.model.events.length > n", arg=len(versions))
        versions = self.state(page)["eventVersions"]
        self.assertEqual(versions, list(range(versions[0], game.version + 1)))  # no gap
        # Scrolled to the top, the list fetches the next page by itself.
        page.evaluate(
            "() => { const ol = document.getElementById('moves'); ol.scrollTop = 1; ol.scrollTop = 0; }"
        )
        page.wait_for_function("() => window.__game.model.events[0].version === 1")
        self.assertTrue(button.is_hidden())
        self.assertEqual(self.state(page)["eventVersions"], list(range(1, game.version + 1)))
        self.shot(page, "all-moves")
        self.assertEqual(self.page_errors, [])
