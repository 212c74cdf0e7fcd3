"""Phones and turns (issue 17, the items left over): lit fields a 44 px finger can
hit, 44 px buttons on the game page, the lobby's form inside 360 px, and the typed
move box that waits for the player's turn. Every state is shot at 1280 and 360 px.

- Malefiz barricade placement on a 360 px phone lights ~80 fields 10 units apart,
  about 18 px: "Zoom board" scales the picture into a box that scrolls; zoomed,
  every lit field is at least 44 px from the next, and a tap up to 21 px off its
  centre (a 44 px finger) still lands on it, never on a neighbour.
- The game page's buttons and inputs are at least 44 px tall on a phone.
- The lobby's time-control select fits a 360 px screen.
- The "Type a move" box is disabled, saying "Wait for your turn", while it is the
  opponent's turn, and enabled when it is the player's.
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.rules import get_ruleset
from games.services.play import game_act

from .helpers import BrowserLiveTestCase, off_loop, scroll_into_view, settle, started_table
from .test_malefiz_play import SCRIPT, SEED

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 760}
FINGER = 44

# Centres (page px) of the lit fields, and the least distance between two of them.
TARGETS_JS = """() => {
  const lit = "#board .target, #board .ids-target, #board .hh-target";
  const c = [...document.querySelectorAll(lit)].map((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  let least = Infinity;
  for (let i = 0; i < c.length; i++)
    for (let j = i + 1; j < c.length; j++) least = Math.min(least, Math.hypot(c[i].x - c[j].x, c[i].y - c[j].y));
  return { count: c.length, least };
}"""

# The least distance between the centres of the elements ``sel`` matches (a board's fields).
SPREAD_JS = """(sel) => {
  const c = [...document.querySelectorAll(sel)].map((el) => {
    const r = el.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  });
  let least = Infinity;
  for (let i = 0; i < c.length; i++)
    for (let j = i + 1; j < c.length; j++) least = Math.min(least, Math.hypot(c[i][0] - c[j][0], c[i][1] - c[j][1]));
  return least;
}"""

# For each lit field: scrolled into view, what a tap at its centre and 21 px off it
# (eight directions) would hit; the keys hit that are not its own.
FINGER_JS = """(reach) => {
  const wrong = [];
  for (const el of document.querySelectorAll("#board .target")) {
    el.scrollIntoView({ block: "center", inline: "center" });
    const r = el.getBoundingClientRect();
    const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
    for (let a = 0; a < 8; a++) {
      const x = cx + reach * Math.cos(a * Math.PI / 4), y = cy + reach * Math.sin(a * Math.PI / 4);
      const hit = document.elementFromPoint(x, y);
      const k = hit?.dataset.target ?? hit?.dataset.hit ?? null;
      if (k !== el.dataset.target) wrong.push([el.dataset.target, a, k]);
    }
  }
  return wrong;
}"""

# The options of a select whose text is wider than the select shows (cut off on screen).
CUT_OPTIONS_JS = """(sel) => {
  const s = document.querySelector(sel), cs = getComputedStyle(s);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16; // the arrow
  return [...s.options].map((o) => o.text).filter((t) => ctx.measureText(t).width > room);
}"""

# Every rendered button and text input of the game page, with its height.
SIZES_JS = """() => [...document.querySelectorAll(
    "#game button, #game .button, #game input:not([type=range]):not([type=checkbox])")]
  .filter((el) => el.checkVisibility())
  .map((el) => [el.id || el.dataset.testid || el.textContent.trim(), Math.round(el.getBoundingClientRect().height)])"""


class PhoneTouch(BrowserLiveTestCase):
    def table(self, ruleset: str, users, seed: int = 0, **kwargs) -> int:
        return started_table(ruleset, users, seed=seed, host_seat=0, **kwargs)

    def phone(self, name: str, user, game_id: int):
        page = self.new_page(name, user)
        page.set_viewport_size(PHONE)
        page.goto(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(page)
        settle(page)
        return page

    def both_widths(self, page, name: str, show: str | None = None) -> None:
        for width in (1280, 360):
            page.set_viewport_size({"width": width, "height": 860 if width > 500 else 760})
            settle(page)
            if show:
                page.locator(show).scroll_into_view_if_needed()
            self.shot(page, f"{name}-{width}")
        page.set_viewport_size(PHONE)

    def test_malefiz_barricade_fields_take_a_finger_once_zoomed(self):
        users = off_loop(self.users, "red", "green", "yellow")
        game_id = self.table("malefiz", users, seed=SEED, seat_count=3)

        def play():
            for seat, action in SCRIPT[:6]:  # Red ends holding a barricade
                version = Game.objects.get(pk=game_id).version
                game_act(game_id=game_id, user=users[seat], version=version, action=action)

        off_loop(play)
        page = self.phone("red", users[0], game_id)
        page.wait_for_selector("#board .mz-place")
        self.both_widths(page, "barricade")
        plain = page.evaluate(TARGETS_JS)
        assert plain["count"] > 60, plain
        assert plain["least"] < FINGER, plain  # why the zoom is needed at all

        for label, height in page.evaluate(SIZES_JS):
            assert height >= FINGER, (label, height)
        page.click("[data-testid=zoom]")
        assert page.get_attribute("[data-testid=zoom]", "aria-pressed") == "true"
        zoomed = page.evaluate(TARGETS_JS)
        assert zoomed["count"] == plain["count"], zoomed
        assert zoomed["least"] >= FINGER, zoomed
        settle(page)
        self.shot(page, "barricade-zoomed-360")
        assert page.evaluate(FINGER_JS, FINGER / 2 - 1) == []
        # A tap 15 px off the centre of a lit field places the barricade there.
        target = page.locator("#board .mz-place[data-target='9,5']")
        scroll_into_view(page, "#board .mz-place[data-target='9,5']")
        box = target.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2 + 15, box["y"] + box["height"] / 2)
        page.wait_for_function("() => !document.querySelector('#board .mz-place')")
        self.wait_version(page, 8)
        settle(page)
        self.shot(page, "barricade-placed-zoomed-360")
        barricades = page.evaluate("() => window.__game.model.state.view.barricades")
        assert [9, 5] in barricades, barricades
        assert not self.page_errors

    def test_halma_lit_fields_are_a_finger_apart_once_zoomed(self):
        a, b = off_loop(self.users, "anna", "ben")
        game_id = self.table("halma", [a, b])
        page = self.phone("anna", a, game_id)
        page.click("#board .piece.movable")
        page.wait_for_selector("#board .target")
        page.click("[data-testid=zoom]")
        zoomed = page.evaluate(TARGETS_JS)
        assert zoomed["count"] >= 1 and zoomed["least"] >= FINGER, zoomed
        settle(page)
        self.shot(page, "halma-zoomed-360")
        for label, height in page.evaluate(SIZES_JS):
            assert height >= FINGER, (label, height)
        assert not self.page_errors

    def test_lobby_time_control_fits_a_phone(self):
        (user,) = off_loop(self.users, "lena")
        page = self.new_page("lena", user)
        page.set_viewport_size(PHONE)
        page.goto(self.live_server_url + "/")
        self.both_widths(page, "lobby-form")
        for sel in ("[data-testid=clock-kind]", "[data-testid=ruleset-select]", "#clock-days"):
            box = page.locator(sel).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (sel, box)
        for sel in (
            "[data-testid=clock-kind]",
            "[data-testid=bot-clock]",
            "[data-testid=bot-level]",
        ):
            assert page.evaluate(CUT_OPTIONS_JS, sel) == [], sel
        page.select_option("[data-testid=clock-kind]", "realtime")
        for sel in ("[data-testid=clock-kind]", "#clock-minutes", "#clock-increment"):
            box = page.locator(sel).bounding_box()
            assert box["x"] + box["width"] <= PHONE["width"], (sel, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        self.shot(page, "lobby-form-realtime-360")
        assert not self.page_errors

    def test_the_move_box_waits_for_the_players_turn(self):
        a, b = off_loop(self.users, "anna", "ben")
        game_id = self.table("halma", [a, b])
        pa = self.phone("anna", a, game_id)
        pb = self.phone("ben", b, game_id)
        box = "[data-testid=move-input]"
        assert pa.is_enabled(box)
        assert pb.is_disabled(box)
        assert "Wait for your turn" in pb.inner_text("#move-help")
        self.both_widths(pb, "move-box-waiting", show="#move-form")

        def first_move():
            game = Game.objects.get(pk=game_id)
            rs = get_ruleset("halma")
            action = rs.legal_actions(rs.decode(game.state), 0)[0]
            game_act(game_id=game_id, user=a, version=game.version, action=action)

        off_loop(first_move)
        for page in (pa, pb):
            self.wait_version(page, 2)
        pb.wait_for_selector(f"{box}:enabled")
        pa.wait_for_selector(f"{box}:disabled")
        assert "Wait for your turn" not in pb.inner_text("#move-help")
        self.both_widths(pb, "move-box-my-turn", show="#move-form")
        assert not self.page_errors

    def test_idiotenspiel_moves_typed_in_the_move_lists_field_names(self):
        robin, sheriff = off_loop(self.users, "robin", "sheriff")
        options = {"scenario": "grundspiel", "map": "die_burg", "sandglass": 600}
        game_id = self.table("idiotenspiel", [robin, sheriff], options=options)
        users = [robin, sheriff]

        def act_until(phase_done):
            """Each seat to act plays its first legal action until ``phase_done(view)``."""
            while True:
                game = Game.objects.get(pk=game_id)
                rs = get_ruleset("idiotenspiel")
                state = rs.decode(game.state)
                view = rs.view(state, None)
                if phase_done(view):
                    return
                seat = rs.to_act(state)[0]
                action = rs.legal_actions(state, seat)[0]
                game_act(game_id=game_id, user=users[seat], version=game.version, action=action)

        def seat_to_act() -> int:
            rs = get_ruleset("idiotenspiel")
            return rs.to_act(rs.decode(Game.objects.get(pk=game_id).state))[0]

        off_loop(act_until, lambda v: v["phase"] == "setup")
        seat = off_loop(seat_to_act)
        page = self.phone("placer", users[seat], game_id)
        version = page.evaluate("() => window.__game.model.version")
        # Zoomed, the map's lit fields (28 a row) are a finger apart.
        page.wait_for_selector("#board .ids-target")
        page.click("[data-testid=zoom]")
        zoomed = page.evaluate(TARGETS_JS)
        assert zoomed["count"] > 1 and zoomed["least"] >= FINGER, zoomed
        settle(page)
        self.shot(page, "idiotenspiel-zoomed-360")
        page.click("[data-testid=zoom]")
        # Bad input: a clear message, nothing sent.
        for text, said in (
            ("roll", "is not a legal move now"),
            ("infantry Z99", "not a legal move"),
            ("hello", "Write a field"),
            ("C4", "Name the unit to place"),
        ):
            page.fill("[data-testid=move-input]", text)
            page.press("[data-testid=move-input]", "Enter")
            page.wait_for_function(
                "s => document.querySelector('[data-testid=move-error]').textContent.includes(s)",
                arg=said,
            )
        assert page.evaluate("() => window.__game.model.version") == version
        # A placement: a plain unit's type and a lit field.
        place = page.evaluate("""() => {
          const st = window.__game.model.state;
          const units = Object.fromEntries(st.view.units.map((u) => [u.id, u]));
          const a = st.legal.find((a) => a.type === "place" && !units[a.unit].leader && units[a.unit].type === "infantry");
          return { field: String.fromCharCode(65 + a.at[1]) + (a.at[0] + 1), at: a.at };
        }""")
        page.fill("[data-testid=move-input]", f"infantry {place['field']}")
        page.press("[data-testid=move-input]", "Enter")
        self.wait_version(page, version + 1)
        placed = page.evaluate(
            "at => window.__game.model.state.view.units.filter((u) => u.at && u.at[0] === at[0] && u.at[1] === at[1]).map((u) => u.type)",
            place["at"],
        )
        assert placed == ["infantry"], placed
        self.both_widths(page, "idiotenspiel-typed-place", show="#move-form")

        # Movement: a unit alone on its field, moved by its two field names.
        off_loop(act_until, lambda v: v["phase"] == "move")
        mover = off_loop(seat_to_act)
        page = self.phone("mover", users[mover], game_id)
        version = page.evaluate("() => window.__game.model.version")
        move = page.evaluate("""() => {
          const st = window.__game.model.state;
          const name = ([x, y]) => String.fromCharCode(65 + y) + (x + 1);
          const units = Object.fromEntries(st.view.units.map((u) => [u.id, u]));
          const alone = (u) => st.view.units.filter((v) => v.at && v.at[0] === u.at[0] && v.at[1] === u.at[1]).length === 1;
          const a = st.legal.find((a) => a.type === "move" && !a.facing && !a.with && alone(units[a.unit])
            && (a.to[0] !== units[a.unit].at[0] || a.to[1] !== units[a.unit].at[1]));
          return { text: `${name(units[a.unit].at)}-${name(a.to)}`, unit: a.unit, to: a.to };
        }""")
        page.fill("[data-testid=move-input]", move["text"])
        page.press("[data-testid=move-input]", "Enter")
        self.wait_version(page, version + 1)
        where = page.evaluate(
            "id => window.__game.model.state.view.units.find((u) => u.id === id).at", move["unit"]
        )
        assert where == move["to"], (move, where)
        assert page.input_value("[data-testid=move-input]") == ""
        self.both_widths(page, "idiotenspiel-typed-move", show="#move-form")
        assert not self.page_errors

    def test_hexenhalma_arena_fields_are_a_finger_wide_once_zoomed(self):
        gm, team, other = off_loop(self.users, "meister", "hexe1", "hexe2")
        game_id = self.table("hexenhalma", [gm, team, other])
        g = self.new_page("gm", gm)
        g.goto(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(g)
        g.select_option("[data-testid=hh-preset]", "arena")
        g.click("[data-testid=hh-load-preset]")
        g.wait_for_function("() => document.querySelectorAll('#board rect.hh-cell').length === 900")
        g.click("[data-testid=hh-open-round]")
        page = self.phone("team", team, game_id)
        page.wait_for_selector("#board .hh-target")
        plain = page.evaluate(TARGETS_JS)
        assert plain["least"] < FINGER, plain  # 30 fields a row on a 340 px board
        page.click("[data-testid=zoom]")
        zoomed = page.evaluate(TARGETS_JS)
        assert zoomed["count"] == plain["count"] and zoomed["least"] >= FINGER, zoomed
        scroll_into_view(page, "#board .hh-target")
        settle(page)
        self.shot(page, "hexenhalma-zoomed-360")
        for label, height in page.evaluate(SIZES_JS):
            assert height >= FINGER, (label, height)
        assert not self.page_errors

    def test_daschax_fields_are_a_finger_apart_once_zoomed(self):
        a, b = off_loop(self.users, "anna", "ben")
        game_id = self.table("daschax", [a, b])
        page = self.phone("anna", a, game_id)
        page.click("[data-testid=zoom]")
        assert page.evaluate(SPREAD_JS, "#board .dx-cell") >= FINGER
        settle(page)
        self.shot(page, "daschax-zoomed-360")
        for label, height in page.evaluate(SIZES_JS):
            assert height >= FINGER, (label, height)
        assert not self.page_errors
