"""Issue 29, item 6 in Chromium: axe-core (npm, dev-only) finds no serious and
no critical violation on any page a person reaches: the lobby, each game's page
in play and finished, a replay, a profile, a leaderboard, the settings and the
remis queue; and a skip link takes the keyboard past the header to the board.

The move and chat lists are made short (a style injected for the test) so they
scroll on every page, as a long game's do: axe checks the scrolling list only
when it scrolls. Daschax is played a few moves in, so pieces are on the board.
Results: artifacts/screenshots/axe-ux29.json; every page shot at 1280 and 360 px.

Run: .venv/bin/pytest tests/browser/test_ux29_a11y.py -rA
"""

from __future__ import annotations

import json
import random

import pytest

from games.models import Game, Seat
from games.rules import get_ruleset
from games.services.endings import game_resign
from games.services.play import game_act
from lobby.services import table_create, table_join, table_start
from tests.factories import make_user

from .axe import AxeMixin, require_axe
from .helpers import SHOTS, BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHORT_LISTS = ".moves, .chat-log { max-height: 2.2rem !important; }"
GAMES = {"halma": 2, "malefiz": 2, "daschax": 2, "idiotenspiel": 2, "hexenhalma": 3}


def seated(game_id: int) -> dict[int, object]:
    return {s.index: s.user for s in Seat.objects.filter(game_id=game_id).select_related("user")}


def play_random(game_id: int, actions: int, seed: int = 29) -> None:
    """Up to ``actions`` random legal actions, by whoever is to act."""
    rng = random.Random(seed)
    users = seated(game_id)
    for _ in range(actions):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return
        rs = get_ruleset(game.ruleset)
        state = rs.decode(game.state)
        choices = [(s, rs.legal_actions(state, s)) for s in game.to_act]
        choices = [(s, legal) for s, legal in choices if legal]
        if not choices:
            return
        seat, legal = choices[0]
        game_act(game_id=game_id, user=users[seat], version=game.version, action=rng.choice(legal))


def finish(game_id: int) -> None:
    """Every seat but one resigns (after some play, so it is a finished game)."""
    users = seated(game_id)
    rs = get_ruleset(Game.objects.get(pk=game_id).ruleset)
    players = [s for s in sorted(users) if not rs.is_referee(s)]  # a game master cannot resign
    for seat in players[:-1]:
        if Game.objects.get(pk=game_id).status != Game.Status.ACTIVE:
            return
        game_resign(game_id=game_id, user=users[seat])


class AxeEveryPageTests(AxeMixin, BrowserLiveTestCase):
    extra_style = SHORT_LISTS
    impacts = ["serious", "critical"]

    def test_no_serious_or_critical_violation_on_any_page(self):
        require_axe()
        users = [off_loop(make_user, n) for n in ("anna", "bernd", "cleo")]
        staff = off_loop(make_user, "sam", staff=True)

        def make(ruleset, seats, done):
            game = table_create(host=users[0], ruleset=ruleset, seat_count=seats, rated=False)
            for user in users[1:seats]:
                table_join(game_id=game.pk, user=user)
            table_start(game_id=game.pk, user=users[0])
            play_random(game.pk, 12)
            if done:
                finish(game.pk)
            return game.pk

        playing = {name: off_loop(make, name, n, False) for name, n in GAMES.items()}
        finished = {name: off_loop(make, name, n, True) for name, n in GAMES.items()}
        page = self.new_page("anna", user=users[0])
        results: dict[str, list[dict]] = {}
        page.goto(self.live_server_url + "/")
        results["lobby"] = self.axe(page, "lobby")
        for state, ids in (("play", playing), ("finished", finished)):
            for name, game_id in ids.items():
                page.goto(f"{self.live_server_url}/g/{game_id}/")
                self.wait_connected(page)
                results[f"{name}-{state}"] = self.axe(page, f"{name}-{state}")
        for name, game_id in finished.items():
            page.goto(f"{self.live_server_url}/g/{game_id}/replay/")
            page.wait_for_selector("#board svg, #board .piece, #board *")
            results[f"{name}-replay"] = self.axe(page, f"{name}-replay")
        for name, path in [
            ("profile", "/players/bernd/"),
            ("leaderboard", "/leaderboard/halma/"),
            ("settings", "/accounts/settings/"),
            ("my-games", "/my/games/"),
        ]:
            page.goto(self.live_server_url + path)
            results[name] = self.axe(page, name)
        admin = self.new_page("sam", user=staff)
        admin.goto(self.live_server_url + "/remis/")
        results["remis-queue"] = self.axe(admin, "remis-queue")

        (SHOTS / "axe-ux29.json").write_text(json.dumps(results, indent=1))
        bad = {k: v for k, v in results.items() if v}
        self.assertEqual(bad, {}, json.dumps(bad, indent=1))
        self.assertEqual(self.page_errors, [])

    def test_a_skip_link_takes_the_keyboard_to_the_board(self):
        users = [off_loop(make_user, n) for n in ("anna", "bernd")]

        def make():
            game = table_create(host=users[0], ruleset="halma")
            table_join(game_id=game.pk, user=users[1])
            table_start(game_id=game.pk, user=users[0])
            return game.pk

        game_id = off_loop(make)
        for width in (1280, 360):
            page = self.new_page(f"anna-{width}", user=users[0])
            page.set_viewport_size({"width": width, "height": 740})
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            page.keyboard.press("Tab")
            focused = page.evaluate("() => document.activeElement.dataset.testid")
            self.assertEqual(focused, "skip-link")
            self.assertTrue(page.is_visible("[data-testid=skip-link]"))
            self.shot(page, f"skip-link-{width}")
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.activeElement.id === 'board'")
            # The next Tab lands on the board's first movable piece, not in the header.
            page.keyboard.press("Tab")
            inside = page.evaluate("() => !!document.activeElement.closest('#board')")
            self.assertTrue(inside)
            self.shot(page, f"after-skip-{width}")
        self.assertEqual(self.page_errors, [])
