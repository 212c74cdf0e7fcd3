"""Seats and pieces are told apart by shape or lightness as well as by colour
(issue 17, item 10). Each board is also shot through a deuteranopia filter
(an SVG feColorMatrix over the whole page), at 1280 and 360 px wide, to be looked at.

- Malefiz (red, green, yellow, blue): every pawn carries its colour's mark, four
  different shapes; the players' swatches have the same four shapes.
- Idiotenspiel (green and red): Robin's counters are square, the Sheriff's
  round; the swatches too.
- Halma and Daschax: the two seats differ in lightness (contrast at least 3:1).
- Hexenhalma (a game master and up to 20 teams): each swatch carries its seat's
  label, the team's number or the game master's star, readable on its colour
  (contrast at least 4.5:1); a round's two sides are white and black.
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.rules import get_ruleset
from games.services.play import game_act

from .helpers import BrowserLiveTestCase, off_loop, settle, started_table
from .test_idiotenspiel_setup_aids import MARIAN, RS, SHERIFF, marian_setup

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Deuteranopia (Machado et al. 2009, severity 1), for the whole page.
DEUTERANOPIA_JS = """() => {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("style", "position:absolute;width:0;height:0");
  svg.innerHTML = '<filter id="deuteranopia" color-interpolation-filters="linearRGB"><feColorMatrix type="matrix" '
    + 'values="0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0"/></filter>';
  document.body.appendChild(svg);
}"""

# Per seat: the shapes of its pieces' marks; per swatch: its computed outline.
MALEFIZ_JS = """() => {
  const marks = {};
  for (const el of document.querySelectorAll("#board .mz-piece")) {
    const seat = [...el.classList].find((c) => c.startsWith("seat-"));
    const mark = el.querySelector(".mz-mark");
    (marks[seat] ||= new Set()).add(mark ? [...mark.classList].find((c) => c.startsWith("mark-")) : null);
  }
  const swatches = [...document.querySelectorAll("#players .swatch")].map((s) => {
    const cs = getComputedStyle(s);
    return `${cs.clipPath}|${cs.borderRadius}`;
  });
  return { marks: Object.fromEntries(Object.entries(marks).map(([k, v]) => [k, [...v]])), swatches };
}"""

# The relative luminance (WCAG) of each seat's piece fill.
LIGHTNESS_JS = """(selectors) => selectors.map((sel) => {
  const el = document.querySelector(sel);
  const [r, g, b] = getComputedStyle(el).fill.match(/[\\d.]+/g).map(Number).map((v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
})"""


# Per swatch of the players' list: its label and the luminance of its text and fill.
SWATCH_LABELS_JS = """() => [...document.querySelectorAll("#players .swatch")].map((s) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const cs = getComputedStyle(s);
  return { label: s.textContent, text: lum(cs.color), fill: lum(cs.backgroundColor),
           shown: s.getBoundingClientRect().width > 0 };
})"""


def contrast(a: float, b: float) -> float:
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


class SeatShapes(BrowserLiveTestCase):
    # The deuteranopia filter is an inline style (and a style attribute), which
    # the site's CSP refuses.
    bypass_csp = True

    def table(self, ruleset: str, users, **kwargs) -> int:
        return started_table(ruleset, users, seed=0, host_seat=0, **kwargs)

    def first_moves(self, game_id: int, users, n: int) -> None:
        """``n`` plies of each seat's first legal action (Daschax starts with an empty board)."""
        for _ in range(n):
            game = Game.objects.get(pk=game_id)
            rs = get_ruleset(game.ruleset)
            state = rs.decode(game.state)
            seat = rs.to_act(state)[0]
            action = rs.legal_actions(state, seat)[0]
            game_act(game_id=game_id, user=users[seat], version=game.version, action=action)

    def look(self, game_id: int, user, name: str):
        """The page at 1280 and 360 px, shot plain and through the filter."""
        pages = []
        for width in (1280, 360):
            page = self.new_page(f"{name}-{width}", user)
            page.set_viewport_size({"width": width, "height": 860 if width > 500 else 760})
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            settle(page)
            self.shot(page, f"{name}-{width}")
            page.evaluate(DEUTERANOPIA_JS)
            page.add_style_tag(content="html { filter: url(#deuteranopia); }")
            self.shot(page, f"{name}-{width}-deuteranopia")
            pages.append(page)
        return pages

    def test_malefiz_pawns_and_swatches_have_a_shape_per_seat(self):
        users = off_loop(self.users, "rot", "gruen", "gelb", "blau")
        game_id = self.table("malefiz", users, seat_count=4)
        for page in self.look(game_id, users[0], "malefiz"):
            seen = page.evaluate(MALEFIZ_JS)
            assert sorted(seen["marks"]) == ["seat-0", "seat-1", "seat-2", "seat-3"], seen
            shapes = [seen["marks"][f"seat-{i}"] for i in range(4)]
            assert all(len(s) == 1 and s[0] for s in shapes), shapes
            assert len({s[0] for s in shapes}) == 4, shapes
            assert len(set(seen["swatches"])) == 4, seen["swatches"]
        assert not self.page_errors

    def test_idiotenspiel_sides_differ_in_shape(self):
        robin, sheriff = off_loop(self.users, "robin", "sheriff")
        game_id = self.table("idiotenspiel", [robin, sheriff], options=MARIAN)

        def set_up():
            state = RS.setup(RS.validate_options(MARIAN), 2, 0)
            version = Game.objects.get(pk=game_id).version
            for seat, action in marian_setup(state):
                user = sheriff if seat == SHERIFF else robin
                version = game_act(game_id=game_id, user=user, version=version, action=action)

        off_loop(set_up)
        for page in self.look(game_id, robin, "idiotenspiel"):
            chips = page.evaluate(
                """() => [0, 1].map((side) => [...new Set([...document.querySelectorAll(
                     `#board .ids-units .ids-unit.side-${side}:not(.type-civilian) > .ids-chip`)]
                     .map((c) => c.tagName))])"""
            )
            assert chips == [["rect"], ["circle"]], chips
            swatches = page.eval_on_selector_all(
                "#players .swatch",
                "els => els.map((s) => getComputedStyle(s).clipPath + '|' + getComputedStyle(s).borderRadius)",
            )
            assert len(set(swatches)) == 2, swatches
        assert not self.page_errors

    def test_halma_and_daschax_seats_differ_in_lightness(self):
        a, b = off_loop(self.users, "hell", "dunkel")
        for ruleset, selectors in (
            ("halma", ["#board .piece.seat-0", "#board .piece.seat-1"]),
            ("daschax", ["#board .seat-0 > .dx-base", "#board .seat-1 > .dx-base"]),
        ):
            game_id = self.table(ruleset, [a, b])
            off_loop(self.first_moves, game_id, [a, b], 2)
            for page in self.look(game_id, a, ruleset):
                light = page.evaluate(LIGHTNESS_JS, selectors)
                assert contrast(*light) >= 3, (ruleset, light)
        assert not self.page_errors

    def test_hexenhalma_teams_carry_their_number(self):
        users = off_loop(self.users, "meister", "hexe1", "hexe2", "hexe3", "hexe4", "hexe5")
        game_id = started_table("hexenhalma", users, seat_count=len(users))
        for page in self.look(game_id, users[1], "hexenhalma"):
            swatches = page.evaluate(SWATCH_LABELS_JS)
            assert [s["label"] for s in swatches] == ["\u2605", "1", "2", "3", "4", "5"], swatches
            for s in swatches:
                assert s["shown"] and contrast(s["text"], s["fill"]) >= 4.5, s
        assert not self.page_errors
