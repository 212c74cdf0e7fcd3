"""The API's streams through a real Daphne: a bot account's token hears a
challenge, the game's start, both players' moves in order and the end; a
spectator's stream never holds a seat's view; Hexenhalma orders reach only
their own team's stream; a revoked token's stream ends.

Run: .venv/bin/pytest tests/api/test_streams_live.py
"""

from __future__ import annotations

import time

import pytest
import requests
from django.test import Client

from accounts.models import ApiToken
from tests.factories import FIRST_MOVE
from tests.games.test_hexenhalma_platform import OPEN, ORDER_WORDS, PLAIN, SECRET

from .live import LiveApiTestCase

pytestmark = [pytest.mark.live]


class StreamTests(LiveApiTestCase):
    def test_a_challenge_its_game_the_moves_in_order_and_the_end(self):
        _alice, alice_token = self.person("alice")
        _botty, bot_token = self.person("botty", scopes=["read", "play"], bot=True)
        _carol, carol_token = self.person("carol", scopes=["read"])
        events = self.stream(bot_token, "/api/stream/events/")
        assert events.status == 200
        assert events.next_line() == ""  # joined, answered at once with an empty line
        body = {"ruleset": "halma", "challenge": "botty", "clock": {"kind": "none"}}
        table = self.post(alice_token, "/api/tables/", body)
        challenge = events.until("challenge")
        assert challenge["table"]["id"] == table["id"]
        assert challenge["table"]["host"] == "alice"
        self.post(bot_token, f"/api/tables/{table['id']}/join/")
        start = events.until("game_start")
        assert start["game"] == {"id": table["id"], "ruleset": "halma", "seat": 1}
        game = table["id"]

        streams = {
            who: self.stream(token, f"/api/stream/games/{game}/")
            for who, token in [("alice", alice_token), ("botty", bot_token), ("carol", carol_token)]
        }
        fulls = {who: s.until("full") for who, s in streams.items()}
        assert [fulls[w]["seat"] for w in ("alice", "botty", "carol")] == [0, 1, None]
        assert fulls["alice"]["version"] == 1 and fulls["alice"]["state"]["legal"]
        assert fulls["carol"]["state"]["legal"] == []

        self.post(alice_token, f"/api/games/{game}/act/", {"version": 1, "action": FIRST_MOVE})
        seen = {who: [s.until("event")] for who, s in streams.items()}
        reply = seen["botty"][0]
        assert reply["version"] == 2 and reply["state"]["to_act"] == [1]
        assert reply["state"]["legal"], "the seat to act is sent its legal moves"
        assert seen["carol"][0]["state"]["legal"] == []
        move = {"version": 2, "action": reply["state"]["legal"][0]}
        self.post(bot_token, f"/api/games/{game}/act/", move)
        self.post(alice_token, f"/api/games/{game}/resign/")
        for who, stream in streams.items():
            seen[who] += [stream.until("event"), stream.until("event")]
            assert stream.next() is None, f"{who}'s stream ends with the game"
        for who, frames in seen.items():
            assert [f["version"] for f in frames] == [2, 3, 4], who
            assert [f["event"]["seat"] for f in frames] == [0, 1, 0], who
            assert frames[-1]["state"]["status"] == "finished", who
            assert "action" not in frames[0]["event"], who
        finish = events.until("game_finish")
        assert finish["game"] == {"id": game, "status": "finished"}

        # A finished game's stream: one full line, then the end.
        after = self.stream(carol_token, f"/api/stream/games/{game}/")
        assert after.next_line() == ""
        assert after.next()["state"]["status"] == "finished"
        assert after.next() is None

    def test_hexenhalma_orders_reach_only_their_own_team(self):
        _gm, gm_token = self.person("gm")
        _one, one_token = self.person("one")
        _two, two_token = self.person("two")
        _eve, eve_token = self.person("eve", scopes=["read"])
        table = self.post(
            gm_token,
            "/api/tables/",
            {"ruleset": "hexenhalma", "seat_count": 3, "auto_start": False},
        )
        game = table["id"]
        for token in (one_token, two_token):
            self.post(token, f"/api/tables/{game}/join/")
        self.post(gm_token, f"/api/tables/{game}/start/")
        self.post(gm_token, f"/api/games/{game}/act/", {"version": 1, "action": OPEN})
        tokens = {"gm": gm_token, "one": one_token, "two": two_token, "eve": eve_token}
        streams = {who: self.stream(t, f"/api/stream/games/{game}/") for who, t in tokens.items()}
        for stream in streams.values():
            assert stream.until("full")["version"] == 2
        self.post(
            one_token,
            f"/api/games/{game}/act/",
            {"version": 2, "action": {"type": "orders", "orders": SECRET}},
        )
        self.post(
            two_token,
            f"/api/games/{game}/act/",
            {"version": 3, "action": {"type": "orders", "orders": PLAIN}},
        )
        for stream in streams.values():
            assert [stream.until("event")["version"] for _ in range(2)] == [3, 4]
        text = {who: "\n".join(s.raw) for who, s in streams.items()}
        assert '"fly"' in text["one"] and '"ban_to"' in text["one"], "a team sees its own orders"
        for who in ("gm", "eve"):
            for word in ORDER_WORDS:
                assert word not in text[who], f"{who}'s stream holds {word}"
        for word in ('"fly"', '"ban_to"'):
            assert word not in text["two"], f"team 2's stream holds team 1's {word}"

    def test_keep_alive_lines_and_a_revoked_token_ends_its_stream(self):
        user, secret = self.person("dora", scopes=["read"])
        events = self.stream(secret, "/api/stream/events/")
        assert events.next_line() == ""
        assert events.next_line() == ""  # a keep-alive line (every 2 s in this server)
        page = self.logged_in(user)
        token = ApiToken.objects.get(user=user)
        revoked = page.post(
            self.live_server_url + f"/accounts/settings/tokens/{token.pk}/revoke/",
            data={"csrfmiddlewaretoken": page.cookies["csrftoken"]},
            headers={"Referer": self.live_server_url + "/accounts/settings/"},
            allow_redirects=False,
        )
        assert revoked.status_code == 302
        asked = time.monotonic()
        assert events.next() is None  # the stream ended at once, not by a timeout
        assert time.monotonic() - asked < 5
        assert self.api(secret).get(self.live_server_url + "/api/tables/").status_code == 401

    def logged_in(self, user) -> requests.Session:
        """A browser-like session of ``user`` with its CSRF cookie."""
        client = Client()
        client.force_login(user)
        page = requests.Session()
        page.cookies.set("sessionid", client.cookies["sessionid"].value)
        assert page.get(self.live_server_url + "/accounts/settings/").status_code == 200
        self.addCleanup(page.close)
        return page

    def test_refusals_through_daphne(self):
        _user, reader = self.person("erin", scopes=["read"])
        _user, player = self.person("fritz", scopes=["play"])
        url = self.live_server_url
        cases = [
            ("bsp_unknown", "/api/stream/events/", 401, "bad_token"),
            (player, "/api/stream/events/", 403, "scope"),
            (reader, "/api/stream/games/999999/", 404, "not_found"),
        ]
        for secret, path, status, code in cases:
            answer = self.api(secret).get(url + path, timeout=10)
            assert (answer.status_code, answer.json()["code"]) == (status, code), path
        posted = self.api(reader).post(url + "/api/stream/events/", timeout=10)
        assert posted.status_code == 405
        assert self.api(reader).get(url + "/api/stream/nothing/", timeout=10).status_code == 404
