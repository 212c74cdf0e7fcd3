"""Halma end to end in Chromium: real pages, real sockets, a live Daphne.

1. Two players and an anonymous spectator play a few moves through the UI
   (a double jump clicked landing by landing among them); every page shows the
   same pieces and move list after each move; B resigns; all see the result.
2. One player's connection goes through a TCP proxy the test drops while the
   other player moves: the page shows "reconnecting", comes back by itself and
   catches up without a reload, then moves again.

Run: .venv/bin/pytest tests/browser -x -q   (screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Seat
from games.rules.halma import HalmaRuleset
from lobby.services import table_create, table_join, table_start

from .helpers import BrowserLiveTestCase, key, off_loop
from .proxy import TcpProxy

pytestmark = [pytest.mark.browser, pytest.mark.live]

# From the start position: a single jump each, then a double jump each
# (the first jumps cleared the middle stone of each chain), then a jump White
# ends early although it could go on, and a step.
OPENING = [
    (0, [[9, 6], [7, 6]]),
    (1, [[0, 3], [2, 3]]),
    (0, [[9, 8], [9, 6], [9, 4]]),
    (1, [[0, 1], [0, 3], [0, 5]]),
    (0, [[8, 9], [6, 7]]),  # a jump that could go on: ended with "stop"
    (1, [[2, 3], [3, 4]]),
]


def expected_positions(moves):
    """Pieces per seat after each move, by the rules engine (sorted "r,c" lists)."""
    rs = HalmaRuleset()
    state = rs.setup({}, 2, 0)
    out = []
    for seat, path in moves:
        state, _ = rs.apply(state, seat, {"type": "move", "path": path})
        out.append([sorted(key(p) for p in seats) for seats in rs.view(state, None)["pieces"]])
    return out


class HalmaPlayTests(BrowserLiveTestCase):
    def assert_same_everywhere(self, pages, version, pieces=None):
        """All pages at ``version`` show the same pieces, move list and events."""
        for page in pages.values():
            self.wait_version(page, version)
        states = {name: self.state(page) for name, page in pages.items()}
        first_name, first = next(iter(states.items()))
        for name, st in states.items():
            self.assertEqual(st["version"], version, name)
            self.assertEqual(st["pieces"], first["pieces"], f"{name} vs {first_name}")
            self.assertEqual(st["moves"], first["moves"], f"{name} vs {first_name}")
            self.assertEqual(st["eventVersions"], list(range(1, version + 1)), name)
            self.assertEqual(len(st["pieces"][0]), 15, name)
            self.assertEqual(len(st["pieces"][1]), 15, name)
        if pieces is not None:
            self.assertEqual(first["pieces"], pieces)
        return states

    def test_two_players_and_a_spectator_play_and_resign(self):
        User = get_user_model()
        alice_name, bob_name = "alice", "bob"

        # A signs up through the real page; B exists already and is logged in by cookie.
        a = self.new_page("A")
        self.signup(a, alice_name)
        bob = User.objects.create_user(username=bob_name, password="s3cret-pass-123")
        b = self.new_page("B", user=bob)
        spectator = self.new_page("S")

        # A opens a Halma table from the lobby form.
        a.select_option("[data-testid=ruleset-select]", "halma")
        game_id = self.open_table_by_hand(a)
        invite = a.input_value("[data-testid=invite-link]")
        self.assertRegex(invite, rf"^{self.live_server_url}/t/[\w-]+/$")
        a.wait_for_selector("#waiting-seats li.free")
        self.shot(a, "waiting-for-player")

        # The spectator sits in the lobby and sees the table, then the live game.
        spectator.goto(self.live_server_url + "/")
        spectator.wait_for_selector(f'#open-tables tr[data-table="{game_id}"]')

        # B follows the invitation link (on a phone): the page shows the table,
        # and only Join (here by keyboard) seats B; A gets the start button live.
        b.set_viewport_size({"width": 360, "height": 740})
        b.goto(invite)
        b.wait_for_selector("[data-testid=join]")
        self.assertIn("alice invites you to play Halma", b.inner_text("h1"))
        self.assertIn("bob", b.inner_text("[data-testid=me]"))
        self.assertLessEqual(b.evaluate("document.documentElement.scrollWidth"), 360)
        self.shot(b, "invitation-phone")
        self.assertFalse(off_loop(lambda: Seat.objects.filter(user=bob).exists()))
        b.focus("[data-testid=join]")
        b.keyboard.press("Enter")
        b.wait_for_url(f"{self.live_server_url}/g/{game_id}/")
        b.set_viewport_size({"width": 1200, "height": 850})
        a.wait_for_selector("[data-testid=start]")
        self.shot(a, "ready-to-start")
        a.click("[data-testid=start]")
        for page in (a, b):
            self.wait_connected(page)
            self.wait_version(page, 1)
        a.wait_for_selector("#board .piece.movable")

        watch = spectator.locator(f'#live-games tr[data-game="{game_id}"] a')
        watch.wait_for()
        self.assertEqual(watch.inner_text(), "Watch")
        self.shot(spectator, "lobby-live-game")
        watch.click()
        spectator.wait_for_url(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(spectator)

        pages = {"A": a, "B": b, "S": spectator}
        for page in pages.values():
            page.wait_for_function(
                "() => document.getElementById('watchers').textContent.trim() === '1'"
            )
        states = self.assert_same_everywhere(pages, 1)
        self.assertEqual(states["A"]["seat"], 0)
        self.assertEqual(states["B"]["seat"], 1)
        self.assertIsNone(states["S"]["seat"])
        self.assertEqual(states["A"]["moves"], ["The game started."])
        self.assertGreater(states["A"]["movable"], 0)
        self.assertEqual(states["B"]["movable"], 0)
        self.assertEqual(states["S"]["movable"], 0)
        self.assertEqual(states["A"]["status_text"], "Your turn.")
        self.shot(a, "A-start")
        self.shot(spectator, "S-start")
        self.assertFalse(
            states["S"]["resignVisible"],
            "the spectator sees a Resign button: the hidden attribute is on it, but"
            " site.css `.button { display: inline-block }` overrides [hidden]",
        )
        self.shot(b, "B-start-rotated")
        # Lobby, game page and board: every module by its hashed URL, none by its plain one.
        self.assert_modules_hashed("game.js", "dom.js", "boards/halma.js", "boards/halma-remis.js")

        expected = expected_positions(OPENING)
        version = 1
        for n, (seat, path) in enumerate(OPENING):
            mover, waiter = (a, b) if seat == 0 else (b, a)
            chain = len(path) > 2
            version = self.move(
                mover, path, shot=f"{n + 1}-chain-landing" if chain or n == 4 else None
            )
            states = self.assert_same_everywhere(pages, version, pieces=expected[n])
            # The move list is the start plus one line per move, in order, everywhere.
            self.assertEqual(len(states["S"]["moves"]), n + 2)
            jump = chain or abs(path[0][0] - path[1][0]) == 2 or abs(path[0][1] - path[1][1]) == 2
            sep = "\u00d7" if jump else "\u2013"  # times sign for jumps, en dash for a step
            player = f"White ({alice_name})" if seat == 0 else f"Black ({bob_name})"
            fields = sep.join(f"{'abcdefghij'[c]}{10 - r}" for r, c in path)
            self.assertEqual(states["S"]["moves"][-1], f"{n // 2 + 1}. {player}: {fields}")
            # Only the side to move can pick a piece; the spectator never can.
            self.assertEqual(states["S"]["movable"], 0)
            self.assertEqual(self.state(mover)["movable"], 0)
            waiter.wait_for_selector("#board .piece.movable")
            for page in pages.values():
                self.assertEqual(self.state(page)["watchers"], "1")
            if n in (2, 3):
                self.shot(mover, f"{n + 1}-after-double-jump")
        self.shot(spectator, "spectator-midgame")

        # B resigns (it is A's turn; resigning is allowed at any time).
        self.assertTrue(self.state(b)["resignVisible"])
        self.resign(b)
        for page in pages.values():
            page.wait_for_selector("#banner:not([hidden])")
        states = self.assert_same_everywhere(pages, version + 1)
        self.assertIn("You won!", states["A"]["banner"])
        for name in ("B", "S"):
            self.assertIn(f"White ({alice_name}) won", states[name]["banner"])
        for name, st in states.items():
            self.assertIn(f"{bob_name} resigned", st["banner"], name)
            self.assertEqual(st["status"], "finished", name)
            self.assertEqual(st["movable"], 0, name)
            self.assertFalse(st["resignVisible"], name)
            self.assertEqual(st["moves"][-1], f"Black ({bob_name}) resigned.", name)
        for name, page in pages.items():
            self.shot(page, f"{name}-result")
        self.assertEqual(self.page_errors, [])

    def test_dropped_connection_reconnects_and_catches_up(self):
        User = get_user_model()
        alice = User.objects.create_user(username="alice", password="s3cret-pass-123")
        bob = User.objects.create_user(username="bob", password="s3cret-pass-123")

        def make_game():
            game = table_create(host=alice, ruleset="halma", host_seat=0)
            table_join(game_id=game.pk, user=bob)
            table_start(game_id=game.pk, user=alice)
            return game.pk

        game_id = off_loop(make_game)
        expected = expected_positions(OPENING)

        host, port = self.live_server_url.split("//", 1)[1].split(":")
        with TcpProxy(host, int(port)) as proxy:
            a = self.new_page("A", user=alice)
            b = self.new_page("B", user=bob)  # cookies are per host: "localhost" fits both ports
            sockets = []
            b.on("websocket", lambda ws: sockets.append(ws.url))
            a.goto(f"{self.live_server_url}/g/{game_id}/")
            b.goto(f"http://localhost:{proxy.port}/g/{game_id}/")
            pages = {"A": a, "B": b}
            for page in pages.values():
                self.wait_connected(page)
            b.evaluate("() => { window.__notReloaded = true; }")
            self.assertGreater(proxy.accepted, 0)

            # Ordinary play through the proxy first.
            self.move(a, OPENING[0][1])
            self.move(b, OPENING[1][1])
            self.assert_same_everywhere(pages, 3, pieces=expected[1])

            # 1) Cut B off and keep it off while A moves (a double jump).
            self.assertGreater(proxy.drop(refuse=True), 0)
            b.wait_for_function(
                "() => document.getElementById('conn').dataset.state === 'reconnecting'"
            )
            self.move(a, OPENING[2][1])
            self.wait_version(a, 4)
            self.assertEqual(self.state(b)["version"], 3, "B saw the move through a dropped link")
            self.shot(b, "B-reconnecting")
            # B's page really tries again (and is turned away) before it may come back.
            proxy.turned_away.wait(10)
            self.assertGreater(proxy.refused, 0, "B's page never tried to reconnect")
            proxy.allow()
            self.wait_connected(b)
            self.assert_same_everywhere(pages, 4, pieces=expected[2])
            self.shot(b, "B-caught-up")

            # B plays on normally after catching up.
            self.move(b, OPENING[3][1])
            self.assert_same_everywhere(pages, 5, pieces=expected[3])

            # 2) Drop without refusing, at the moment A moves: B reconnects at once
            #    and may get the event, the hello, or both; no doubles, no gaps.
            proxy.drop()
            self.move(a, OPENING[4][1])
            b.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
            states = self.assert_same_everywhere(pages, 6, pieces=expected[4])
            self.move(b, OPENING[5][1])
            states = self.assert_same_everywhere(pages, 7, pieces=expected[5])

            b_state = states["B"]
            self.assertEqual(len(b_state["moves"]), 7)  # the start and six moves
            self.assertEqual(b_state["moveVersions"], list(range(1, 8)))
            self.assertEqual(len(set(b_state["moves"])), len(b_state["moves"]))
            self.assertTrue(b.evaluate("() => window.__notReloaded === true"), "B's page reloaded")
            self.assertGreaterEqual(proxy.dropped, 2)
            self.assertGreaterEqual(len(sockets), 3, "expected the first socket and two reconnects")
            self.shot(a, "A-after-reconnects")
            self.shot(b, "B-after-reconnects")
        self.assertEqual(self.page_errors, [])
