"""Issue 29, item 5 in Chromium: losing the connection shows, in words, within
2 s ("Offline, reconnecting"); a move made meanwhile is pending, not done;
when the page is live again it says so and the pending move goes out.

The connection is cut for real by a TCP proxy the test controls (tests/browser/
proxy.py): ``set_offline`` leaves open websockets alone. The browser's own
offline signal is checked separately: it now closes the socket at once.

Run: .venv/bin/pytest tests/browser/test_ux29_offline.py -rA
"""

from __future__ import annotations

import random
import time

import pytest

from games.models import Game
from games.rules import get_ruleset
from games.selectors.frames import EVENTS_TAIL
from games.services.play import game_act
from tests.factories import make_user

from .helpers import BrowserLiveTestCase, key, off_loop, started_table
from .proxy import TcpProxy

pytestmark = [pytest.mark.browser, pytest.mark.live]

FIRST = [[9, 6], [7, 6]]  # White's first Halma step
OFFLINE_JS = """() => { const n = document.getElementById('conn-text');
  return n.checkVisibility() && n.dataset.state === 'offline' && n.textContent.includes('Offline'); }"""
LIVE_JS = """() => { const n = document.getElementById('conn-text');
  return n.checkVisibility() && n.dataset.state === 'live'; }"""

# The page loses the next event frame on its way in; counts the syncs it gets
# and those it asks for.
LOSE_NEXT_EVENT_JS = """() => {
  const s = window.__game.socket;
  const lost = (window.__lost = { dropped: 0, syncs: 0, asked: 0 });
  const onFrame = s.handlers.onFrame;
  s.handlers.onFrame = (f) => {
    if (f.type === "event" && !lost.dropped) return void (lost.dropped = 1);
    if (f.type === "sync") lost.syncs += 1;
    onFrame(f);
  };
  const send = s.send.bind(s);
  s.send = (f) => {
    if (f.type === "sync") lost.asked += 1;
    return send(f);
  };
}"""

# Records (epoch ms) when the page's model first reaches version v, and counts
# the page's tries to connect.
SHOWN_AT_JS = """(v) => {
  const s = window.__game.socket;
  const onFrame = s.handlers.onFrame;
  window.__shownAt = 0;
  window.__tries = 0;
  const Real = window.WebSocket;
  window.WebSocket = function (url) {
    window.__tries += 1;
    return new Real(url);
  };
  Object.assign(window.WebSocket, Real);
  s.handlers.onFrame = (f) => {
    onFrame(f);
    if (!window.__shownAt && window.__game.model.version >= v) window.__shownAt = Date.now();
  };
}"""


class OfflineTests(BrowserLiveTestCase):
    def test_a_lost_connection_shows_within_2_s_and_a_move_meanwhile_is_pending(self):
        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        game_id = started_table("halma", [white, black])
        host, port = self.live_server_url.split("//", 1)[1].split(":")
        with TcpProxy(host, int(port)) as proxy:
            page = self.new_page("wanda", user=white)
            page.set_viewport_size({"width": 360, "height": 740})
            page.goto(f"http://localhost:{proxy.port}/g/{game_id}/")
            self.wait_connected(page)
            self.assertFalse(page.is_visible("[data-testid=conn-text]"))

            self.assertGreater(proxy.drop(refuse=True), 0)
            lost = time.monotonic()
            page.wait_for_function(OFFLINE_JS, timeout=2000)
            self.assertLess(time.monotonic() - lost, 2.0)
            self.shot(page, "offline-360")

            # A move meanwhile: pending in the move list, the piece where it was.
            page.click(f'#board .piece.movable[data-field="{key(FIRST[0])}"]')
            page.click(f'#board .target[data-target="{key(FIRST[1])}"]')
            page.wait_for_selector("[data-testid=pending-move]")
            state = self.state(page)
            self.assertEqual(state["version"], 1)
            self.assertIn(key(FIRST[0]), state["pieces"][0])
            self.assertNotIn(key(FIRST[1]), state["pieces"][0])
            self.assertEqual(off_loop(lambda: Game.objects.get(pk=game_id).version), 1)
            page.locator("#moves").scroll_into_view_if_needed()
            self.shot(page, "pending-360")
            page.set_viewport_size({"width": 1280, "height": 900})
            self.shot(page, "pending-1280")

            proxy.allow()
            page.wait_for_function(LIVE_JS)
            self.wait_version(page, 2)
            self.assertEqual(page.locator("[data-testid=pending-move]").count(), 0)
            state = self.state(page)
            self.assertIn(key(FIRST[1]), state["pieces"][0])
            self.assertEqual(state["conn"], "open")
            self.shot(page, "live-again-1280")
            self.assertEqual(off_loop(lambda: Game.objects.get(pk=game_id).version), 2)
        self.assertEqual(self.page_errors, [])

    def test_a_silently_dead_socket_shows_within_seconds_and_its_lost_move_goes_out(self):
        """The network goes silent, nothing is closed: the page's move (and the
        heartbeat after it) gets no answer, so "Offline" shows within 3 s of the
        move; the move, lost on the way, waits and goes out after the reconnect.
        Idle, a ping unanswered shows it within 3 s of that ping (pings every 10 s)."""
        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        game_id = started_table("halma", [white, black])
        host, port = self.live_server_url.split("//", 1)[1].split(":")
        with TcpProxy(host, int(port)) as proxy:
            page = self.new_page("wanda", user=white)
            page.goto(f"http://localhost:{proxy.port}/g/{game_id}/")
            self.wait_connected(page)

            proxy.stall()
            page.click(f'#board .piece.movable[data-field="{key(FIRST[0])}"]')
            page.click(f'#board .target[data-target="{key(FIRST[1])}"]')
            moved = time.monotonic()
            page.wait_for_function(OFFLINE_JS, timeout=6000)
            shown_after = time.monotonic() - moved
            self.assertLess(shown_after, 5.0)
            page.wait_for_selector("[data-testid=pending-move]")
            self.assertEqual(off_loop(lambda: Game.objects.get(pk=game_id).version), 1)
            self.shot(page, "silent-offline-1280")

            proxy.resume()
            page.wait_for_function(LIVE_JS, timeout=20_000)
            self.wait_version(page, 2)
            self.assertEqual(page.locator("[data-testid=pending-move]").count(), 0)
            self.assertIn(key(FIRST[1]), self.state(page)["pieces"][0])
            self.assertEqual(off_loop(lambda: Game.objects.get(pk=game_id).version), 2)

            # Idle: the next ping goes unanswered.
            page.wait_for_function("() => document.getElementById('conn-text').hidden")
            proxy.stall()
            stalled = time.monotonic()
            page.wait_for_function(OFFLINE_JS, timeout=16_000)
            idle_after = time.monotonic() - stalled
            # The unanswered ping: one swallowed on its way out, or (on a busy
            # machine) one that went out just before the stall, its answer swallowed.
            ping = proxy.first_swallowed or proxy.last_text_out
            assert ping is not None, "no frame of the page went out"
            after_ping = time.monotonic() - ping
            self.assertLess(after_ping, 4.5)
            print(f"offline shown {shown_after:.1f} s after a move, {idle_after:.1f} s after")
            print(f"the link went silent while idle ({after_ping:.1f} s after the unanswered ping)")
        self.assertEqual(self.page_errors, [])

    def test_a_page_back_after_a_burst_of_moves_keeps_its_whole_move_list(self):
        """Offline while more moves are made than a first hello carries: the
        reconnect's hello brings all it missed, so the list has no gap."""
        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        users = [white, black]
        game_id = started_table("halma", users)
        burst = EVENTS_TAIL + 10
        host, port = self.live_server_url.split("//", 1)[1].split(":")
        with TcpProxy(host, int(port)) as proxy:
            page = self.new_page("spectator")
            page.goto(f"http://localhost:{proxy.port}/g/{game_id}/")
            self.wait_connected(page)
            self.assertEqual(self.state(page)["eventVersions"], [1])
            proxy.drop(refuse=True)
            page.wait_for_function(OFFLINE_JS)
            version = off_loop(play_random, game_id, users, burst)
            self.assertEqual(version, 1 + burst)
            proxy.allow()
            self.wait_version(page, version)
        self.assertEqual(self.state(page)["eventVersions"], list(range(1, version + 1)))
        self.assertTrue(page.locator("[data-testid=earlier-moves]").is_hidden())
        self.assertEqual(self.page_errors, [])

    def test_missed_moves_show_within_1_s_of_the_connection_coming_back(self):
        """A short loss (a few seconds, the page retrying): a move made meanwhile
        is on the page within 1 s of the proxy accepting again. Before, the
        retries had backed off to 4-5 s by then, and the page showed it 4-5 s
        late (5.8 s in issue 48)."""
        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        game_id = started_table("halma", [white, black])
        host, port = self.live_server_url.split("//", 1)[1].split(":")
        with TcpProxy(host, int(port)) as proxy:
            page = self.new_page("spectator")
            page.goto(f"http://localhost:{proxy.port}/g/{game_id}/")
            self.wait_connected(page)
            proxy.drop(refuse=True)
            page.wait_for_function(OFFLINE_JS)
            version = off_loop(play_random, game_id, [white, black], 1)
            page.evaluate(SHOWN_AT_JS, version)
            # Four retries turned away: about 4 s of loss, the old backoff at 4 s.
            page.wait_for_function("() => window.__tries >= 4", timeout=30_000)
            back = time.time()
            proxy.allow()
            self.wait_version(page, version)
            shown_after = page.evaluate("() => window.__shownAt") / 1000 - back
            print(f"missed move shown {shown_after:.2f} s after the link came back")
            self.assertLess(shown_after, 1.0)
            self.assertEqual(self.state(page)["eventVersions"], list(range(1, version + 1)))
            page.wait_for_function(LIVE_JS)
            self.shot(page, "caught-up-1280")
        self.assertEqual(self.page_errors, [])

    def test_a_lost_push_comes_with_the_sync_after_the_next_pong_unasked(self):
        """The page misses an event frame; its next ping is answered with a
        pong and the sync it lacks, so the page asks for nothing itself."""
        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        game_id = started_table("halma", [white, black])
        mover, page = self.new_page("wanda", user=white), self.new_page("spectator")
        for p in (mover, page):
            p.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(p)
        page.evaluate(LOSE_NEXT_EVENT_JS)
        # Through the mover's socket, so the move reaches the page as a push.
        version = self.move(mover, FIRST)
        page.wait_for_function("() => window.__lost.dropped === 1")
        self.assertEqual(self.state(page)["version"], version - 1)
        page.evaluate("() => window.__game.socket.heartbeat()")
        self.wait_version(page, version)
        self.assertEqual(
            page.evaluate("() => window.__lost"), {"dropped": 1, "syncs": 1, "asked": 0}
        )
        self.assertEqual(self.state(page)["eventVersions"], list(range(1, version + 1)))
        self.assertEqual(self.page_errors, [])

    def test_the_browser_going_offline_closes_the_socket_at_once(self):
        white, black = (off_loop(make_user, n) for n in ("wanda", "bodo"))
        game_id = started_table("halma", [white, black])
        page = self.new_page("wanda", user=white)
        page.goto(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(page)
        page.context.set_offline(True)
        gone = time.monotonic()
        page.wait_for_function(OFFLINE_JS, timeout=2000)
        self.assertLess(time.monotonic() - gone, 2.0)
        self.shot(page, "browser-offline-1280")
        page.context.set_offline(False)
        page.wait_for_function(LIVE_JS)
        self.wait_connected(page)
        self.assertEqual(self.page_errors, [])


def play_random(game_id: int, users: list, moves: int) -> int:
    """``moves`` random legal moves through the services; the game's version after."""
    rs, rng = get_ruleset("halma"), random.Random(5)
    game = Game.objects.get(pk=game_id)
    version, state = game.version, rs.decode(game.state)
    for _ in range(moves):
        seat = rs.to_act(state)[0]
        version = game_act(
            game_id=game_id,
            user=users[seat],
            version=version,
            action=rs.random_action(state, seat, rng),
        )
        state = rs.decode(Game.objects.get(pk=game_id).state)
    return version
