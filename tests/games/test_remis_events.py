"""A remis request and the admin's decisions are events of the game: every seat
and spectators get them (the move list's lines), live, in a resync and in the
replay, through the uniform serializer (selectors.frames)."""

from __future__ import annotations

import json

import pytest

from games.models import Event, Game, RemisRequest
from games.rules import get_ruleset
from games.selectors.frames import event_frames, events_since
from games.selectors.replays import replay_frames
from games.services import remis
from tests.factories import make_user
from tests.games.halma_script import repetition_log
from tests.games.test_remis import play

pytestmark = pytest.mark.django_db

REJECTION = "White can still break through on the left."


def started_game():
    """A running Halma game after the scripted march and shuffles; and White."""
    game, white, _black = play(repetition_log(104, 2))
    return game, white


def remis_items(events):
    return [i for e in events for i in e["events"] if i["type"].startswith("remis_")]


def test_filed_rejected_and_approved_reach_every_seat_and_spectators():
    game, white = started_game()
    admin = make_user(staff=True)
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Walled in.")
    first = RemisRequest.objects.get(game=game)
    remis.remis_decide(request_id=first.pk, admin=admin, approve=False, reason=REJECTION)
    # The rejection's event goes out live to each seat's and the spectators' group.
    game.refresh_from_db()
    rs = get_ruleset("halma")
    last = Event.objects.get(game=game, version=game.version)
    frames = event_frames(game, rs, rs.decode(game.state), last)
    for frame in frames.values():
        items = json.loads(frame)["event"]["events"]
        assert items == [{"type": "remis_rejected", "seat": 0, "reason": REJECTION}]
    remis.remis_request(game_id=game.pk, user=white, kind="deadlock", reason="Still walled in.")
    second = RemisRequest.objects.filter(game=game, status="pending").get()
    remis.remis_decide(request_id=second.pk, admin=admin, approve=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    kinds = ["remis_requested", "remis_rejected", "remis_requested", "remis_approved"]
    # A resync (the events after a version) and the replay carry them all alike.
    for seat in (0, 1, None):
        items = remis_items(events_since(game, 0, seat))
        assert [i["type"] for i in items] == kinds, seat
        assert items[0]["reason"] == "Walled in." and items[1]["reason"] == REJECTION
        replayed = remis_items(f["event"] for f in replay_frames(game, seat))
        assert replayed == items
