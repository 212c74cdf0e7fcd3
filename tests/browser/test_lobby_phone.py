"""Issue 17 ("Play it as people do") in the browser: the lobby, my games, the
staff's queue and the rough edges of a game page, on a desktop (1280 px) and
on a phone (360 px). Each test takes screenshots at both widths."""

from __future__ import annotations

import re

import pytest

from games.models import Game, RemisRequest
from games.services import remis
from games.services.endings import game_resign
from games.services.play import game_act
from lobby import services as lobby
from tests.factories import make_user
from tests.games.halma_script import march

from .helpers import SHOTS, BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]

WIDTHS = (1280, 360)
# What a thumb must hit: every visible control in the header, the lobby, my games.
TARGETS = (
    ".topbar a, .topbar button, .topbar select, .lobby a, .lobby button, .lobby select,"
    " .lobby input:not([type=checkbox]), .lobby summary, .lobby label.option-bool,"
    " .my-games a, .my-games button, .my-games input"
)
SMALL_TARGETS_JS = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.checkVisibility())
  .map((e) => { const r = e.getBoundingClientRect();
    return { what: (e.textContent.trim() || e.id || e.tagName).slice(0, 30), w: r.width, h: r.height }; })
  .filter((t) => t.w < 44 || t.h < 44)"""


def _play(white, black, plies, clock=None):
    """A started Halma game between the two, ``plies`` plies into it."""
    game = lobby.table_create(
        host=white, ruleset="halma", clock=clock or {"kind": "correspondence", "days": 3}
    )
    lobby.table_join(game_id=game.pk, user=black)
    lobby.table_start(game_id=game.pk, user=white)
    users = [white, black]
    for version, (seat, action) in enumerate(march(plies)[0], start=1):
        game_act(game_id=game.pk, user=users[seat], version=version, action=action)
    return Game.objects.get(pk=game.pk)


class LobbyOnPhoneAndDesktop(BrowserLiveTestCase):
    def page_at(self, name, width, user=None):
        page = self.new_page(f"{name}-{width}", user)
        page.set_viewport_size({"width": width, "height": 850 if width > 400 else 740})
        return page

    def full_shot(self, page, name: str) -> None:
        safe = re.sub(r"[^\w.-]+", "_", f"{self._testMethodName}-{name}")
        page.screenshot(path=str(SHOTS / f"{safe}.png"), full_page=True)

    def assert_targets(self, page) -> None:
        small = page.evaluate(SMALL_TARGETS_JS, TARGETS)
        assert small == [], f"touch targets under 44 px: {small}"

    def assert_no_sideways_scroll(self, page) -> None:
        assert (
            page.evaluate("() => document.documentElement.scrollWidth")
            <= page.viewport_size["width"]
        )

    # -- 1 and 4: every action on a phone; every table shows its clock -----------
    def _lobby_world(self):
        me, anna, bert = make_user("carla"), make_user("anna"), make_user("bert")
        players = [make_user(f"p{i}") for i in range(6)]
        for i in range(0, 6, 2):
            _play(players[i], players[i + 1], 2)
        lobby.table_quickplay(
            user=anna,
            ruleset="halma",
            clock={"kind": "realtime", "minutes": 5, "increment": 3},
        )
        lobby.table_create(host=bert, ruleset="halma", clock={"kind": "correspondence", "days": 2})
        finished = _play(me, anna, 2)
        game_resign(game_id=finished.pk, user=anna)
        return me

    def test_every_lobby_and_my_games_action_is_reachable_on_a_phone(self):
        me = off_loop(self._lobby_world)
        for width in WIDTHS:
            page = self.page_at("lobby", width, me)
            page.goto(f"{self.live_server_url}/")
            page.wait_for_function("() => document.querySelectorAll('#live-games tr').length === 3")
            page.wait_for_function(
                "() => document.querySelectorAll('#open-tables tr').length === 2"
            )
            self.full_shot(page, f"lobby-{width}")
            clocks = page.locator("#open-tables [data-testid=clock]").all_inner_texts()
            assert sorted(clocks) == ["2 days per move", "5 min + 3 s"]
            watch = page.locator("#live-games a:visible")
            assert watch.count() == 3
            for i in range(3):
                box = watch.nth(i).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
            assert page.locator("#open-tables button:visible", has_text="Join").count() == 2
            self.assert_no_sideways_scroll(page)
            if width < 800:
                self.assert_targets(page)
            href = watch.first.get_attribute("href")
            watch.first.click()
            page.wait_for_url(f"**{href}")
            self.wait_connected(page)

            page.click(".nav a:has-text('My games')")
            page.wait_for_url("**/my/games/")
            replay = page.locator("[data-testid=replay]:visible")
            export = page.locator("[data-testid=export]:visible")
            assert replay.count() == 1 and export.count() == 1
            self.full_shot(page, f"my-games-{width}")
            self.assert_no_sideways_scroll(page)
            if width < 800:
                self.assert_targets(page)
            replay.click()
            page.wait_for_url("**/replay/")
        assert not self.page_errors

    # -- 4: quick play offers the seek on another clock ---------------------------
    def test_quick_play_offers_a_waiting_seek_with_another_clock(self):
        anna, bob = off_loop(lambda: (make_user("anna"), make_user("bob")))
        seek = off_loop(
            lobby.table_quickplay,
            user=anna,
            ruleset="halma",
            clock={"kind": "realtime", "minutes": 5, "increment": 3},
        )
        for width in WIDTHS:
            page = self.page_at("bob", width, bob)
            page.goto(f"{self.live_server_url}/")
            page.wait_for_selector(f"#open-tables tr[data-table='{seek.pk}']")
            page.select_option("[data-testid=clock-kind]", "realtime")  # 10 min + 5 s
            page.click("[data-testid=quickplay]")
            offer = page.locator("[data-testid=quickplay-offer]")
            offer.wait_for(state="visible")
            text = offer.inner_text()
            assert "anna" in text and "5 min + 3 s" in text and "Seek 10 min + 5 s" in text
            self.full_shot(page, f"offer-{width}")
            if width < 800:
                self.assert_targets(page)
                self.assert_no_sideways_scroll(page)
                # Nothing was sought meanwhile: the offer waits for the player.
                assert off_loop(Game.objects.filter(host__username="bob").count) == 0
                page.click("[data-testid=join-offer]")
                page.wait_for_url(f"**/g/{seek.pk}/")
                self.wait_connected(page)
                page.wait_for_function("() => window.__game.model.state.status === 'active'")
            else:
                page.click("text=Cancel")
                offer.wait_for(state="hidden")
        game = off_loop(Game.objects.get, pk=seek.pk)
        assert game.status == Game.Status.ACTIVE and game.clock["minutes"] == 5
        assert not self.page_errors

    # -- 6: a declined challenge says who declined and offers a new table -------
    def test_a_declined_challenge_names_the_decliner_and_offers_a_new_table(self):
        for width in WIDTHS:
            host, rival = off_loop(lambda w=width: (make_user(f"hanna{w}"), make_user(f"rival{w}")))
            table = off_loop(
                lobby.table_create,
                host=host,
                ruleset="halma",
                challenge=rival.username,
                clock={"kind": "realtime", "minutes": 7, "increment": 2},
            )
            h = self.page_at("host", width, host)
            h.goto(f"{self.live_server_url}/g/{table.pk}/")
            h.wait_for_selector("#waiting:not([hidden])")
            r = self.page_at("rival", width, rival)
            r.goto(f"{self.live_server_url}/")
            r.click(f"#open-tables tr[data-table='{table.pk}'] button:has-text('Decline')")
            said = f"rival{width} declined the challenge."
            h.wait_for_function(
                "t => document.querySelector('[data-testid=closed-note]')?.textContent === t",
                arg=said,
            )
            assert h.inner_text("[data-testid=status]") == said
            assert h.locator("[data-testid=replay-link]").is_hidden()  # nothing to replay
            self.full_shot(h, f"declined-{width}")
            h.click("[data-testid=reopen]")
            h.wait_for_url(re.compile(rf".*/g/(?!{table.pk}/)\d+/$"))
            h.wait_for_selector("#waiting:not([hidden])")
            new_id = int(h.url.rstrip("/").rsplit("/", 1)[1])
            fresh = off_loop(Game.objects.get, pk=new_id)
            assert fresh.status == Game.Status.OPEN and fresh.challenged_id is None
            assert fresh.clock == {"kind": "realtime", "minutes": 7, "increment": 2}
            self.full_shot(h, f"new-table-{width}")
        assert not self.page_errors

    # -- 7: the staff's queue ------------------------------------------------------
    def _deadlock(self):
        white, black = make_user("walter"), make_user("berta")
        game = _play(white, black, 104)
        remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled in.")
        return make_user("admin", staff=True), game

    def test_staff_see_the_count_the_position_and_confirm_an_approval(self):
        admin, game = off_loop(self._deadlock)
        for width in WIDTHS:
            page = self.page_at("admin", width, admin)
            page.goto(f"{self.live_server_url}/")
            assert page.inner_text("[data-testid=remis-count]") == "1"
            if width < 800:
                self.assert_targets(page)
            self.full_shot(page, f"nav-{width}")
            page.click("[data-testid=remis-nav]")
            page.wait_for_selector("[data-testid=deadlock-board] svg")
            pieces = page.locator("[data-testid=deadlock-board] .piece").count()
            assert pieces == 30
            self.full_shot(page, f"queue-{width}")
            if width > 800:
                # A slip of the finger: dismissing the question changes nothing.
                page.once("dialog", lambda d: d.dismiss())
                page.click("[data-testid=approve]")
                page.wait_for_selector("[data-testid=approve]")
                status = off_loop(lambda: RemisRequest.objects.get().status)
                assert status == RemisRequest.Status.PENDING
        questions = []

        def accept(dialog):
            questions.append(dialog.message)
            dialog.accept()

        page.once("dialog", accept)
        page.click("[data-testid=approve]")
        page.wait_for_selector("#queue-empty:not([hidden])")
        assert f"#{game.pk} ends in a draw" in questions[0]
        page.wait_for_selector("[data-testid=remis-count]", state="hidden")
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.result["draw"]
        assert not self.page_errors

    # -- 8: chat, sign-up, the game master, the replay -----------------------------
    def test_a_chat_line_over_the_rate_limit_stays_and_says_when(self):
        game = off_loop(lambda: _play(make_user("cleo"), make_user("dora"), 2))
        cleo = off_loop(lambda: game.host)
        for width in WIDTHS:
            page = self.page_at("cleo", width, cleo)
            page.goto(f"{self.live_server_url}/g/{game.pk}/")
            self.wait_connected(page)
            if width > 800:
                for i in range(5):
                    page.fill("#chat-input", f"line {i}")
                    page.press("#chat-input", "Enter")
                    page.wait_for_function(
                        "n => document.querySelectorAll('#chat-log li').length === n", arg=i + 1
                    )
                    page.wait_for_function("() => !document.getElementById('chat-input').value")
                page.fill("#chat-input", "one too many")
                page.press("#chat-input", "Enter")
                page.wait_for_selector("[data-testid=chat-note]:visible")
                assert "you can send it in" in page.inner_text("[data-testid=chat-note]")
                assert page.input_value("#chat-input") == "one too many"
                page.locator(".chat").scroll_into_view_if_needed()
                self.shot(page, f"chat-refused-{width}")
                page.wait_for_selector("text=You can send it now.", timeout=15_000)
                page.press("#chat-input", "Enter")
                page.wait_for_function("() => !document.getElementById('chat-input').value")
                assert "one too many" in page.inner_text("#chat-log")
                assert page.locator("[data-testid=chat-note]").is_hidden()
            else:
                page.locator(".chat").scroll_into_view_if_needed()
                self.shot(page, f"chat-{width}")
        assert not self.page_errors

    def test_sign_up_shows_the_password_rules_before_the_first_try(self):
        for width in WIDTHS:
            page = self.page_at("visitor", width)
            page.goto(f"{self.live_server_url}/accounts/signup/")
            rules = page.locator("[data-testid=help-password1]")
            assert rules.is_visible() and "at least 8 characters" in rules.inner_text()
            self.full_shot(page, f"signup-{width}")
            self.assert_no_sideways_scroll(page)
        assert not self.page_errors

    def _campaign(self):
        from tests.games.test_hexenhalma_platform import new_campaign

        game_id, gm, one, _two = new_campaign(
            clock={"kind": "realtime", "minutes": 5, "increment": 0}
        )
        return game_id, gm, one

    def test_the_game_master_is_offered_no_player_commands(self):
        game_id, gm, team = off_loop(self._campaign)
        for width in WIDTHS:
            page = self.page_at("gm", width, gm)
            page.goto(f"{self.live_server_url}/g/{game_id}/")
            self.wait_connected(page)
            for testid in ("resign", "offer-draw", "abort"):
                assert page.locator(f"[data-testid={testid}]").is_hidden()
            assert page.inner_text("#players .clock[data-seat='0']") == ""
            page.wait_for_function(
                "() => document.querySelector(\"#players .clock[data-seat='1']\").textContent"
            )
            page.evaluate("() => window.scrollTo(0, 0)")
            self.shot(page, f"gm-{width}")
            if width < 800:
                page.locator(".side").scroll_into_view_if_needed()
                self.shot(page, f"gm-side-{width}")
            # The server refuses too, with words the page shows.
            page.evaluate("(id) => window.__game.socket.send({type: 'resign', game: id})", game_id)
            page.wait_for_selector("#toast:visible")
            assert "game master" in page.inner_text("#toast")
        other = self.page_at("team", 1280, team)
        other.goto(f"{self.live_server_url}/g/{game_id}/")
        self.wait_connected(other)
        assert other.locator("[data-testid=resign]").is_visible()
        assert off_loop(Game.objects.get, pk=game_id).status == Game.Status.ACTIVE
        assert not self.page_errors

    def test_the_replay_speaks_of_moves_and_its_slider_takes_keys(self):
        def finished():
            game = _play(make_user("rita"), make_user("ralf"), 6)
            game_resign(game_id=game.pk, user=game.host)
            return game

        game = off_loop(finished)
        for width in WIDTHS:
            page = self.page_at("replay", width)
            page.goto(f"{self.live_server_url}/g/{game.pk}/replay/")
            position = page.locator("[data-testid=replay-position]")
            page.wait_for_function(
                "() => /move 6 of 6/.test(document.querySelector('[data-testid=replay-position]').textContent)"
            )
            page.focus("#last")
            page.keyboard.press("Tab")
            slider = page.locator("[data-testid=replay-slider]")
            assert slider.evaluate(
                "(e) => e === document.activeElement && e.matches(':focus-visible')"
            )
            assert slider.evaluate("(e) => getComputedStyle(e).outlineStyle") == "solid"
            assert slider.evaluate("(e) => getComputedStyle(e).appearance") == "none"
            # The resignation is a version, not a move: two steps back to move 5.
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowLeft")
            page.wait_for_function(
                "() => /move 5 of 6/.test(document.querySelector('[data-testid=replay-position]').textContent)"
            )
            assert slider.get_attribute("aria-valuetext") == position.inner_text()
            page.keyboard.press("Home")
            page.wait_for_function(
                "() => /start/.test(document.querySelector('[data-testid=replay-position]').textContent)"
            )
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "() => /move 1 of 6/.test(document.querySelector('[data-testid=replay-position]').textContent)"
            )
            slider.scroll_into_view_if_needed()
            self.shot(page, f"replay-{width}")
        assert not self.page_errors
