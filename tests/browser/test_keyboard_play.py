"""Whole turns with the keyboard alone (issue 17, items 3 and 9).

Playwright's keyboard API only: Tab to a piece, Enter or Space to pick it, Tab or
arrow keys to a lit field, Enter to play; Halma's jump chain is finished with
Enter on the landing; moves are typed in the move list's notation. After each
redraw the focus is still on the board (on the same piece or field).

1. Halma: a jump that could go on, finished with Enter (only the next jumps and
   the finish ring are lit inside the chain); typed moves, bad and good.
2. Malefiz: roll and move with keys; the other side types "roll" and a move.
3. Daschax: a turn built with keys; the other side types one (e.g. "c10 F L").
4. Idiotenspiel and Hexenhalma: the board takes focus and the arrow-key cursor
   clicks the field under it.
5. Hexenhalma typed: the game master opens a round by typing a preset's name; a
   team types nonsense and illegal orders (a message, nothing sent or changed),
   then both witches' orders in its move list's notation, then "lock".

Run: .venv/bin/pytest tests/browser/test_keyboard_play.py -q
"""

from __future__ import annotations

import pytest

from games.rules.halma import HalmaRuleset

from .helpers import BrowserLiveTestCase, key, settle, started_table

pytestmark = [pytest.mark.browser, pytest.mark.live]

ACTIVE_MATCHES_JS = "s => !!document.activeElement && document.activeElement.matches(s)"


class KeyboardPlayTests(BrowserLiveTestCase):
    def table(self, ruleset, users, **options):
        return started_table(ruleset, users, seed=1, **options)

    def open(self, game_id, users, width=1280):
        pages = []
        for user in users:
            page = self.new_page(user.username, user=user)
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            pages.append(page)
        return pages

    def focused(self, page, selector) -> bool:
        return page.evaluate(ACTIVE_MATCHES_JS, selector)

    def tab_to(self, page, selector, limit=150, back=False):
        """Press Tab (or Shift+Tab) until the focus is on ``selector``."""
        for _ in range(limit):
            if self.focused(page, selector):
                return
            page.keyboard.press("Shift+Tab" if back else "Tab")
        raise AssertionError(f"Tab never reached {selector}")

    def type_move(self, page, text):
        self.tab_to(page, "#move-input")
        page.keyboard.press("Control+A")
        page.keyboard.type(text)
        page.keyboard.press("Enter")

    def version(self, page) -> int:
        return page.evaluate("() => window.__game.model.version")

    # -- Halma ---------------------------------------------------------------------
    def test_halma_chain_finished_with_enter_and_typed_moves(self):
        alice, bob = self.users("alice", "bob")
        game_id = self.table("halma", [alice, bob], host_seat=0)
        a, b = self.open(game_id, [alice, bob])
        b.set_viewport_size({"width": 360, "height": 800})
        rs = HalmaRuleset()
        state = rs.setup({}, 2, 0)
        # A: a single jump with nothing beyond is sent at once, by keys alone.
        first = [[9, 6], [7, 6]]
        paths = [x["path"] for x in rs.legal_actions(state, 0)]
        self.assertFalse([p for p in paths if len(p) > 2 and p[:2] == first])
        self.tab_to(a, f'#board .piece.movable[data-field="{key(first[0])}"]')
        a.keyboard.press("Enter")
        self.tab_to(a, f'#board .target[data-target="{key(first[1])}"]')
        a.keyboard.press("Enter")
        self.wait_version(b, 2)
        state, _ = rs.apply(state, 0, {"type": "move", "path": first})
        # B types the jump d10 x d8 in the move list's notation (with the times sign).
        self.type_move(b, "d10\u00d7d8")
        self.wait_version(a, 3)
        state, _ = rs.apply(state, 1, {"type": "move", "path": [[0, 3], [2, 3]]})
        legal = [x["path"] for x in rs.legal_actions(state, 0)]
        # A single jump that could go on: its landing starts longer chains.
        chain = next(
            p for p in legal if len(p) == 2 and any(len(q) > 2 and q[:2] == p for q in legal)
        )
        onward = sorted({key(q[2]) for q in legal if len(q) > 2 and q[:2] == chain})
        start, land = key(chain[0]), key(chain[1])
        self.assertTrue(a.locator("#board .piece.movable").count() > 0)  # marked before hovering

        self.tab_to(a, f'#board .piece.movable[data-field="{start}"]')
        a.keyboard.press("Enter")
        a.wait_for_selector(f'#board .piece.selected[data-field="{start}"]')
        self.assertTrue(
            self.focused(a, f'#board .piece[data-field="{start}"]'), "focus lost on redraw"
        )
        self.tab_to(a, f'#board .target[data-target="{land}"]')
        self.shot(a, "halma-targets")
        a.keyboard.press(" ")
        a.wait_for_selector(f'#board .target.stop[data-target="{land}"]')
        # Inside the chain: the hint and Finish button show; only what is legal now is lit.
        self.assertTrue(a.is_visible("[data-testid=finish-chain]"))
        self.assertIn("press Enter", a.inner_text("[data-testid=chain-hint]"))
        lit = sorted(
            a.eval_on_selector_all("#board .target.jump", "els => els.map((e) => e.dataset.target)")
        )
        self.assertEqual(lit, onward)
        self.assertEqual(a.locator("#board .target.end").count(), 0)
        self.assertTrue(self.focused(a, f'#board .target.stop[data-target="{land}"]'))
        self.shot(a, "halma-chain")
        a.keyboard.press("Enter")
        self.wait_version(a, 4)
        self.wait_version(b, 4)
        state, _ = rs.apply(state, 0, {"type": "move", "path": chain})

        # B types moves: nonsense, an illegal one, then a legal jump or step.
        self.type_move(b, "hello")
        b.wait_for_function(
            "() => document.getElementById('move-error').textContent.includes('g1')"
        )
        self.type_move(b, "a1-a2")
        b.wait_for_function(
            "() => document.getElementById('move-error').textContent.includes('not a legal move')"
        )
        self.assertEqual(self.version(b), 4)
        path = rs.legal_actions(state, 1)[0]["path"]
        names = ["abcdefghij"[c] + str(10 - r) for r, c in path]
        jump = abs(path[0][0] - path[1][0]) == 2 or abs(path[0][1] - path[1][1]) == 2
        self.type_move(
            b, ("\u00d7" if jump else "\u2013").join(names)
        )  # times sign, en dash: as the move list
        self.wait_version(b, 5)
        self.assertEqual(b.input_value("#move-input"), "")
        self.assertEqual(b.inner_text("#move-error"), "")
        self.assertIn(names[-1], b.text_content("[data-testid=text-view]"))
        b.wait_for_function(
            "n => document.getElementById('announce').textContent.includes(n)", arg=names[-1]
        )
        settle(b)
        self.shot(b, "halma-typed-phone")

        # A: Escape drops a selection, focus stays on the board.
        start = key(
            rs.legal_actions(rs.apply(state, 1, {"type": "move", "path": path})[0], 0)[0]["path"][0]
        )
        self.wait_version(a, 5)
        self.tab_to(a, f'#board .piece.movable[data-field="{start}"]')
        a.keyboard.press("Enter")
        a.wait_for_selector("#board .piece.selected")
        a.keyboard.press("Escape")
        a.wait_for_selector("#board .piece.selected", state="detached")
        self.assertTrue(self.focused(a, "#board *"), "focus left the board")
        self.assertEqual(self.page_errors, [])

    # -- Malefiz -------------------------------------------------------------------
    def test_malefiz_roll_and_move_with_keys_and_typed(self):
        green, yellow = self.users("gina", "yuri")
        game_id = self.table("malefiz", [green, yellow], seat_count=2, host_seat=0)
        g, y = self.open(game_id, [green, yellow])
        pages = {0: g, 1: y}
        for turn in range(2):
            seat = g.evaluate("() => window.__game.model.state.to_act[0]")
            page = pages[seat]
            v = self.version(page)
            if turn == 0:
                self.tab_to(page, "[data-testid=roll]")
                page.keyboard.press("Enter")
            else:
                self.type_move(page, "roll")
            self.wait_version(page, v + 1)
            legal = page.evaluate("() => window.__game.model.state.legal")
            if not legal or legal[0]["type"] != "move":
                continue  # passed: nothing to move
            a = legal[0]
            if turn == 0:
                page.wait_for_selector("#board .mz-target")
                self.tab_to(page, f'#board .mz-target[data-target="{key(a["to"])}"]')
                self.shot(page, "malefiz-keys")
                page.keyboard.press("Enter")
            else:
                src = (
                    "house"
                    if a["from"] == "house"
                    else "abcdefghijklmnopq"[a["from"][0] - 1] + str(a["from"][1])
                )
                self.type_move(page, f"{src}-{'abcdefghijklmnopq'[a['to'][0] - 1]}{a['to'][1]}")
            self.wait_version(page, v + 2)
        self.assertIn("Barricades", g.text_content("[data-testid=text-view]"))
        self.assertEqual(self.page_errors, [])

    # -- Daschax -------------------------------------------------------------------
    def test_daschax_turn_with_keys_and_typed(self):
        alice, bob = self.users("alice", "bob")
        options = {"formation": "SMSMLSMLSS", "move_first": "white"}
        game_id = self.table("daschax", [alice, bob], host_seat=0, options=options)
        a, b = self.open(game_id, [alice, bob])
        self.tab_to(a, '#board .dx-piece.movable[data-field="4,0"]')
        a.keyboard.press("Enter")
        a.wait_for_selector('#board .dx-piece.selected[data-field="4,0"]')
        self.assertTrue(self.focused(a, '#board [data-field="4,0"]'), "focus lost on redraw")
        for k in "FFF":
            a.keyboard.press(k)
        a.keyboard.press("Enter")
        self.wait_version(b, 2)
        self.type_move(b, "e1 Q")
        b.wait_for_function("() => document.getElementById('move-error').textContent !== ''")
        self.type_move(b, "c10 F L")
        self.wait_version(b, 3)
        self.assertIn("c10", b.inner_text("#moves"))
        self.assertEqual(self.page_errors, [])

    # -- Idiotenspiel: the arrow-key cursor ----------------------------------------
    def cursor_to(self, page, selector):
        """Arrow keys from the top-left corner to the field of the element ``selector``."""
        row, col = page.eval_on_selector(
            selector,
            """el => { const b = el.getBBox(); const cell = 10;
              return [Math.floor((b.y + b.height / 2) / cell), Math.floor((b.x + b.width / 2) / cell)]; }""",
        )
        for _ in range(30):
            page.keyboard.press("ArrowUp")
        for _ in range(40):
            page.keyboard.press("ArrowLeft")
        for _ in range(row):
            page.keyboard.press("ArrowDown")
        for _ in range(col):
            page.keyboard.press("ArrowRight")

    def test_idiotenspiel_side_choice_and_placement_with_keys(self):
        robin, sheriff = self.users("robin", "sheriff")
        options = {"scenario": "grundspiel", "map": "die_burg", "sandglass": 600}
        game_id = self.table("idiotenspiel", [robin, sheriff], host_seat=0, options=options)
        r, s = self.open(game_id, [robin, sheriff])
        pages = {0: r, 1: s}
        s.wait_for_selector("[data-testid=choose-W-edge]")
        self.tab_to(s, "[data-testid=choose-W-edge]")
        s.keyboard.press("Enter")
        self.wait_version(r, 2)
        seat = r.evaluate("() => window.__game.model.state.to_act[0]")
        page = pages[seat]
        page.wait_for_selector("#board .ids-target.place")
        self.tab_to(page, "#board svg[tabindex='0']")
        self.cursor_to(page, "#board .ids-target.place")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=cursor-field]').textContent !== ''"
        )
        self.assertTrue(page.is_visible("#board .grid-cursor"))
        self.shot(page, "idiotenspiel-cursor")
        page.keyboard.press("Enter")  # clicks the lit field under the cursor
        self.wait_version(page, 3)
        self.assertTrue(self.focused(page, "#board svg"), "focus left the map")
        self.assertEqual(self.page_errors, [])

    # -- Hexenhalma: the game master's editor and a team's orders, by keys ----------
    def test_hexenhalma_editor_and_orders_with_keys(self):
        gm, one, two = self.users("gm", "hexe1", "hexe2")
        game_id = self.table("hexenhalma", [gm, one, two], seat_count=3)
        g, p1 = self.open(game_id, [gm, one])
        g.wait_for_selector("[data-testid=hh-preset]")
        self.tab_to(g, "[data-testid=hh-load-preset]")
        g.keyboard.press("Enter")  # the preset chosen by default
        g.wait_for_selector("#board [data-testid=hh-round] rect.hh-cell.start")
        self.tab_to(g, "#board [data-testid=hh-round] svg[tabindex='0']")
        field = '#board [data-testid=hh-round] rect.hh-cell.plain[data-field="5,0"]'
        self.cursor_to(g, field)
        g.keyboard.press("Enter")  # switches it off, and its twin
        g.wait_for_selector('#board [data-testid=hh-round] rect.hh-cell.void[data-field="5,0"]')
        g.keyboard.press("Enter")  # and on again
        g.wait_for_selector(field)
        self.shot(g, "hexenhalma-editor-keys")
        self.tab_to(g, "[data-testid=hh-open-round]")
        g.keyboard.press("Enter")
        self.wait_version(p1, 2)
        p1.wait_for_selector("[data-testid=hh-witch-1]")
        before = p1.inner_text("[data-testid=hh-witch-1]")
        self.tab_to(p1, "#board svg[tabindex='0']")
        self.cursor_to(p1, "#board rect.hh-cell.start")
        p1.keyboard.press("Enter")  # witch 1 starts there
        p1.wait_for_function(
            "t => document.querySelector('[data-testid=hh-witch-1]').innerText !== t", arg=before
        )
        self.assertIn("start", p1.text_content("[data-testid=cursor-field]"))
        self.shot(p1, "hexenhalma-orders-keys")
        self.assertEqual(self.page_errors, [])

    # -- Hexenhalma: typed orders ------------------------------------------------------
    def test_hexenhalma_typed_orders(self):
        gm, one, two = self.users("gm", "hexe1", "hexe2")
        game_id = self.table("hexenhalma", [gm, one, two], seat_count=3)
        g, p1 = self.open(game_id, [gm, one])
        # The game master: an unknown preset is refused, a known one opens round 1.
        self.type_move(g, "open moon")
        g.wait_for_function("() => document.getElementById('move-error').textContent !== ''")
        self.assertIn("open rectangle", g.inner_text("#move-error"))
        self.assertEqual(self.version(g), 1)
        self.type_move(g, "open rectangle")
        self.wait_version(p1, 2)
        p1.wait_for_selector("[data-testid=hh-witch-1]")
        before = [p1.inner_text(f"[data-testid=hh-witch-{n}]") for n in (1, 2)]

        def refused(text: str, expect: str) -> None:
            self.type_move(p1, text)
            p1.wait_for_function(
                "t => document.getElementById('move-error').textContent.includes(t)", arg=expect
            )
            self.assertEqual(p1.input_value("#move-input"), text)  # kept, to be corrected
            self.assertEqual(self.version(p1), 2)
            self.assertIsNone(p1.evaluate("() => window.__game.model.state.view.my_orders"))
            self.assertEqual([p1.inner_text(f"[data-testid=hh-witch-{n}]") for n in (1, 2)], before)

        refused("hello", "Write each witch's start field")
        refused("11,2 N Z N", "Witch 1, step 2: Z needs the field")
        refused("11,2 N N N N N N N N N N N", "write 2 orders")
        refused(
            "11,2 E N N N N N N N N N N; 11,5 N N N N N N N N N N N",
            "Witch 1, step 1: [11, 3] is a start field",
        )
        refused("lock", "You have submitted no orders")
        self.shot(p1, "refused-1280")
        p1.set_viewport_size({"width": 360, "height": 800})
        p1.locator("#access").scroll_into_view_if_needed()
        settle(p1)
        self.shot(p1, "refused-360")

        typed = "[11, 2] N N N N N N N+K N N+M N N; 11,5 N+B6,6 N N N N Z4,5+I W E N N N N"
        shown = "[11, 2] N N N N N N N+K N N+M N N; [11, 5] N+B[6, 6] N N N N Z[4, 5]+I W E N N N N"
        self.type_move(p1, typed)
        self.wait_version(p1, 3)
        self.assertEqual(p1.input_value("#move-input"), "")
        self.assertEqual(p1.inner_text("#move-error"), "")
        n, e, w = {"walk": "N"}, {"walk": "E"}, {"walk": "W"}
        self.assertEqual(
            p1.evaluate("() => window.__game.model.state.view.my_orders"),
            [
                {
                    "start": [11, 2],
                    "steps": [n] * 6
                    + [{"walk": "N", "spell": "K"}, n, {"walk": "N", "spell": "M"}, n, n],
                },
                {
                    "start": [11, 5],
                    "steps": [{"walk": "N", "spell": "B", "ban_to": [6, 6]}]
                    + [n] * 4
                    + [{"fly": [4, 5], "spell": "I"}, w, e, n, n, n, n],
                },
            ],
        )
        # The move list shows them as typed; the order editor took them in, saved.
        # (A field's inner space is a no-break one there, so no line breaks inside a step.)
        moves = p1.inner_text("#moves").replace("\xa0", " ")
        self.assertIn(f"You submitted orders for round 1: {shown}.", moves)
        for k in (1, 2):
            self.assertIn(
                "Ready: she ends in the goal.", p1.inner_text(f"[data-testid=hh-witch-{k}]")
            )
        self.assertIn("Saved", p1.inner_text("[data-testid=hh-server-msg]"))
        self.assertIn(
            f"Your saved orders: {shown}",
            p1.text_content("[data-testid=text-view]").replace("\xa0", " "),
        )
        p1.locator("#access").scroll_into_view_if_needed()
        settle(p1)
        self.shot(p1, "saved-360")
        p1.set_viewport_size({"width": 1280, "height": 900})
        settle(p1)
        self.shot(p1, "saved-1280")
        # The game master learns that team 1 submitted, never what.
        self.wait_version(g, 3)
        gm_moves = g.inner_text("#moves")
        self.assertIn("submitted orders", gm_moves)
        self.assertNotIn("N+K", gm_moves)
        self.assertNotIn("[11, 2]", gm_moves)

        self.type_move(p1, "lock")
        self.wait_version(p1, 4)
        p1.wait_for_selector("[data-testid=hh-status]")
        self.assertIn("locked", p1.inner_text("[data-testid=hh-status]"))
        self.assertTrue(p1.is_disabled("#move-input"))
        self.assertEqual(p1.inner_text("#move-help"), "Wait for your turn.")
        self.assertEqual(self.page_errors, [])
