"""Malefiz end to end in Chromium: real pages, real sockets, a live Daphne.

1. The host opens a three-seat table from the lobby form; two more players
   join and the host starts. With seed 270 the roll-off is a tie (Green and
   Yellow roll again) and within four turns of sensible play Yellow knocks
   Green's piece home and Red lands on a barricade and places it. Every roll,
   move and placement is clicked in the page; after each action all four
   pages (three players, a spectator at phone width) show the same die,
   pieces, houses, barricades and move list, and only the seat to act has
   anything to click. The spectator's page replays the walk and the flight
   home, and an action it forces through the socket is refused. Green
   resigns and Red declines a bot for its seat (it is shown as left), then
   Red resigns: Yellow wins.
2. A two-seat game put into a position where Green cannot move with any roll
   but a 1: Green rolls, the site passes by itself, and both pages say so.

Run: .venv/bin/pytest tests/browser/test_malefiz_play.py -x -q
(screenshots: artifacts/screenshots/)
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from games.rules.base import draw
from games.rules.malefiz import INDEX, PIECES_PER_SEAT, ROLL, MalefizRuleset, MalefizState
from lobby.services import table_create, table_join, table_start

from .helpers import SHOTS, BrowserLiveTestCase, key, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

RS = MalefizRuleset()
SEED = 270  # roll-off Red 4, Green 5, Yellow 5; again Green 4, Yellow 2: Green starts
HOUSE = "house"
# (seat, action) from the start, found with the engine; comments: the die it shows.
SCRIPT: list[tuple[int, dict[str, Any]]] = [
    (1, {"type": "roll"}),  # 2
    (1, {"type": "move", "from": HOUSE, "to": [8, 1]}),
    (2, {"type": "roll"}),  # 4
    (2, {"type": "move", "from": HOUSE, "to": [8, 1]}),  # knocks Green home
    (0, {"type": "roll"}),  # 5
    (0, {"type": "move", "from": HOUSE, "to": [5, 3]}),  # takes the barricade
    (0, {"type": "barricade", "to": [9, 5]}),
    (1, {"type": "roll"}),  # 1
    (1, {"type": "move", "from": HOUSE, "to": [7, 1]}),
]

# What every page shows alike (the turn line differs: "Your turn" for the seat to act).
SHARED_FIELDS = (
    "version",
    "pieces",
    "home",
    "barricades",
    "inHand",
    "die",
    "rolloff",
    "left",
    "leftHouses",
    "moves",
    "phase",
    "news",
    "status",
)

# What a Malefiz page shows (DOM) and holds (window.__game.model).
PAGE_JS = """() => {
  const g = window.__game;
  const q = (s) => [...document.querySelectorAll(s)];
  const seats = g.model.state?.view?.seats ?? 0;
  const pieces = Array.from({ length: seats }, () => []);
  const home = Array(seats).fill(0);
  for (const el of q("#board .mz-piece")) {
    const seat = Number([...el.classList].find((c) => c.startsWith("seat-")).slice(5));
    if (el.dataset.field === "house") home[seat] += 1;
    else pieces[seat].push(el.dataset.field);
  }
  pieces.forEach((list) => list.sort());
  const text = (id) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? null;
  return {
    version: g.model.version,
    status: g.model.state?.status ?? null,
    seat: g.model.seat,
    phase: document.getElementById("board").dataset.phase ?? null,
    pieces,
    home,
    barricades: q("#board .mz-barricades .mz-barricade:not(.ghost)").map((b) => b.dataset.field).sort(),
    inHand: !!document.querySelector("[data-testid=barricade-in-hand]"),
    die: document.querySelector("[data-testid=die]").dataset.value,
    turn: text("mz-turn"),
    news: text("mz-news"),
    rolloff: text("rolloff"),
    left: document.querySelector("[data-testid=left-seats]").hidden ? null : text("left-seats"),
    leftHouses: q("#board .mz-house.left").map((h) => h.dataset.colour),
    moves: q("#moves li").map((li) => li.textContent),
    movable: q("#board .piece.movable").length,
    targets: q("#board .target").length,
    rollVisible: document.querySelector("[data-testid=roll]").checkVisibility(),
    rollEnabled: !document.querySelector("[data-testid=roll]").disabled,
    banner: document.getElementById("banner").hidden ? null : document.getElementById("banner").textContent,
  };
}"""

# True once no finite animation runs (the pulse on movable pieces never ends).
SETTLED_JS = """() => !document.querySelector("[data-testid=die].rolling") && document.getAnimations()
  .every((a) => a.effect.getTiming().iterations === Infinity || a.playState !== "running")"""

# Records every text the toast shows (the notification socket may toast too).
RECORD_TOASTS_JS = """() => {
  window.__toasts = [];
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("toast");
    new MutationObserver(() => el.hidden || window.__toasts.push(el.textContent))
      .observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
  });
}"""

# Records every Web Animation a page starts (element, keyframes, delay) and
# counts the die's finished tumbles.
RECORD_ANIMATIONS_JS = """() => {
  window.__mzAnims = [];
  window.__mzTumbles = 0;
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver((changes) => {
      for (const c of changes) {
        // A tumble ends with the one class change away from "rolling".
        if (c.target.dataset?.testid === "die" && /\\brolling\\b/.test(c.oldValue || "")) {
          window.__mzTumbles += 1;
        }
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["class"],
                                attributeOldValue: true });
  });
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, opts) {
    window.__mzAnims.push({
      cls: this.getAttribute("class") || "",
      field: this.dataset ? this.dataset.field ?? null : null,
      frames: Array.isArray(frames) ? frames.length : 0,
      delay: (opts && opts.delay) || 0,
    });
    return animate.call(this, frames, opts);
  };
}"""


def expected_after_each(seed: int, seats: int, script) -> list[dict[str, Any]]:
    """The engine's view after each scripted action (and the die it shows)."""
    state = RS.setup({}, seats, seed)
    out = []
    for seat, action in script:
        state, _events = RS.apply(state, seat, action)
        view = RS.view(state, None)
        out.append(
            {
                "pieces": [sorted(key(f) for f in p["fields"]) for p in view["pieces"]],
                "home": [p["home"] for p in view["pieces"]],
                "barricades": sorted(key(b) for b in view["barricades"]),
                "die": str(view["last_roll"]["value"]) if view["last_roll"] else "",
                "phase": view["phase"],
            }
        )
    return out


class MalefizPlayTests(BrowserLiveTestCase):
    def shot(self, page, name: str) -> None:
        """artifacts/screenshots/malefiz-<name>.png once walks, flights and dice have ended."""
        page.wait_for_function(SETTLED_JS)
        page.screenshot(path=str(SHOTS / f"malefiz-{name}.png"))

    def page_state(self, page) -> dict[str, Any]:
        return page.evaluate(PAGE_JS)

    def assert_same_everywhere(self, pages, version, expected=None):
        for page in pages.values():
            self.wait_version(page, version)
            # The die shows its value once it has stopped tumbling.
            page.wait_for_function(
                "() => !document.querySelector('[data-testid=die]').classList.contains('rolling')"
            )
        states = {name: self.page_state(page) for name, page in pages.items()}
        first_name, first = next(iter(states.items()))
        for name, st in states.items():
            for field in SHARED_FIELDS:
                self.assertEqual(st[field], first[field], f"{field}: {name} vs {first_name}")
        if expected is not None:
            for field in ("pieces", "home", "barricades", "die", "phase"):
                self.assertEqual(first[field], expected[field], field)
        spectator = states.get("S")
        if spectator is not None:
            self.assertEqual(spectator["movable"], 0)
            self.assertEqual(spectator["targets"], 0)
            self.assertFalse(spectator["rollVisible"], "the spectator has a Roll button")
        return states

    def roll(self, page, pages, version) -> dict[str, Any]:
        page.wait_for_selector("[data-testid=roll]:not([disabled])")
        page.click("[data-testid=roll]")
        return self.assert_same_everywhere(pages, version + 1)

    def move(self, page, frm, to) -> None:
        """Click the piece (a house piece for "house"), then the lit target."""
        field = "house" if frm == HOUSE else key(frm)
        page.click(f'#board .piece.movable[data-field="{field}"] >> nth=0')
        page.wait_for_selector(f'#board .piece.selected[data-field="{field}"]')
        page.click(f'#board .mz-target:not(.reach)[data-target="{key(to)}"]')

    def test_three_players_and_a_spectator_take_and_place_a_barricade(self):
        User = get_user_model()
        alice, bob, carol = (
            User.objects.create_user(username=n, password="s3cret-pass-123")
            for n in ("alice", "bob", "carol")
        )
        a = self.new_page("A", user=alice)

        # The host opens a three-seat Malefiz table from the lobby form.
        a.goto(self.live_server_url + "/")
        a.select_option("[data-testid=ruleset-select]", "malefiz")
        options = a.eval_on_selector_all("#seat-count option", "os => os.map((o) => o.value)")
        self.assertEqual(options, ["2", "3", "4"])
        a.select_option("#seat-count", "3")
        game_id = self.open_table_by_hand(a)
        a.wait_for_selector("#waiting-seats li.free")
        self.assertEqual(a.locator("#waiting-seats li").count(), 3)
        Game.objects.filter(pk=game_id).update(seed=SEED)
        # Two players take the free seats on the table page; then the host starts.
        b = self.new_page("B", user=bob)
        c = self.new_page("C", user=carol)
        for page in (b, c):
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            page.click("[data-testid=join]")
            page.wait_for_selector("#waiting-actions button:not([data-testid=join])")
        a.wait_for_selector("[data-testid=start]")
        self.shot(a, "ready-to-start")
        a.click("[data-testid=start]")

        s = self.new_page("S")
        s.set_viewport_size({"width": 390, "height": 844})
        s.add_init_script(f"({RECORD_ANIMATIONS_JS})()")
        s.goto(f"{self.live_server_url}/g/{game_id}/")
        pages = {"A": a, "B": b, "C": c, "S": s}
        for page in pages.values():
            self.wait_connected(page)
        states = self.assert_same_everywhere(pages, 1)
        self.assertEqual([states[n]["seat"] for n in "ABCS"], [0, 1, 2, None])
        rolloff = states["S"]["rolloff"]
        for part in ("Red 4", "Green 5", "Yellow 5", "Green 4", "Yellow 2", "Green (bob) starts."):
            self.assertIn(part, rolloff)
        self.assertLess(rolloff.index("Yellow 5"), rolloff.index("Green 4"))
        self.assertEqual(states["B"]["turn"], "Your turn: roll the die.")
        self.assertEqual(states["A"]["turn"], "Green (bob) to roll.")
        self.assertEqual(states["A"]["home"], [5, 5, 5])
        self.assertEqual(len(states["A"]["barricades"]), 11)
        self.assertTrue(states["B"]["rollEnabled"])
        self.assertFalse(states["A"]["rollEnabled"])
        self.assertTrue(states["A"]["rollVisible"])
        self.shot(b, "start-green")
        self.shot(s, "start-spectator-phone")

        by_seat = {0: a, 1: b, 2: c}
        expected = expected_after_each(SEED, 3, SCRIPT)
        version = 1
        for n, (seat, action) in enumerate(SCRIPT):
            page = by_seat[seat]
            exp = expected[n]
            others = [p for s_, p in by_seat.items() if s_ != seat]
            if action["type"] == "roll":
                # Roll: the die tumbles on every page, then shows the value.
                self.assertEqual(self.page_state(page)["movable"], 0)
                page.click("[data-testid=roll]")
            elif action["type"] == "move":
                self.assertFalse(self.page_state(page)["rollEnabled"])
                page.wait_for_selector("#board .piece.movable")
                for other in others:
                    self.assertEqual(self.page_state(other)["movable"], 0)
                if n == 5:
                    self.shot(page, "red-rolled-5-targets")
                self.move(page, action["from"], action["to"])
            else:
                # Placing: the page lights every allowed field, the others wait.
                page.wait_for_selector("#board .mz-place")
                legal = page.evaluate("() => window.__game.model.state.legal.length")
                self.assertEqual(page.locator("#board .mz-place").count(), legal)
                self.assertGreater(legal, 50)
                self.assertEqual(page.locator("#board .mz-target").count(), 0)
                self.shot(page, "red-places-barricade")
                self.shot(s, "spectator-sees-barricade-in-hand")
                page.click(f'#board .mz-place[data-target="{key(action["to"])}"]')
            version += 1
            states = self.assert_same_everywhere(pages, version, exp)

            if n == 3:  # Yellow knocked Green's piece home
                self.assertIn("sends Green (bob) home", states["S"]["moves"][-1])
                anims = s.evaluate("() => window.__mzAnims")
                walk = [x for x in anims if "seat-2" in x["cls"] and x["field"] == "8,1"]
                fly = [x for x in anims if "seat-1" in x["cls"] and x["field"] == "house"]
                self.assertEqual(walk[-1]["frames"], 5)  # house slot + 4 fields
                self.assertEqual(fly[-1]["frames"], 2)
                self.assertGreater(fly[-1]["delay"], 0)  # after the walk arrives
                self.shot(s, "spectator-after-knock-phone")
            if n == 5:  # Red landed on the barricade and holds it
                for st in states.values():
                    self.assertEqual(st["phase"], "barricade")
                    self.assertTrue(st["inHand"])
                self.assertEqual(
                    states["A"]["turn"], "You took a barricade: place it on a lit field."
                )
                self.assertEqual(states["B"]["turn"], "Red (alice) places the barricade.")
                self.assertNotIn("5,3", states["A"]["barricades"])
                self.assertEqual(states["B"]["movable"] + states["C"]["movable"], 0)
            if n == 6:
                self.assertIn("9,5", states["A"]["barricades"])
                self.assertFalse(states["A"]["inHand"])
                anims = s.evaluate("() => window.__mzAnims")
                self.assertTrue(
                    any("mz-barricade" in x["cls"] and x["field"] == "9,5" for x in anims)
                )
                self.shot(a, "after-placing-barricade")
                self.shot(s, "spectator-after-placing-phone")
        self.assertEqual(
            states["S"]["moves"][1:],
            [
                "Green (bob): 2, house → h1",
                "Yellow (carol): 4, house → h1, sends Green (bob) home",
                "Red (alice): 5, house → e3",
                "Red (alice) takes the barricade on e3.",
                "Red (alice) places the barricade on i5.",
                "Green (bob): 1, house → g1",
            ],
        )

        rolls = sum(1 for _seat, action in SCRIPT if action["type"] == "roll")
        self.assertEqual(s.evaluate("() => window.__mzTumbles"), rolls)

        # The spectator cannot act: no controls, and the server refuses a forced action.
        s.evaluate(
            """([game, version]) => window.__game.socket.send({type: "act", game, version,
                 action: {type: "roll"}, ref: "spectator"})""",
            [game_id, version],
        )
        s.wait_for_selector("#toast[data-kind=error]:not([hidden])")
        self.assertEqual(self.page_state(s)["version"], version)

        # Green resigns; Red declines to hand its seat to a bot (services/handover.py):
        # its seat is shown as left, its pieces go, play goes on.
        self.resign(b)
        a.click("[data-testid=handover-decline-1]")
        version += 2
        states = self.assert_same_everywhere(pages, version)
        for name, st in states.items():
            self.assertEqual(st["left"], "Left the game: Green (bob)", name)
            self.assertEqual(st["leftHouses"], ["green"], name)
            self.assertEqual(st["pieces"][1], [], name)
            self.assertEqual(st["home"][1], 0, name)
            self.assertEqual(st["status"], "active", name)
        self.assertFalse(states["B"]["rollVisible"])
        self.assertTrue(states["C"]["rollEnabled"])
        self.shot(c, "green-left")
        self.shot(s, "green-left-phone")

        # Red resigns too: Yellow is the last player left and wins.
        self.resign(a)
        version += 1
        for page in pages.values():
            page.wait_for_selector("#banner:not([hidden])")
        states = self.assert_same_everywhere(pages, version)
        self.assertIn("You won!", states["C"]["banner"])
        for name in "ABS":
            self.assertIn("Yellow (carol) won", states[name]["banner"])
        for name, st in states.items():
            self.assertEqual(st["status"], "finished", name)
            self.assertEqual(st["movable"] + st["targets"], 0, name)
            self.assertFalse(st["rollVisible"], name)
        self.shot(c, "yellow-won")
        self.assertEqual(self.page_errors, [])

    def test_a_player_who_cannot_move_passes_automatically(self):
        User = get_user_model()
        green = User.objects.create_user(username="gina", password="s3cret-pass-123")
        yellow = User.objects.create_user(username="yuri", password="s3cret-pass-123")

        def make_game():
            game = table_create(host=green, ruleset="malefiz", seat_count=2, host_seat=0)
            table_join(game_id=game.pk, user=yellow)
            table_start(game_id=game.pk, user=green)
            return game.pk

        game_id = off_loop(make_game)
        # Green's five pieces are each walled in by barricades: only a 1 moves.
        seed = next(s for s in range(1000) if draw(s, 0, 6) + 1 >= 2)
        roll = draw(seed, 0, 6) + 1
        state = boxed_in_position(seed)
        self.assertEqual([a for a in RS.legal_actions(state, 0)], [{"type": "roll"}])
        Game.objects.filter(pk=game_id).update(state=RS.encode(state), to_act=[0])

        g = self.new_page("G", user=green)
        y = self.new_page("Y", user=yellow)
        y.set_viewport_size({"width": 390, "height": 844})
        pages = {"G": g, "Y": y}
        for page in pages.values():
            page.add_init_script(f"({RECORD_TOASTS_JS})()")
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
        self.shot(g, "pass-before")
        g.click("[data-testid=roll]")
        states = self.assert_same_everywhere(pages, 2)
        line = f"Green (gina) rolled {roll}, cannot move and passes."
        for name, st in states.items():
            self.assertEqual(st["moves"][-1], line, name)
            self.assertEqual(st["news"], line, name)
            self.assertEqual(st["die"], str(roll), name)
        toasts = {
            "G": f"You rolled {roll} and cannot move: your turn passes.",
            "Y": f"Green (gina) rolled {roll} and cannot move: the turn passes.",
        }
        for name, text in toasts.items():
            pages[name].wait_for_function("t => window.__toasts.includes(t)", arg=text)
        self.assertEqual(states["Y"]["turn"], "Your turn: roll the die.")
        self.assertTrue(states["Y"]["rollEnabled"])
        self.assertFalse(states["G"]["rollEnabled"])
        self.shot(g, "pass-announced")
        self.shot(y, "pass-announced-phone")
        self.assertEqual(self.page_errors, [])


def boxed_in_position(seed: int) -> MalefizState:
    """Two seats; Green's pieces sit in dead ends closed by barricades."""
    green = [(9, 13), (1, 12), (17, 12), (9, 10), (7, 8)]
    bars = [(8, 13), (10, 13), (1, 13), (1, 11), (17, 13), (17, 11), (9, 11), (9, 9)]
    bars += [(7, 9), (7, 7), (5, 3)]

    def mask(fields):
        out = 0
        for xy in fields:
            out |= 1 << INDEX[xy]
        return out

    return MalefizState(
        seats=2,
        pieces=(mask(green), mask([(11, 3)])),
        home=(PIECES_PER_SEAT - len(green), PIECES_PER_SEAT - 1),
        bars=mask(bars),
        turn=0,
        phase=ROLL,
        last_roll=(),
        counter=0,
        seed=seed,
        left=(),
        rolloff=(((0, 6), (1, 3)),),
        starter=0,
        last=(),
    )
