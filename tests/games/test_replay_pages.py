"""Replays in pages (issue 14, item 10): computed once, served cheaply.

- A page starts from the nearest stored state (checkpoint): it never walks
  more than CHECKPOINT_EVERY versions before its first frame and never redoes
  long work (a Hexenhalma round); what it returns equals the full walk.
- Versions no checkpoint is near answer 503 ``replay_pending`` and ask the
  worker, which prepares the game once; a game that ends asks it too.
- Match records are paged; remis candidates are found once per version.
"""

from __future__ import annotations

import random
from unittest import mock

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Event, Game, MatchRecord, ReplayCheckpoint
from games.realtime import sweeper
from games.rules import get_ruleset
from games.rules.hexenhalma import HexenhalmaRuleset
from games.selectors import replays, walk
from games.services.endings import game_resign
from games.services.internal import replay_checkpoints
from games.services.play import game_act
from games.store import replay_requests
from tests.factories import hexenhalma_campaign, import_export, make_user, started_game

pytestmark = pytest.mark.django_db
EVERY = replays.CHECKPOINT_EVERY


@pytest.fixture(autouse=True)
def _empty_build_queue():
    replay_requests.take_requests()
    yield
    replay_requests.take_requests()


def play_halma(moves: int, *, finish: bool = True) -> Game:
    """A Halma game of ``moves`` random moves, resigned by black at the end."""
    game = started_game("halma")
    users = [s.user for s in game.seats.order_by("index")]
    rs, rng = get_ruleset("halma"), random.Random(moves)
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_act[0]
        action = rng.choice(rs.legal_actions(rs.decode(game.state), seat))
        game_act(game_id=game.pk, user=users[seat], version=game.version, action=action)
    if finish:
        game_resign(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game


def all_pages(client: APIClient, url: str) -> list[dict]:
    frames = []
    while url:
        data = client.get(url).json()
        frames += data["frames"]
        url = data["next"]
    return frames


def test_pages_add_up_to_the_full_replay_for_every_eye():
    game = play_halma(60)
    assert game.version == 62
    replay_checkpoints.replay_checkpoints_build(game.pk)
    client = APIClient()
    for seat in (None, 0, 1):
        query = "" if seat is None else f"&seat={seat}"
        paged = all_pages(client, f"/api/games/{game.pk}/replay/?limit=7{query}")
        assert paged == replays.replay_frames(game, seat)
    first = client.get(f"/api/games/{game.pk}/replay/").json()
    assert len(first["frames"]) == replays.FRAMES_DEFAULT and first["version"] == 62
    assert "from=21" in first["next"] and first["result_text"]
    events = client.get(f"/api/games/{game.pk}/replay/?views=0&limit=500").json()
    assert [f["version"] for f in events["frames"]] == list(range(1, 63))
    assert "view" not in events["frames"][0] and events["next"] is None


def test_a_page_walks_at_most_checkpoint_every_versions_before_its_first_frame(monkeypatch):
    monkeypatch.setattr(walk, "CHECKPOINT_CPU_SECONDS", 60)  # by versions only, here
    game = play_halma(80)
    replay_checkpoints.replay_checkpoints_build(game.pk)
    stored = list(ReplayCheckpoint.objects.filter(game=game).values_list("version", flat=True))
    assert stored == [25, 50, 75]
    rs = get_ruleset("halma")
    with mock.patch.object(type(rs), "apply", autospec=True, side_effect=rs.apply.__func__) as spy:
        page = APIClient().get(f"/api/games/{game.pk}/replay/?from=74&limit=3").json()
    assert [f["version"] for f in page["frames"]] == [74, 75, 76]
    assert spy.call_count <= EVERY + 3


def test_checkpoints_follow_the_cpu_the_steps_cost(monkeypatch):
    """Where steps are dear (a Hexenhalma team's orders), the worker keeps
    states more often, so a page's walk to its first frame stays cheap."""
    monkeypatch.setattr(walk, "CHECKPOINT_CPU_SECONDS", 0)
    game = play_halma(10)
    replay_checkpoints.replay_checkpoints_build(game.pk)
    stored = list(ReplayCheckpoint.objects.filter(game=game).values_list("version", flat=True))
    assert stored == list(range(1, game.version + 1))


def test_a_dear_walk_asks_the_worker_to_keep_states_closer(monkeypatch):
    monkeypatch.setattr(walk, "CHECKPOINT_CPU_SECONDS", 60)
    game = play_halma(30)
    replay_checkpoints.replay_checkpoints_build(game.pk)
    assert list(ReplayCheckpoint.objects.filter(game=game).values_list("version", flat=True)) == [
        25
    ]
    monkeypatch.setattr(replays, "WALK_CPU_SECONDS", -1)  # every walk is dear now
    url = f"/api/games/{game.pk}/replay/?from=30"
    assert APIClient().get(url).status_code == 503
    # From the checkpoint it walked from to the page's end (the default limit: 20).
    assert replay_requests.take_requests() == [(game.pk, 25, game.version)]
    monkeypatch.setattr(walk, "CHECKPOINT_CPU_SECONDS", 0)  # the worker finds them dear too
    assert replay_checkpoints.replay_checkpoints_build(game.pk, since=25, until=30) == 5
    assert APIClient().get(url).json()["frames"][0]["version"] == 30


def test_far_pages_of_an_unprepared_game_wait_for_the_worker():
    game = play_halma(40)
    ReplayCheckpoint.objects.filter(game=game).delete()
    url = f"/api/games/{game.pk}/replay/?from=35"
    pending = APIClient().get(url)
    assert pending.status_code == 503 and pending["Retry-After"] == "2"
    assert pending.json()["code"] == "replay_pending" and pending.json()["retry_after"] == 2
    # Near the start no checkpoint is needed.
    assert APIClient().get(f"/api/games/{game.pk}/replay/?from=20").status_code == 200
    assert sweeper.build_replays() == 1, "the page asked the worker"
    assert APIClient().get(url).json()["frames"][0]["version"] == 35


def test_a_game_that_ends_asks_the_worker_to_prepare_its_replay(
    django_capture_on_commit_callbacks,
):
    game = play_halma(4, finish=False)
    black = game.seats.get(index=1).user
    assert replay_requests.take_requests() == []
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(game_id=game.pk, user=black)
    assert replay_requests.take_requests() == [(game.pk, 0, None)], "all of it, once"


def test_a_short_page_when_the_cpu_budget_is_spent():
    game = play_halma(10)
    with mock.patch.object(replays, "PAGE_CPU_SECONDS", -1):
        page = APIClient().get(f"/api/games/{game.pk}/replay/?from=3&limit=10").json()
    assert [f["version"] for f in page["frames"]] == [3]
    assert "from=4" in page["next"]


def test_bad_page_parameters_are_bad_requests():
    game = play_halma(2)
    client = APIClient()
    for query in ("from=x", "limit=1.5", "seat=abc", "seat=7"):
        response = client.get(f"/api/games/{game.pk}/replay/?{query}")
        assert response.status_code == 400 and response.json()["code"] == "bad_request"
    beyond = client.get(f"/api/games/{game.pk}/replay/?from=999999999999").json()
    assert beyond["frames"] == [] and beyond["next"] is None


# -- Hexenhalma: long work is never redone for a replay ------------------------------


def test_hexenhalma_pages_read_each_rounds_state_instead_of_resolving_it_again():
    game = hexenhalma_campaign(rounds=3, teams=3)
    assert game.status == Game.Status.FINISHED
    work = list(Event.objects.filter(game=game, kind="work").values_list("version", flat=True))
    stored = set(ReplayCheckpoint.objects.filter(game=game).values_list("version", flat=True))
    assert set(work) <= stored, "the live game kept the state after each round"
    expected = {seat: replays.replay_frames(game, seat) for seat in (None, 1)}
    with mock.patch.object(HexenhalmaRuleset, "do_work", side_effect=AssertionError("redone")):
        assert replay_checkpoints.replay_checkpoints_build(game.pk) == 0, (
            "nothing to add: fewer than 25 versions a round"
        )
        client = APIClient()
        for seat, frames in expected.items():
            query = "" if seat is None else f"&seat={seat}"
            assert all_pages(client, f"/api/games/{game.pk}/replay/?limit=5{query}") == frames


def test_a_campaign_stored_before_checkpoints_is_resolved_once_by_the_worker():
    game = hexenhalma_campaign(rounds=2)
    expected = replays.replay_frames(game, None)
    ReplayCheckpoint.objects.filter(game=game).delete()
    client = APIClient()
    last_page = f"/api/games/{game.pk}/replay/?from={game.version}"
    assert client.get(last_page).status_code == 503, "a round nobody stored"
    assert sweeper.build_replays() == 1
    with mock.patch.object(HexenhalmaRuleset, "do_work", side_effect=AssertionError("redone")):
        assert all_pages(client, f"/api/games/{game.pk}/replay/?limit=4") == expected


def test_records_are_paged_and_listed_without_their_traces():
    game = hexenhalma_campaign(rounds=2, teams=4)  # 6 matches a round
    assert MatchRecord.objects.filter(game=game).count() == 12
    client = APIClient()
    base = f"/api/games/{game.pk}/records/"
    page = client.get(base, {"page_size": 5}).json()
    assert page["count"] == 12 and len(page["results"]) == 5 and page["next"]
    assert "trace" not in page["results"][0] and page["results"][0]["fates"]
    second = client.get(base, {"round": 2}).json()["results"]
    assert [(r["round"], r["match"]) for r in second] == [(2, m) for m in range(6)]
    full = client.get(base, {"full": 1, "page_size": 50}).json()
    assert len(full["results"]) == 10 and full["results"][0]["trace"]
    assert client.get(base, {"round": "x"}).json()["code"] == "bad_request"


def test_import_stores_what_pages_need(monkeypatch):
    monkeypatch.setattr(walk, "CHECKPOINT_CPU_SECONDS", 60)  # by versions only, here
    game = play_halma(60)
    data = APIClient().get(f"/api/games/{game.pk}/export/").json()
    client = APIClient()
    client.force_authenticate(make_user())
    copy = Game.objects.get(pk=import_export(client, data)["game"])
    assert list(ReplayCheckpoint.objects.filter(game=copy).values_list("version", flat=True)) == [
        25,
        50,
    ]
    page = APIClient().get(f"/api/games/{copy.pk}/replay/?from=55").json()["frames"]
    original = replays.replay_frames(game, None)[54 : 54 + len(page)]
    for frame in (*page, *original):
        frame["event"].pop("time")  # when the copy's events were stored
    assert page == original


# -- remis candidates ------------------------------------------------------------------


def test_remis_candidates_are_found_once_per_version():
    game = started_game("halma")
    # 106 moves on record (the search itself is mocked: only its cost matters here).
    Event.objects.bulk_create(
        [Event(game=game, version=v, seat=0, kind="act", action={}) for v in range(2, 108)]
    )
    Game.objects.filter(pk=game.pk).update(version=107)
    game.refresh_from_db()
    seat = game.to_act[0]
    client = APIClient()
    client.force_authenticate(game.seats.get(index=seat).user)
    url = f"/api/games/{game.pk}/remis/candidates/"
    with mock.patch("games.selectors.remis.repetition_candidates", return_value=[]) as found:
        assert client.get(url).json() == {"candidates": []}
        assert client.get(url).json() == {"candidates": []}
    assert found.call_count == 1


def test_remis_candidates_before_move_52_need_no_replay():
    game = play_halma(20, finish=False)
    client = APIClient()
    client.force_authenticate(game.seats.get(index=game.to_act[0]).user)
    with mock.patch("games.selectors.remis.repetition_candidates") as found:
        assert client.get(f"/api/games/{game.pk}/remis/candidates/").json() == {"candidates": []}
    found.assert_not_called()


def test_build_requests_merge_into_the_widest_span():
    replay_requests.request_build(7, 40, 60)
    replay_requests.request_build(7, 20, 50)
    replay_requests.request_build(8, 5, 9)
    replay_requests.request_build(8, 0)
    assert replay_requests.take_requests() == [(7, 20, 60), (8, 0, None)]
    assert replay_requests.take_requests() == []


def test_a_replay_read_changes_nothing_and_its_views_ask_the_worker():
    """Selectors have no side effects: a page too far from any stored state
    names what the worker should prepare; the views that read it ask (the
    replay API and the position pictures)."""
    game = play_halma(40)
    ReplayCheckpoint.objects.filter(game=game).delete()
    replay_requests.take_requests()
    with pytest.raises(replays.ReplayPending) as pending:
        replays.frames_page(game, None, 35, 20)
    assert replay_requests.take_requests() == [], "the read queued nothing"
    assert pending.value.build == (game.pk, 0, min(35 + 19, game.version))
    assert APIClient().get(f"/api/games/{game.pk}/replay/?from=35").status_code == 503
    assert replay_requests.take_requests() == [(game.pk, 0, min(35 + 19, game.version))]
    picture = Client().get(f"/g/{game.pk}/position.svg?v=35")
    assert picture.status_code == 503
    assert replay_requests.take_requests() == [(game.pk, 0, 35)]
