"""Das Idiotenspiel end to end in Chromium: real pages, real sockets, a live Daphne.

1. Grundspiel on Die Burg. The Sheriff (start player) picks his side by clicking;
   the set-up and four turns of approach are played through the services, Robin's
   last unit is placed by clicking a lit field. Then, through the UI: the Sheriff's
   movement phase (a cavalry unit rides next to Robin's infantry), "End movement",
   the melee (attacker, then defender on the map), Robin choosing the retreat field
   on the map and the Sheriff advancing. A desktop and a phone spectator watch;
   after every step all four pages show the same counters, move list and fight
   text. The seed is found with the engine so that the dice give the retreat.
2. A table with a 3-second sandglass: nobody moves; the real server's sweeper ends
   the Sheriff's movement phase, then Robin's, and the two quiet turns end the game
   in a draw, on both pages.

Run: .venv/bin/pytest tests/browser/test_idiotenspiel_play.py -x -q
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.rules.idiotenspiel import IdiotenspielRuleset

from .helpers import (
    SHOTS,
    TIMEOUT_MS,
    BrowserLiveTestCase,
    key,
    play_scripted,
    settle,
    started_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]

RS = IdiotenspielRuleset()
ROBIN, SHERIFF = 0, 1

# Set-up: the Sheriff (west edge) keeps his army in the north-west corner but for the
# cavalry s13; Robin (east edge) keeps his in the north-east woods but for infantry r1.
# Robin's archers stand more than 3 fields from the fight, so nobody else may join in.
SHERIFF_REST = [f"s{i}" for i in [*range(1, 13), *range(14, 18)]]
SHERIFF_FIELDS = [[x, y] for y in range(5) for x in range(5) if [x, y] != [0, 0]][
    : len(SHERIFF_REST)
]
SHERIFF_SETUP = [("s0", [0, 0]), ("s13", [9, 12]), *zip(SHERIFF_REST, SHERIFF_FIELDS, strict=True)]
ROBIN_REST = ["r0", *(f"r{i}" for i in range(2, 23))]
ROBIN_FIELDS = [[x, y] for y in range(8) for x in range(22, 28)][: len(ROBIN_REST)]
ROBIN_SETUP = [("r1", [18, 12]), *zip(ROBIN_REST, ROBIN_FIELDS, strict=True)]
LAST_PLACED = ROBIN_SETUP[-1]  # placed through the page
APPROACH = [
    (SHERIFF, {"type": "move", "unit": "s13", "to": [12, 12]}),
    (SHERIFF, {"type": "end_movement"}),
    (ROBIN, {"type": "move", "unit": "r1", "to": [17, 13]}),
    (ROBIN, {"type": "end_movement"}),
    (SHERIFF, {"type": "move", "unit": "s13", "to": [13, 12]}),
    (SHERIFF, {"type": "end_movement"}),
    (ROBIN, {"type": "move", "unit": "r2", "to": [23, 1]}),
    (ROBIN, {"type": "end_movement"}),
]
CHARGE_TO = [16, 13]  # the Sheriff's cavalry rides here, next to r1 on [17, 13]
CHARGE = [
    (SHERIFF, {"type": "move", "unit": "s13", "to": CHARGE_TO}),
    (SHERIFF, {"type": "end_movement"}),
]
RETREAT_TO = [18, 13]


def options(sandglass: int) -> dict:
    return {"scenario": "grundspiel", "map": "die_burg", "sandglass": sandglass}


def set_up_actions(state):
    """The placements after the side choice, by the engine's turn order."""
    queues = {SHERIFF: list(SHERIFF_SETUP), ROBIN: list(ROBIN_SETUP)}
    out = []
    while queues[ROBIN] or queues[SHERIFF]:
        seat = RS.to_act(state)[0]
        unit, at = queues[seat].pop(0)
        action = {"type": "place", "unit": unit, "at": at}
        state, _ = RS.apply(state, seat, action)
        out.append((seat, action))
    return state, out


def opening(seed: int, sandglass: int):
    state = RS.setup(options(sandglass), 2, seed)
    state, _ = RS.apply(state, SHERIFF, {"type": "choose_setup", "side": "W", "zone": "edge"})
    return set_up_actions(state)


def charge(seed: int):
    """The engine's answer to the test's play: the state and events of the melee."""
    state, _ = opening(seed, 600)
    for seat, action in [*APPROACH, *CHARGE]:
        state, _ = RS.apply(state, seat, action)
    return RS.apply(state, SHERIFF, {"type": "attack", "unit": "s13", "target": "r1"})


def find_seed() -> int:
    """A seed where the Sheriff starts and his charge makes Robin's infantry retreat
    (no 6+), with several fields to choose from and an advance offered."""
    for seed in range(1000):
        if RS.setup(options(600), 2, seed).start_player != SHERIFF:
            continue
        state, events = charge(seed)
        fight = next(e for e in events if e["type"] == "fight")
        p = state.pending
        if (
            fight["result"]["retreat"] == "r1"
            and p is not None
            and p.kind == "retreat"
            and tuple(RETREAT_TO) in p.options
        ):
            return seed
    raise AssertionError("no seed gives the wanted fight")


# Reads the board as drawn: counters per field, lit fields, the prompt, the sandglass.
BOARD_JS = """() => {
  const g = window.__game;
  const units = {};
  for (const el of document.querySelectorAll("#board .ids-units .ids-unit[data-unit]")) {
    units[el.dataset.unit] = el.dataset.field;
  }
  const glass = document.querySelector("#board .ids-glass");
  return {
    version: g ? g.model.version : null,
    phase: g && g.model.state ? g.model.state.view.phase : null,
    units,
    lit: [...document.querySelectorAll("#board .ids-target")].map((e) => e.dataset.field).sort(),
    moves: [...document.querySelectorAll("#moves li")].map((li) => li.textContent),
    prompt: document.querySelector("#board .ids-prompt").textContent,
    title: document.querySelector("#board .ids-title").textContent,
    fight: (document.querySelector("#board .ids-fight:not([hidden]) .ids-fight-result") || {}).textContent || null,
    glassRunning: glass.dataset.running === "1",
    glassLeft: glass.dataset.remaining === undefined ? null : Number(glass.dataset.remaining),
    glassText: glass.textContent,
    banner: document.getElementById("banner").hidden ? null : document.getElementById("banner").textContent,
  };
}"""


class IdiotenspielPlayTests(BrowserLiveTestCase):
    def shot(self, page, name: str, full: bool = False) -> None:
        page.screenshot(path=str(SHOTS / f"idiotenspiel-{name}.png"), full_page=full)

    def board(self, page) -> dict:
        return page.evaluate(BOARD_JS)

    def make_table(self, sandglass: int, seed: int):
        robin, sheriff = self.users("robin", "sheriff")
        game_id = started_table(
            "idiotenspiel", [robin, sheriff], seed=seed, host_seat=ROBIN, options=options(sandglass)
        )
        return robin, sheriff, game_id

    def agree(self, pages: dict, version: int) -> dict:
        """Every page at ``version`` shows the same counters, move list and fight."""
        for page in pages.values():
            self.wait_version(page, version)
        boards = {name: self.board(page) for name, page in pages.items()}
        first_name, first = next(iter(boards.items()))
        for name, b in boards.items():
            self.assertEqual(b["version"], version, name)
            for field in ("units", "moves", "fight", "title", "phase"):
                self.assertEqual(b[field], first[field], f"{field}: {name} vs {first_name}")
        return boards

    def phone_page(self, name: str):
        """A spectator on a phone-sized screen."""
        ctx = self.browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        self._contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.page_errors.append(f"{name}: {exc}"))
        return page

    def click_field(self, page, field, cls: str = "") -> None:
        page.click(f'#board .ids-target{cls}[data-field="{key(field)}"]')

    def test_movement_melee_retreat_and_advance_watched_by_a_spectator(self):
        seed = find_seed()
        fight = next(e for e in charge(seed)[1] if e["type"] == "fight")
        robin, sheriff, game_id = self.make_table(600, seed)
        users = {ROBIN: robin, SHERIFF: sheriff}
        r = self.new_page("Robin", user=robin)
        s = self.new_page("Sheriff", user=sheriff)
        spectator = self.new_page("S")
        phone = self.phone_page("Phone")
        pages = {"Robin": r, "Sheriff": s, "S": spectator, "Phone": phone}
        for page in pages.values():
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)

        # The Sheriff starts and chooses the west edge by clicking.
        s.wait_for_selector("[data-testid=choose-W-edge]")
        self.assertEqual(r.locator("#board .ids-buttons button").count(), 0)
        self.shot(s, "choose-side")
        s.click("[data-testid=choose-W-edge]")
        self.agree(pages, 2)

        # The set-up through the services, all but Robin's last unit.
        state = RS.decode(Game.objects.get(pk=game_id).state)
        _, placements = set_up_actions(state)
        self.assertEqual(
            placements[-1], (ROBIN, {"type": "place", "unit": LAST_PLACED[0], "at": LAST_PLACED[1]})
        )
        version = play_scripted(game_id, users, placements[:-1])
        self.agree(pages, version)
        # Robin's page lights the fields his last archer may take; he clicks one.
        r.wait_for_selector("#board .ids-kind.selected")
        lit = self.board(r)["lit"]
        self.assertIn(key(LAST_PLACED[1]), lit)
        self.assertGreater(len(lit), 40)
        self.assertTrue(
            all(int(f.split(",")[0]) >= 18 for f in lit), "outside Robin's east set-up band"
        )
        self.assertEqual(self.board(s)["lit"], [])
        self.shot(r, "setup-lit-fields")
        self.click_field(r, LAST_PLACED[1], ".place")
        boards = self.agree(pages, version + 1)
        self.assertEqual(boards["S"]["units"][LAST_PLACED[0]], key(LAST_PLACED[1]))
        self.assertEqual(boards["S"]["phase"], "move")
        self.assertEqual(len(boards["S"]["units"]), 41)

        # Two turns each of approach through the services.
        version = play_scripted(game_id, users, APPROACH)
        boards = self.agree(pages, version)
        self.assertEqual(boards["S"]["units"]["s13"], "13,12")
        self.assertEqual(boards["S"]["units"]["r1"], "17,13")

        # The Sheriff's movement phase: the sandglass runs on every page.
        for name, b in boards.items():
            self.assertTrue(b["glassRunning"], name)
            self.assertGreater(b["glassLeft"], 500, name)
        self.assertIn("Turn 5", boards["S"]["title"])
        s.click('#board .ids-unit[data-unit="s13"]')
        s.wait_for_selector(f'#board .ids-target.move[data-field="{key(CHARGE_TO)}"]')
        lit = self.board(s)["lit"]
        legal = s.evaluate(
            "() => window.__game.model.state.legal.filter((a) => a.unit === 's13').map((a) => a.to.join(','))"
        )
        self.assertEqual(sorted(set(legal)), lit)
        self.shot(s, "movement-reachable")
        self.click_field(s, CHARGE_TO, ".move")
        boards = self.agree(pages, version + 1)
        self.assertEqual(boards["Robin"]["units"]["s13"], key(CHARGE_TO))
        self.assertEqual(boards["S"]["moves"][-1], "Sheriff's cavalry M14 \u2192 N17.")
        self.shot(spectator, "spectator-after-move", full=True)
        s.click("[data-testid=end-movement]")
        boards = self.agree(pages, version + 2)
        self.assertEqual(boards["S"]["phase"], "combat")
        self.assertFalse(boards["S"]["glassRunning"])
        self.assertIn("must fight", boards["Sheriff"]["prompt"])
        self.assertEqual(s.locator("[data-testid=end-combat]").count(), 0)

        # The melee: attacker, then the defender's field; every page shows the dice.
        s.click('#board .ids-unit[data-unit="s13"]')
        s.wait_for_selector('#board .ids-target.attack[data-field="17,13"]')
        self.assertEqual(s.locator("#board .ids-attack-btn").count(), 1)
        self.shot(s, "combat-pairing")
        self.click_field(s, [17, 13], ".attack")
        boards = self.agree(pages, version + 3)
        a, d = fight["attacker"], fight["defender"]
        text = f"Sheriff's cavalry {a['die']}+1 vs Robin's infantry {d['die']}: infantry retreats"
        for name, b in boards.items():
            self.assertEqual(b["fight"], "Infantry retreats", name)
            self.assertEqual(b["moves"][-1], text, name)
        self.assertIn("must retreat", boards["Robin"]["prompt"])
        self.assertIn("chooses where", boards["S"]["prompt"])
        self.assertGreater(len(boards["Robin"]["lit"]), 1)
        self.assertEqual(boards["Sheriff"]["lit"], [])
        spectator.wait_for_selector("#board .ids-maybe")
        self.shot(r, "retreat-choice")
        self.shot(spectator, "spectator-fight")
        settle(phone)  # dice stopped rolling, witches done gliding
        self.shot(phone, "phone-fight")

        # Robin retreats on the map; the Sheriff advances on the map.
        self.click_field(r, RETREAT_TO, ".retreat")
        boards = self.agree(pages, version + 4)
        self.assertEqual(boards["S"]["units"]["r1"], key(RETREAT_TO))
        self.assertEqual(boards["Sheriff"]["lit"], ["17,13"])
        s.wait_for_selector("[data-testid=advance]")
        self.shot(s, "advance-offer")
        self.click_field(s, [17, 13], ".advance")
        boards = self.agree(pages, version + 5)
        self.assertEqual(boards["S"]["units"]["s13"], "17,13")
        moves = boards["S"]["moves"]
        self.assertIn("Robin's infantry retreats to N19.", moves)
        self.assertIn("Sheriff's cavalry advances to N18.", moves)
        self.assertIn("Combat over.", moves)
        self.assertEqual(moves[-1], "Turn 6: Robin Hood (robin) moves.")
        self.assertEqual(boards["S"]["phase"], "move")
        self.assertTrue(boards["Robin"]["glassRunning"])
        for name, page in pages.items():
            self.shot(page, f"{name}-after-advance")
        self.assertEqual(self.page_errors, [])

    def test_a_short_sandglass_runs_out_by_itself(self):
        seed = next(s for s in range(100) if RS.setup(options(3), 2, s).start_player == SHERIFF)
        robin, sheriff, game_id = self.make_table(3, seed)
        users = {ROBIN: robin, SHERIFF: sheriff}
        _, placements = opening(seed, 3)
        r = self.new_page("Robin", user=robin)
        s = self.new_page("Sheriff", user=sheriff)
        pages = {"Robin": r, "Sheriff": s}
        play_scripted(
            game_id, users, [(SHERIFF, {"type": "choose_setup", "side": "W", "zone": "edge"})]
        )
        version = play_scripted(game_id, users, placements[:-1])
        for page in pages.values():
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
        self.agree(pages, version)
        # Robin's last placement starts the Sheriff's 3-second movement phase.
        r.wait_for_selector("#board .ids-kind.selected")
        self.click_field(r, LAST_PLACED[1], ".place")
        boards = self.agree(pages, version + 1)
        for name, b in boards.items():
            self.assertTrue(b["glassRunning"], name)
            self.assertLessEqual(b["glassLeft"], 3, name)
        self.shot(s, "sandglass-running")
        # Nobody moves: the server ends the phase, then Robin's, then calls the draw.
        for page in pages.values():
            page.wait_for_function(
                "() => [...document.querySelectorAll('#moves li')].some((li) =>"
                " li.textContent === 'Turn 2: Robin Hood (robin) moves.')",
                timeout=15_000,
            )
        self.shot(r, "sandglass-robin-turn")
        for page in pages.values():
            page.wait_for_selector("#banner:not([hidden])", timeout=15_000)
        final = Game.objects.get(pk=game_id).version
        boards = self.agree(pages, final)
        for name, b in boards.items():
            ran_out = [m for m in b["moves"] if m == "The sandglass ran out: movement is over."]
            self.assertEqual(len(ran_out), 2, name)
            self.assertIn("Draw", b["banner"], name)
            self.assertIn("two turns in a row", b["banner"], name)
            self.assertFalse(b["glassRunning"], name)
        self.shot(s, "sandglass-draw")
        self.assertEqual(self.page_errors, [])
