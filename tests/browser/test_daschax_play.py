"""Daschax end to end in Chromium: real pages, real sockets, a live Daphne.

1. A opens a Daschax table from the lobby form, B joins, a spectator watches.
   The coin tosses (seed 1: Black places first, White moves first) are shown
   everywhere. All 20 pieces are placed through the page (size button, lit
   start field). Then five turns, each built a different way: keys with an
   undo, a lit end field with several facings (wedge picked), the step
   buttons, a single-result end field, and a capture by clicking the end
   field. After each action every page shows the same pieces, facings,
   trays, last-move marks and move list; the spectator never can act (no
   lit fields, keys and clicks do nothing, the server refuses its action).
2. Fixed formation with the removal and backward variants: no placement
   phase, a removal (confirmed), a no-op turn refused by the page, a
   backward step, and the result visible on both pages.

Run: .venv/bin/pytest tests/browser/test_daschax_play.py -x -q
Screenshots: artifacts/screenshots/daschax-*.png
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from games.rules.daschax import DaschaxRuleset
from lobby.services import table_create, table_join, table_start

from .helpers import SHOTS, BrowserLiveTestCase, key, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

SIZE = {"S": "small", "M": "medium", "L": "large"}
WHITE_ROW = "SMSMLSMLSS"  # row 0, columns 0..9
BLACK_ROW = "SSMSLMSLMS"  # row 9, columns 0..9
SEED = 1  # the coin: Black places first, White moves first

# (seat, turn) after the placement; how each is entered is in the test.
TURNS = [
    (0, {"at": [4, 0], "steps": ["F", "F", "F"]}),
    (1, {"at": [2, 9], "steps": ["F", "L"]}),
    (0, {"at": [0, 0], "steps": ["R"]}),
    (1, {"at": [4, 9], "steps": ["F", "F", "F"]}),
    (0, {"at": [4, 3], "steps": ["F", "F", "F"]}),  # captures Black's large piece
]

# What a page shows: pieces with facing, trays, last-move marks, move list.
READ_JS = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const trays = {};
  for (const g of q("#board .dx-tray")) {
    const name = [...g.classList].filter((c) => c !== "dx-tray").join(" ");
    trays[name] = Object.fromEntries(
      [...g.querySelectorAll(".dx-tray-row")].map((r) => [r.dataset.size, Number(r.dataset.count)]));
  }
  return {
    version: window.__game.model.version,
    seat: window.__game.model.seat,
    phase: document.getElementById("board").dataset.phase,
    pieces: q("#board .dx-piece").map((p) =>
      `${p.dataset.field} ${[...p.classList].find((c) => c.startsWith("seat-"))} ${p.dataset.size} ${p.dataset.facing}`).sort(),
    trays,
    lastEnd: q("#board .dx-last-end").map((e) => e.dataset.field),
    lastFrom: q("#board .dx-last-from").map((e) => e.dataset.field),
    lastCapture: q("#board .dx-last-capture").map((e) => e.dataset.field),
    head: document.querySelector("#board .dx-head").textContent,
    moves: q("#moves li").map((li) => li.textContent),
    movable: q("#board .dx-piece.movable").length,
    ends: q("#board .dx-end").length,
    buttons: q("#board .dx-controls button").length,
  };
}"""


def expected_pieces(state) -> list[str]:
    view = DaschaxRuleset().view(state, None)
    return sorted(
        f"{key(p['at'])} seat-{p['seat']} {p['size']} {p['facing']}" for p in view["pieces"]
    )


def end_fields(state, seat: int, at: list[int]) -> set[str]:
    """The distinct end fields of the legal turns of the piece at ``at``, by the engine."""
    rs = DaschaxRuleset()
    ends = set()
    for action in rs.legal_actions(state, seat):
        if action["type"] == "turn" and action["at"] == at:
            _, events = rs.apply(state, seat, action)
            ends.add(key(events[0]["to"]))
    return ends


class DaschaxPlayTests(BrowserLiveTestCase):
    rs = DaschaxRuleset()

    def shot(self, page, name: str) -> None:
        page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
        page.screenshot(path=str(SHOTS / f"daschax-{name}.png"), full_page=True)

    def read(self, page) -> dict:
        return page.evaluate(READ_JS)

    def turn_played(self, pages, state, version: int, n: int):
        """TURNS[n] applied to the engine's copy; every page shows the next version."""
        seat, turn = TURNS[n]
        state, _ = self.rs.apply(state, seat, {"type": "turn", **turn})
        return state, version + 1, self.same_everywhere(pages, version + 1, state)

    def same_everywhere(self, pages, version, state=None) -> dict:
        for page in pages.values():
            self.wait_version(page, version)
        seen = {name: self.read(page) for name, page in pages.items()}
        first = seen["A"]
        for name, st in seen.items():
            for field in ("version", "phase", "pieces", "trays", "lastEnd", "lastFrom"):
                self.assertEqual(st[field], first[field], f"{field}: {name} vs A")
            for field in ("lastCapture", "head", "moves"):
                self.assertEqual(st[field], first[field], f"{field}: {name} vs A")
        if state is not None:
            self.assertEqual(first["pieces"], expected_pieces(state))
        if "S" in seen:
            spectator = seen["S"]
            self.assertEqual((spectator["movable"], spectator["ends"]), (0, 0))
            self.assertEqual(spectator["buttons"], 0)
        return seen

    def place(self, page, size: str, at: list[int]) -> int:
        before = page.evaluate("() => window.__game.model.version")
        button = page.locator(f'#board .dx-size[data-size="{size}"]')
        if button.get_attribute("aria-pressed") != "true":
            button.click()
            page.wait_for_selector(f'#board .dx-size[data-size="{size}"][aria-pressed="true"]')
        page.click(f'#board .dx-end.place[data-field="{key(at)}"]')
        self.wait_version(page, before + 1)
        return before + 1

    def select(self, page, at: list[int]) -> None:
        page.click(f'#board .dx-piece.movable[data-field="{key(at)}"]')
        page.wait_for_selector(f'#board .dx-piece.selected[data-field="{key(at)}"]')

    def test_placement_turns_and_a_capture_with_a_spectator(self):
        User = get_user_model()
        alice = User.objects.create_user(username="alice", password="s3cret-pass-123")
        bob = User.objects.create_user(username="bob", password="s3cret-pass-123")
        a = self.new_page("A", user=alice)
        b = self.new_page("B", user=bob)
        spectator = self.new_page("S")

        # A opens the table from the lobby form (built from the ruleset's options).
        a.goto(self.live_server_url + "/")
        a.select_option("[data-testid=ruleset-select]", "daschax")
        a.wait_for_selector("#options-fields input[name=formation]")
        game_id = self.open_table_by_hand(a)
        off_loop(lambda: Game.objects.filter(pk=game_id).update(seed=SEED))
        # B takes the free seat from the game page; A's page is told at once.
        b.goto(f"{self.live_server_url}/g/{game_id}/")
        b.click("[data-testid=join]")
        a.wait_for_selector("[data-testid=start]")
        a.click("[data-testid=start]")
        spectator.goto(f"{self.live_server_url}/g/{game_id}/")
        pages = {"A": a, "B": b, "S": spectator}
        for page in pages.values():
            self.wait_connected(page)
        seen = self.same_everywhere(pages, 1)
        self.assertEqual((seen["A"]["seat"], seen["B"]["seat"], seen["S"]["seat"]), (0, 1, None))
        self.assertEqual(seen["A"]["phase"], "placement")
        self.assertIn("Coin toss: Black places first.", seen["S"]["head"])
        self.assertIn("Coin toss: White moves first.", seen["S"]["head"])
        self.assertEqual(
            seen["S"]["trays"]["reserve seat-0"], {"large": 2, "medium": 3, "small": 5}
        )

        # Black places first: the free start fields of row 9 light up on B's page only.
        b.wait_for_selector("#board .dx-end.place")
        self.assertEqual(b.locator("#board .dx-end.place").count(), 10)
        self.assertEqual(self.read(a)["ends"], 0)
        self.shot(b, "B-placement-start")
        self.shot(spectator, "S-placement-start")

        # The spectator cannot act: keys do nothing, and the server refuses an action.
        spectator.keyboard.press("2")
        spectator.evaluate(
            """id => window.__game.socket.send({type: "act", game: id, version: 1, ref: "x",
                action: {type: "place", size: "small", at: [0, 9]}})""",
            game_id,
        )
        spectator.wait_for_selector("#toast:not([hidden])")
        self.assertEqual(self.read(spectator)["version"], 1)

        # All 20 pieces, placed alternately through the page.
        state = self.rs.setup({}, 2, SEED)
        order = {0: list(enumerate(WHITE_ROW)), 1: list(enumerate(BLACK_ROW))}
        version = 1
        while state.to_move is not None and self.rs.view(state, None)["phase"] == "placement":
            seat = state.to_move
            col, letter = order[seat].pop(0)
            at = [col, 9 if seat else 0]
            page = b if seat else a
            page.wait_for_selector("#board .dx-end.place")
            if version == 4:
                self.shot(page, "A-placing")
            version = self.place(page, SIZE[letter], at)
            state, _ = self.rs.apply(state, seat, {"type": "place", "size": SIZE[letter], "at": at})
            if version in (2, 11):
                self.same_everywhere(pages, version, state)
        seen = self.same_everywhere(pages, version, state)
        self.assertEqual(version, 21)
        self.assertEqual(seen["A"]["phase"], "play")
        self.assertEqual(seen["S"]["moves"][-1], "White (alice) places a small piece on j1.")
        self.shot(spectator, "S-placed")

        # 1. White, by keys: F F R, Backspace, F, then a preview, then Enter.
        a.wait_for_selector("#board .dx-piece.movable")
        self.select(a, [4, 0])
        self.assertEqual(a.locator("#board .dx-end").count(), len(end_fields(state, 0, [4, 0])))
        for k in ("f", "f", "r", "Backspace", "f"):
            a.keyboard.press(k)
        a.wait_for_selector('#board .dx-status[data-steps="FFF"]')
        ghost = a.locator("#board .dx-ghost.preview")
        self.assertEqual(
            (ghost.get_attribute("data-field"), ghost.get_attribute("data-facing")), ("4,3", "N")
        )
        a.keyboard.press("f")  # no points left: refused with a note
        a.wait_for_selector("#board .dx-note")
        self.shot(a, "A-preview-keys")
        a.keyboard.press("Enter")
        state, version, seen = self.turn_played(pages, state, version, 0)
        self.assertEqual(seen["S"]["lastFrom"], ["4,0"])
        self.assertEqual(seen["S"]["lastEnd"], ["4,3"])
        self.assertEqual(
            seen["S"]["moves"][-1], "White (alice): large piece e1 → e4, facing north (F F F)."
        )

        # 2. Black clicks the field ahead of its medium piece: three facings there;
        #    clicking again turns the preview; a wedge picks the facing and sends.
        self.select(b, [2, 9])
        b.click('#board .dx-end[data-field="2,8"]')
        b.wait_for_selector('#board .dx-end.focused[data-field="2,8"]')
        self.assertEqual(b.locator('#board .dx-sector[data-field="2,8"]').count(), 3)
        b.wait_for_selector('#board .dx-status[data-steps="F"]')
        field = b.locator('#board .dx-end[data-field="2,8"]')
        box = field.bounding_box()  # below the wedges (Black's board is turned: south is up)
        field.click(position={"x": box["width"] / 2, "y": box["height"] * 0.85})
        b.wait_for_selector('#board .dx-status[data-steps="FR"]')
        self.shot(b, "B-facing-wedges")
        b.click('#board .dx-sector[data-facing="SE"]')
        state, version, _ = self.turn_played(pages, state, version, 1)

        # 3. White turns a small piece with the step buttons, then "Send".
        self.select(a, [0, 0])
        a.click('#board .dx-controls button[data-step="R"]')
        a.wait_for_selector('#board .dx-status[data-steps="R"]')
        self.assertTrue(a.locator('#board button[data-step="F"]').is_disabled())  # 1 point spent
        a.click("#board [data-testid=dx-send]")
        state, version, _ = self.turn_played(pages, state, version, 2)

        # 4. Black: a field with one result is sent by one click.
        self.select(b, [4, 9])
        b.click('#board .dx-end[data-field="4,6"]')
        state, version, _ = self.turn_played(pages, state, version, 3)

        # 5. White captures Black's large piece: the lit field is marked as a capture.
        self.select(a, [4, 3])
        self.assertEqual(a.locator("#board .dx-reach.capture").count(), 1)
        self.shot(a, "A-capture-offered")
        a.click('#board .dx-end[data-field="4,6"]')
        state, version, seen = self.turn_played(pages, state, version, 4)
        self.assertEqual(seen["S"]["lastCapture"], ["4,6"])
        self.assertEqual(seen["S"]["trays"]["captured by-0"], {"large": 1})
        self.assertEqual(seen["S"]["trays"]["captured by-1"], {})
        self.assertEqual(
            seen["S"]["moves"][-1],
            "White (alice): large piece e4 → e7, facing north (F F F)."
            " Captures a large piece on e7.",
        )
        self.assertGreater(seen["B"]["movable"], 0)
        for name, page in pages.items():
            self.shot(page, f"{name}-after-capture")

        # Clicking and keys on the spectator's page do nothing.
        spectator.click('#board .dx-piece[data-field="4,6"]')
        spectator.keyboard.press("f")
        spectator.keyboard.press("Enter")
        self.assertEqual(self.read(spectator)["version"], version)
        self.assertEqual(spectator.locator("#board .dx-piece.selected").count(), 0)

        # The phone layout of B's page.
        b.set_viewport_size({"width": 390, "height": 844})
        self.select(b, [5, 9])
        b.click('#board .dx-end[data-field="5,8"]')
        b.wait_for_selector('#board .dx-end.focused[data-field="5,8"]')
        self.shot(b, "B-phone")
        self.assertEqual(self.page_errors, [])

    def test_fixed_formation_with_removal_and_backward_steps(self):
        User = get_user_model()
        alice = User.objects.create_user(username="alice", password="s3cret-pass-123")
        bob = User.objects.create_user(username="bob", password="s3cret-pass-123")
        options = {"formation": WHITE_ROW, "removal": True, "backward": True, "move_first": "white"}

        def make_game():
            game = table_create(host=alice, ruleset="daschax", host_seat=0, options=options)
            table_join(game_id=game.pk, user=bob)
            table_start(game_id=game.pk, user=alice)
            return game.pk

        game_id = off_loop(make_game)
        a = self.new_page("A", user=alice)
        b = self.new_page("B", user=bob)
        a.set_viewport_size({"width": 390, "height": 844})
        pages = {"A": a, "B": b}
        for page in pages.values():
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
        state = self.rs.setup(options, 2, 0)
        seen = self.same_everywhere(pages, 1, state)
        self.assertEqual(seen["A"]["phase"], "play")
        self.assertIn("Set by the table: White moves first.", seen["B"]["head"])
        self.assertIn("removing own pieces", seen["B"]["head"])
        self.assertNotIn("places first", seen["B"]["head"])

        # White removes its small piece on a1 (confirmed), then still has to move.
        self.select(a, [0, 0])
        a.once("dialog", lambda dialog: dialog.accept())
        a.click("#board [data-testid=dx-remove]")
        state, _ = self.rs.apply(state, 0, {"type": "remove", "at": [0, 0]})
        seen = self.same_everywhere(pages, 2, state)
        self.assertIn(
            "Removed this turn: a small piece on a1.", b.inner_text("#board .dx-controls")
        )
        self.assertEqual(seen["B"]["trays"]["on-board seat-0"]["small"], 4)

        # Forward and back again changes nothing: the page does not send it.
        self.select(a, [1, 0])
        a.keyboard.press("f")
        a.keyboard.press("b")
        a.wait_for_selector('#board .dx-status[data-steps="FB"]')
        self.assertTrue(a.locator("#board [data-testid=dx-send]").is_disabled())
        a.keyboard.press("Enter")
        a.wait_for_selector("#board .dx-note")
        self.assertIn("must change the piece's field or facing", a.inner_text("#board .dx-note"))
        self.shot(a, "A-phone-noop")
        a.keyboard.press("Backspace")
        a.keyboard.press("Backspace")
        a.keyboard.press("f")
        a.keyboard.press("f")
        a.keyboard.press("Enter")
        state, _ = self.rs.apply(state, 0, {"type": "turn", "at": [1, 0], "steps": ["F", "F"]})
        self.same_everywhere(pages, 3, state)

        # Black steps forward; White steps its medium piece back one field.
        self.select(b, [2, 9])
        b.click('#board button[data-step="F"]')
        b.click("#board [data-testid=dx-send]")
        state, _ = self.rs.apply(state, 1, {"type": "turn", "at": [2, 9], "steps": ["F"]})
        self.same_everywhere(pages, 4, state)
        self.select(a, [1, 2])
        a.click('#board button[data-step="B"]')
        a.click('#board button[data-step="R"]')
        a.wait_for_selector('#board .dx-status[data-steps="BR"]')
        self.shot(a, "A-phone-backward")
        a.click("#board [data-testid=dx-send]")
        state, _ = self.rs.apply(state, 0, {"type": "turn", "at": [1, 2], "steps": ["B", "R"]})
        seen = self.same_everywhere(pages, 5, state)
        self.assertEqual(
            seen["B"]["moves"][-1], "White (alice): medium piece b3 → b2, facing north-east (B R)."
        )
        self.shot(b, "B-formation")
        self.assertEqual(self.page_errors, [])
