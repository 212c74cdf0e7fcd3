"""Hexenhalma on the platform: secret orders and the sweeper's resolution.

- Through the API (game detail, events, spectator replay, records) and the
  socket (hello frames and the events every connection receives), nobody but
  the team itself sees its orders before the round resolves: the GM and the
  other teams learn only that it submitted, spectators not even that.
- Once every team has locked, the game is due for "work"; the sweeper
  (``games.realtime.sweeper.sweep_once``) resolves the round exactly once, stores a
  "work" event and one MatchRecord per match, and broadcasts the result.
- A team whose clock runs out is locked by the sweeper (its timeout action).
"""

from __future__ import annotations

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Event, Game, MatchRecord
from games.realtime.sweeper import sweep_once
from games.rules.hexenhalma import HexenhalmaRuleset
from games.services.play import game_act
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import make_user

from .frame_views import Views
from .test_consumers import close_all, connect, receive

PARAMS = {
    "witches": 2,
    "min_steps": 3,
    "max_steps": 12,
    "tiredness": 4,
    "spells": {"K": 1, "M": 1, "B": 1, "I": 1, "Z": 1},
}
OPEN = {"type": "open_round", "board": "rectangle", "params": PARAMS, "deadline": None}
# Team 1: a flight, a ban with its target, spells; every bit of it is secret.
SECRET = [
    {"start": [11, 2], "steps": [{"walk": "N"}, {"fly": [3, 2], "spell": "K"}, {"walk": "N"},
                                 {"walk": "N"}, {"walk": "N"}]},
    {"start": [11, 5], "steps": [{"walk": "N", "spell": "B", "ban_to": [6, 6]}, {"fly": [4, 5]},
                                 {"walk": "N", "spell": "I"}, {"walk": "N"}, {"walk": "N"},
                                 {"walk": "N"}]},
]  # fmt: skip
# Team 2: walks only, so team 1's words ("fly", "ban_to") are foreign to it.
PLAIN = [
    {"start": [11, 7], "steps": [{"walk": "N"}] * 3},
    {"start": [11, 4], "steps": [{"walk": "N", "spell": "M"}, {"walk": "N"}, {"walk": "N"}]},
]
ORDER_WORDS = ('"steps"', '"walk"', '"fly"', '"ban_to"', '"my_orders"')


def new_campaign(clock=None):
    gm, one, two = make_user(), make_user(), make_user()
    game = lobby.table_create(host=gm, ruleset="hexenhalma", seat_count=3, clock=clock)
    for user in (one, two):
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=gm)
    game_act(game_id=game.pk, user=gm, version=1, action=OPEN)
    return game.pk, gm, one, two


def act(game_id, user, action):
    version = Game.objects.get(pk=game_id).version
    return game_act(game_id=game_id, user=user, version=version, action=action)


def text_of(data) -> str:
    return json.dumps(data, ensure_ascii=False)


def assert_no_orders(text: str, who: str, words=ORDER_WORDS) -> None:
    for word in words:
        assert word not in text, f"{who} sees {word}"


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


# -- the API -------------------------------------------------------------------------
@pytest.mark.django_db
def test_orders_stay_secret_through_the_api():
    game_id, gm, one, two = new_campaign()
    act(game_id, one, {"type": "orders", "orders": SECRET})
    act(game_id, two, {"type": "orders", "orders": PLAIN})
    act(game_id, one, {"type": "lock"})
    base = f"/api/games/{game_id}"

    mine = client_for(one).get(f"{base}/").json()
    assert mine["state"]["view"]["my_orders"] == SECRET, "a team sees its own orders"

    for who, user, words in [
        ("the GM", gm, ORDER_WORDS),
        ("a spectator", None, ORDER_WORDS),
        ("a stranger", make_user(), ORDER_WORDS),
        ("team 2", two, ('"fly"', '"ban_to"')),
    ]:
        client = client_for(user)
        detail = client.get(f"{base}/")
        events = client.get(f"{base}/events/", {"since": 0})
        assert detail.status_code == events.status_code == 200
        assert_no_orders(text_of(detail.json()), f"{who} (detail)", words)
        assert_no_orders(text_of(events.json()), f"{who} (events)", words)
        records = client.get(f"{base}/records/").json()
        assert records["results"] == [], "no records before resolution"
    gm_view = client_for(gm).get(f"{base}/").json()["state"]["view"]
    assert gm_view["submitted"] == [1, 2] and gm_view["locked"] == [1]
    two_events = client_for(two).get(f"{base}/events/", {"since": 0}).json()["events"]
    seen = [item for ev in two_events for item in ev["events"]]
    assert {"type": "orders_submitted", "seat": 1, "round": 1} in seen
    spectator_events = client_for().get(f"{base}/events/", {"since": 0}).json()["events"]
    assert all(
        item["type"] not in ("orders", "orders_submitted")
        for ev in spectator_events
        for item in ev["events"]
    ), "spectators learn nothing about submissions"

    # The replay of a running game is a spectator's; other eyes are refused.
    frames = client_for().get(f"{base}/replay/").json()
    assert_no_orders(text_of(frames), "the spectator replay")
    assert client_for(two).get(f"{base}/replay/", {"seat": 1}).status_code == 403


# -- the socket ----------------------------------------------------------------------
async def next_event(comm) -> dict:
    """The next event frame, with the view it leads to (``Views``)."""
    return comm.views.feed(await receive(comm, "event"))


@pytest.mark.django_db(transaction=True)
async def test_orders_stay_secret_through_the_socket_and_the_sweeper_broadcasts_the_result():
    game_id, gm, one, two = await sync_to_async(new_campaign)()
    path = f"/ws/game/{game_id}/"
    socks = {
        "gm": await connect(path, gm),
        "one": await connect(path, one),
        "two": await connect(path, two),
        "spectator": await connect(path),
    }
    hellos = {name: await receive(s, "hello") for name, s in socks.items()}
    assert [hellos[n]["seat"] for n in socks] == [0, 1, 2, None]
    for name, s in socks.items():
        s.views = Views()
        s.views.feed(hellos[name])

    # Team 1 submits through its socket; every other connection gets no content.
    await socks["one"].send_json_to(
        {"type": "act", "game": game_id, "version": 2, "ref": "o",
         "action": {"type": "orders", "orders": SECRET}}
    )  # fmt: skip
    frames = {name: await next_event(s) for name, s in socks.items()}
    assert frames["one"]["event"]["events"][0]["orders"] == SECRET
    assert frames["one"]["state"]["view"]["my_orders"] == SECRET
    for name in ("gm", "two"):
        assert frames[name]["event"]["events"] == [
            {"type": "orders_submitted", "seat": 1, "round": 1}
        ]
    assert frames["spectator"]["event"]["events"] == []
    for name in ("gm", "two", "spectator"):
        # Team 2 has a "my_orders" of its own (still null); nothing else.
        words = ORDER_WORDS[:-1] if name == "two" else ORDER_WORDS
        assert_no_orders(text_of(frames[name]), f"{name}'s event frame", words)

    await socks["two"].send_json_to(
        {"type": "act", "game": game_id, "version": 3, "ref": "p",
         "action": {"type": "orders", "orders": PLAIN}}
    )  # fmt: skip
    frames = {name: await next_event(s) for name, s in socks.items()}
    for name in ("gm", "spectator"):
        assert_no_orders(text_of(frames[name]), f"{name}'s event frame")
    # Team 1 holds its own orders; team 2's (an M, a start at [11, 7]) stay away.
    assert '"spell": "M"' in text_of(frames["two"]) and '"start": [11, 7]' in text_of(frames["two"])
    assert_no_orders(
        text_of(frames["one"]), "one's event frame", ('"spell": "M"', '"start": [11, 7]')
    )

    # Late joiners' hello frames carry no orders either (their own excepted).
    late = {"gm": await connect(path, gm), "two": await connect(path, two), "spectator": await connect(path)}  # fmt: skip
    for name, comm in late.items():
        hello = await receive(comm, "hello")
        words = ('"fly"', '"ban_to"') if name == "two" else ORDER_WORDS
        assert_no_orders(text_of(hello), f"{name}'s hello", words)
    await close_all(late.values())

    # Both lock; the sweeper resolves the round and everybody gets the result.
    for n, name in enumerate(("one", "two")):
        await socks[name].send_json_to(
            {"type": "act", "game": game_id, "version": 4 + n, "action": {"type": "lock"}}
        )
        for s in socks.values():
            await next_event(s)
    game = await sync_to_async(Game.objects.get)(pk=game_id)
    assert game.to_act == [] and game.timer == "work"
    assert await sync_to_async(sweep_once)() == 1
    frames = {name: await next_event(s) for name, s in socks.items()}
    for name, frame in frames.items():
        assert frame["version"] == 7 and frame["event"]["kind"] == "work", name
        resolved = frame["event"]["events"][0]
        assert resolved["type"] == "round_resolved", name
        assert resolved["matches"][0]["teams"] == [1, 2]
        assert frame["state"]["view"]["phase"] == "waiting"
        assert frame["state"]["to_act"] == [0]
    await close_all(socks.values())


# -- the sweeper ---------------------------------------------------------------------
@pytest.mark.django_db
def test_the_sweeper_resolves_a_round_once_every_team_has_locked():
    game_id, _gm, one, two = new_campaign()
    act(game_id, one, {"type": "orders", "orders": SECRET})
    act(game_id, two, {"type": "orders", "orders": PLAIN})
    act(game_id, one, {"type": "lock"})
    assert sweep_once() == 0, "nothing is due while a team still writes"
    act(game_id, two, {"type": "lock"})
    game = Game.objects.get(pk=game_id)
    assert game.timer == "work" and game.deadline <= timezone.now()
    assert HexenhalmaRuleset().view(HexenhalmaRuleset().decode(game.state), 0)["phase"] == (
        "resolving"
    )
    assert not MatchRecord.objects.filter(game_id=game_id).exists()

    assert sweep_once() == 1
    assert sweep_once() == 0, "resolved exactly once"
    game.refresh_from_db()
    state = HexenhalmaRuleset().decode(game.state)
    assert state.phase == "waiting" and state.results == (((1, 2, 2, 0),),)
    assert game.to_act == [0] and game.timer != "work"
    work = Event.objects.get(game_id=game_id, kind="work")
    assert work.version == game.version == 7 and work.seat is None
    assert work.events[0]["type"] == "round_resolved"

    record = MatchRecord.objects.get(game_id=game_id)
    assert (record.version, record.index) == (7, 0)
    assert record.data["teams"] == [1, 2] and record.data["score"] == [2, 0]
    assert record.data["trace"][0]["positions"] == [[[11, 2], [11, 5]], [[0, 2], [0, 5]]]

    # Records through the API: summaries, everything, one match with its trace.
    client = client_for()
    base = f"/api/games/{game_id}/records"
    summary = client.get(f"{base}/").json()
    assert summary["count"] == 1 and summary["next"] is None
    assert summary["results"] == [
        {"version": 7, "index": 0, "round": 1, "match": 0, "teams": [1, 2], "score": [2, 0],
         "fates": record.data["fates"]}
    ]  # fmt: skip
    assert client.get(f"{base}/", {"round": 1}).json()["results"] == summary["results"]
    assert client.get(f"{base}/", {"round": 2}).json()["results"] == []
    full = client.get(f"{base}/", {"full": 1}).json()["results"]
    assert full[0]["trace"] == record.data["trace"]
    one_match = client.get(f"{base}/7/0/").json()
    assert one_match["board"]["rows"] == 12 and len(one_match["trace"]) == 7


@pytest.mark.django_db
def test_a_team_out_of_time_is_locked_by_the_sweeper_and_the_round_then_resolves():
    game_id, _gm, one, two = new_campaign(clock={"kind": "correspondence", "days": 1})
    act(game_id, one, {"type": "orders", "orders": SECRET})
    act(game_id, one, {"type": "lock"})
    act(game_id, two, {"type": "orders", "orders": PLAIN})
    later = timezone.now() + timedelta(days=2)
    with mock.patch("django.utils.timezone.now", return_value=later):
        # Team 2's clock: locked as it stands; then the round is due and resolved
        # in the same sweep.
        assert sweep_once() == 2
        timeout = Event.objects.get(game_id=game_id, kind="timeout")
        assert timeout.seat == 2 and timeout.action == {"type": "lock"}
        assert Event.objects.filter(game_id=game_id, kind="work").count() == 1
        assert sweep_once() == 0
    state = HexenhalmaRuleset().decode(Game.objects.get(pk=game_id).state)
    assert state.results == (((1, 2, 2, 0),),)


@pytest.mark.django_db
def test_the_gm_round_deadline_locks_every_team_and_the_gm_may_close_early():
    game_id, gm, _, _ = new_campaign(clock={"kind": "none"})
    game = Game.objects.get(pk=game_id)
    state = HexenhalmaRuleset().decode(game.state)
    assert state.phase == "orders"
    # The GM is not among the seats to act, yet may close the round early.
    assert 0 not in game.to_act
    act(game_id, gm, {"type": "close"})
    assert sweep_once() == 1  # all teams locked: the worker resolves the round
    assert Event.objects.filter(game_id=game_id, kind="work").count() == 1


def round_with_saved_orders() -> tuple[Game, str]:
    """A three-seat game whose round closes in an hour; team one saved orders, never locked."""
    gm, one, two = make_user(), make_user(), make_user()
    game = lobby.table_create(host=gm, ruleset="hexenhalma", seat_count=3, clock={"kind": "none"})
    for user in (one, two):
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=gm)
    deadline = (timezone.now() + timedelta(hours=1)).isoformat()
    game_act(game_id=game.pk, user=gm, version=1, action={**OPEN, "deadline": deadline})
    act(game.pk, one, {"type": "orders", "orders": SECRET})
    return game, deadline


@pytest.mark.django_db
def test_the_round_deadline_is_enforced_by_the_sweeper():
    game, deadline = round_with_saved_orders()
    game.refresh_from_db()
    assert game.timer == "phase" and game.deadline.isoformat() == deadline
    assert sweep_once() == 0
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(hours=2)):
        assert sweep_once() == 3  # both teams locked by the deadline, then the round resolved
    assert Event.objects.filter(game_id=game.pk, kind="timeout").count() == 2
    assert Event.objects.filter(game_id=game.pk, kind="work").count() == 1


@pytest.mark.django_db
def test_realtime_clocks_through_a_timeout_and_the_round_s_work():
    """Timeout: the flagged team's clock is charged to zero and its timeout
    action applied; work: nobody was to act, so nobody is charged, and the
    next turn (the GM's) starts when the work is done."""
    from tests.games.test_lifecycle import Clock

    clock = Clock()
    with clock.patch:
        game_id, _gm, one, two = new_campaign(
            clock={"kind": "realtime", "minutes": 1, "increment": 0}
        )
        clock.advance(20)
        act(game_id, one, {"type": "orders", "orders": SECRET})
        act(game_id, one, {"type": "lock"})
        game = Game.objects.get(pk=game_id)
        assert game.to_act == [2] and game.clocks == [60.0, 40.0, 40.0]
        clock.advance(41)
        assert sweep_once() == 2  # team 2 locked by its flag, then the round resolved
        game = Game.objects.get(pk=game_id)
        timeout = Event.objects.get(game_id=game_id, kind="timeout")
        assert timeout.seat == 2 and timeout.action == {"type": "lock"}
        assert game.clocks == [60.0, 40.0, 0.0] and game.to_act == [0]
        # The GM's turn: a game master has no clock to run out (issue 17).
        assert game.deadline is None and game.timer == ""

    # Every team locked, the work done later: that wait is nobody's.
    clock = Clock()
    with clock.patch:
        game_id, _gm, one, two = new_campaign(
            clock={"kind": "realtime", "minutes": 1, "increment": 0}
        )
        clock.advance(5)
        for user, orders in ((one, SECRET), (two, PLAIN)):
            act(game_id, user, {"type": "orders", "orders": orders})
            act(game_id, user, {"type": "lock"})
        before = Game.objects.get(pk=game_id)
        assert before.to_act == [] and before.timer == "work"
        assert before.clocks == [60.0, 55.0, 55.0]
        clock.advance(30)
        assert sweep_once() == 1
        game = Game.objects.get(pk=game_id)
        assert game.events.last().kind == "work"
        assert game.clocks == [60.0, 55.0, 55.0] and game.turn_started == clock.now
        assert game.to_act == [0] and game.deadline is None
