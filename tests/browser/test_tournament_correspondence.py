"""Issue 34 in the browser: a correspondence round robin of three (one day a
move, rounds of one day) created from the form, where one player never
moves. The test drives the clocks by moving the stored deadlines into the
past (no sleeps); the live server's own sweeper then flags the no-show and
adjudicates the round the others left unfinished, and the page shows it
(1280 px and 360 px)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.rules import get_ruleset
from games.services.play import game_act
from lobby.models import Tournament, TournamentPairing, TournamentPlayer
from tests.factories import every_seat_moves

from .helpers import BrowserLiveTestCase, off_loop

pytestmark = [pytest.mark.browser, pytest.mark.live]
PAST = timedelta(seconds=5)


def _drive_round(tournament_id: int, absent_id: int) -> int:
    """The current round's game runs out: with the absent player seated, its
    own clock (the no-show never moves); else both move once and the round's
    deadline passes. Returns the round number."""
    t = Tournament.objects.get(pk=tournament_id)
    pairing = TournamentPairing.objects.filter(
        tournament=t, round=t.current_round, game__status=Game.Status.ACTIVE
    ).first()
    assert pairing is not None, "a round without a running game"
    past = timezone.now() - PAST
    if absent_id in pairing.players:
        _play_until_turn_of(pairing.game, pairing.players.index(absent_id))
        Game.objects.filter(pk=pairing.game_id).update(deadline=past)
    else:
        every_seat_moves(pairing.game)
        Tournament.objects.filter(pk=tournament_id).update(round_deadline=past, due=past)
    return t.current_round


def _play_until_turn_of(game: Game, seat: int) -> None:
    """The others move (a random legal move) until ``seat`` is to act."""
    rs, rng = get_ruleset(game.ruleset), random.Random(7)
    for _ in range(4):
        game.refresh_from_db()
        if seat in game.to_act:
            return
        mover = game.to_act[0]
        action = rs.random_action(rs.decode(game.state), mover, rng)
        user = game.seats.get(index=mover).user
        game_act(game_id=game.pk, user=user, version=game.version, action=action)
    raise AssertionError("the absent player's turn never came")


def _round_with_game(tournament_id: int) -> bool:
    t = Tournament.objects.get(pk=tournament_id)
    return TournamentPairing.objects.filter(
        tournament=t, round=t.current_round, game__status=Game.Status.ACTIVE
    ).exists()


class CorrespondenceRoundRobin(BrowserLiveTestCase):
    def test_a_no_show_and_a_round_deadline_in_a_daily_round_robin(self):
        boss, ann, bob, cid = self.users("boss", "ann", "bob", "cid")
        desk = self.new_page("boss", boss)
        desk.goto(f"{self.live_server_url}/tournaments/")
        desk.fill("[data-testid=tournament-name]", "Daily round robin")
        desk.select_option("[data-testid=tournament-system]", "round_robin")
        desk.select_option("[data-testid=tournament-clock]", "correspondence")
        desk.fill("input[name=days]", "1")
        desk.fill("[data-testid=tournament-round-days]", "1")
        desk.check("[data-testid=tournament-organise-only]")  # boss only organises
        desk.click("[data-testid=tournament-create]")
        desk.wait_for_url("**/tournaments/*/")
        url = desk.url
        tournament_id = int(url.rstrip("/").rsplit("/", 1)[1])
        phone = None
        for user in (ann, bob, cid):
            page = self.new_page(user.username, user)
            if user is ann:
                page.set_viewport_size({"width": 360, "height": 740})
                phone = page
            page.goto(url)
            page.click("[data-testid=tournament-join]")
            page.wait_for_selector("[data-testid=tournament-withdraw]")
        desk.reload()
        desk.click("[data-testid=tournament-start]")
        desk.wait_for_selector("[data-testid=round-deadline]")
        phone.wait_for_selector("[data-testid=tournament][data-round='1']")
        self.shot(phone, "daily-round-1-360")
        # the chat: the creator's line reaches the phone over its socket
        desk.fill("[data-testid=chat-input]", "Good luck, everyone")
        desk.press("[data-testid=chat-input]", "Enter")
        phone.wait_for_selector("[data-testid=chat-log] li:has-text('Good luck, everyone')")
        while off_loop(_round_with_game, tournament_id):
            number = off_loop(_drive_round, tournament_id, cid.pk)
            # the live server's sweeper applies the deadline; the page hears it
            phone.wait_for_selector(
                f"[data-testid=tournament]:not([data-round='{number}']),"
                " [data-testid=tournament][data-status=finished]"
            )
        phone.wait_for_selector("[data-testid=tournament][data-status=finished]")
        desk.reload()
        self.shot(desk, "daily-finished-1280")
        self.shot(phone, "daily-finished-360")
        row = desk.locator("[data-testid=standings] tbody tr", has_text="cid")
        self.assertIn("withdrawn", row.inner_text())
        self.assertEqual(
            desk.locator("[data-testid=standings] tbody tr").last.inner_text().split()[1], "cid"
        )
        width = phone.evaluate("document.documentElement.scrollWidth")
        self.assertLessEqual(width, 360, "the page scrolls sideways on a phone")
        cid_player = off_loop(TournamentPlayer.objects.get, tournament_id=tournament_id, user=cid)
        self.assertTrue(cid_player.withdrawn)
        games = off_loop(
            lambda: list(
                Game.objects.filter(tournament_pairing__tournament_id=tournament_id).values_list(
                    "result", flat=True
                )
            )
        )
        reasons = {r["reason"] for r in games}
        self.assertIn("%(player)s ran out of time.", reasons)  # cid's own clock
        self.assertTrue(any("deadline" in r for r in reasons), reasons)  # the others' round
        self.assertEqual(self.page_errors, [])
