"""A socket only ever receives what its user may see now, on the paths that
change who plays a seat or start a game (tests/games/test_seat_privacy.py
covers seats changing at an open table, and Redis).

What is secret (RULES.md, ARCHITECTURE.md): a Hexenhalma team's orders until
its round resolves, and every game's seed. Malefiz, Halma and Daschax hide
nothing else; Das Idiotenspiel neither (both set-ups are placed in the open).
A seat's own frame also carries its legal actions.

- A leaver's seat played by a bot (Malefiz), a timed-out team handed to a bot
  (Hexenhalma): the former player's socket, opened before, gets from then on
  exactly what a spectator gets (never the bot's legal actions or orders); a
  socket opened afterwards too; the player still holds the seat.
- A bot's team: no human socket gets its orders, and no group message carries
  them.
- A rematch: sockets on the old game get only the offer; on the new game each
  player gets its new seat's own view and no other's, and the new seed stays
  hidden. A player whose seat a bot took over plays the rematch in person.
- Vacation events: spectators and opponents learn whose clock stopped and until
  when, nothing of the seats' secrets nor of the player's vacation allowance.
"""

from __future__ import annotations

import copy
import json
import random
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import publish
from games.models import Event, Game
from games.realtime.sweeper import sweep_once
from games.rules import get_ruleset
from games.services import bots, vacation
from games.services.handover import game_handover_agree
from games.services.play import game_act
from games.services.rematch import rematch_offer
from lobby import services as lobby
from tests.db_threads import sync_to_async
from tests.factories import make_user

from .test_consumers import close_all, connect
from .test_hexenhalma_platform import OPEN, ORDER_WORDS, PLAIN, SECRET
from .test_seat_privacy import Recorder, assert_secret_free

pytestmark = pytest.mark.django_db(transaction=True)

BLITZ = {"kind": "realtime", "minutes": 5, "increment": 0}
DAY = {"kind": "correspondence", "days": 1}
VERSIONED = ("hello", "sync", "event")
# What the vacation settings page shows its owner only.
VACATION_PRIVATE = ('"days_used"', '"days_left"', '"allowance_days"', '"on_vacation"')


# -- helpers ---------------------------------------------------------------------------
def version_of(frame: dict) -> int | None:
    if frame["type"] not in VERSIONED:
        return None
    return frame["state"]["version"] if "state" in frame else frame["version"]


def frames_from(sock: Recorder, version: int) -> list[dict]:
    """The versioned frames ``sock`` received for ``version`` and later."""
    return [f for f in sock.frames if (version_of(f) or 0) >= version]


def as_seen(frame: dict) -> dict:
    """A frame with the view it leads to (``Views``) and without the patch that
    got there: a socket whose eyes changed gets the whole view where others
    get a patch, and then sees what they see."""
    return {key: value for key, value in frame.items() if key != "view_patch"}


def events_by_version(sock: Recorder) -> dict[int, dict]:
    return {f["version"]: f for f in sock.frames if f["type"] == "event"}


def holds(data, target) -> bool:
    """Whether ``target`` (a JSON value) occurs anywhere inside ``data``."""
    if data == target:
        return True
    if isinstance(data, dict):
        return any(holds(v, target) for v in data.values())
    if isinstance(data, list):
        return any(holds(v, target) for v in data)
    return False


def assert_none_of(orders: list[dict], frames: list[dict], who: str) -> None:
    for witch in orders:
        for frame in frames:
            assert not holds(frame, witch), f"{who} received another seat's order {witch}"


def without_own(frame: dict, seat: int) -> dict:
    """``frame`` without what a team may see of its own orders."""
    frame = copy.deepcopy(frame)
    view = (frame.get("state") or {}).get("view") or {}
    view.pop("my_orders", None)
    events = [frame["event"]] if "event" in frame else frame.get("events", [])
    for event in events:
        event["events"] = [
            item
            for item in event["events"]
            if not (item.get("type") == "orders" and item.get("seat") == seat)
        ]
    return frame


def orders_of(game_id: int, seat: int) -> list[dict] | None:
    """A Hexenhalma team's orders as stored now (what its own view shows)."""
    game = Game.objects.get(pk=game_id)
    text = get_ruleset("hexenhalma").decode(game.state).orders[seat - 1]
    return json.loads(text) if text else None


def act(game_id: int, user, action: dict) -> int:
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    return game_act(game_id=game_id, user=user, version=version, action=action)


def bot_writes_and_locks(game_id: int, seat: int) -> list[dict]:
    """Let the bots play until ``seat`` has locked its orders; returns them."""
    for _ in range(10):
        if seat not in Game.objects.get(pk=game_id).to_act:
            break
        bots.play_due_bots()
    assert seat not in Game.objects.get(pk=game_id).to_act, "the bot never locked"
    orders = orders_of(game_id, seat)
    assert orders, "the bot wrote no orders: nothing secret to keep"
    return orders


def table(ruleset: str, seat_count: int, clock=None, options=None):
    users = [make_user() for _ in range(seat_count)]
    game = lobby.table_create(
        host=users[0], ruleset=ruleset, seat_count=seat_count, clock=clock, options=options
    )
    for user in users[1:]:
        lobby.table_join(game_id=game.pk, user=user)
    lobby.table_start(game_id=game.pk, user=users[0])
    return game.pk, users


async def open_socks(game_id: int, users: list) -> list[Recorder]:
    """One socket per user (None: an anonymous spectator), each past its hello."""
    socks = [Recorder(await connect(f"/ws/game/{game_id}/", user)) for user in users]
    for sock in socks:
        await sock.until(lambda f: f["type"] == "hello", "the hello")
    return socks


def current_version(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


# -- 1. a Malefiz leaver's seat played by a bot ----------------------------------------
def play_until_the_bot_moved(game_id: int, users: list, bot_seat: int, acts: int = 4) -> int:
    """People play random legal actions and the bot its own until the bot has
    acted ``acts`` times (a whole round of turns); returns the version."""
    rs, rng = get_ruleset("malefiz"), random.Random(5)
    for _ in range(200):
        game = Game.objects.get(pk=game_id)
        done = Event.objects.filter(game_id=game_id, kind="act", seat=bot_seat).count()
        if game.status != Game.Status.ACTIVE or done >= acts:
            break
        seat = game.to_act[0]
        if str(seat) in game.bots:
            bots.play_due_bots()
            continue
        action = rng.choice(rs.legal_actions(rs.decode(game.state), seat))
        game_act(game_id=game_id, user=users[seat], version=game.version, action=action)
    assert Event.objects.filter(game_id=game_id, kind="act", seat=bot_seat).count() >= acts
    return current_version(game_id)


async def test_a_malefiz_leaver_s_socket_gets_a_spectator_s_frames_once_a_bot_plays_the_seat():
    game_id, users = await sync_to_async(table)("malefiz", 3, BLITZ)
    game = await sync_to_async(Game.objects.get)(pk=game_id)
    leaver, seed = game.to_act[0], game.seed
    others = [s for s in range(3) if s != leaver]
    socks = await open_socks(game_id, [*users, None])
    watcher, leaver_sock = socks[3], socks[leaver]
    assert [s.frames[0]["seat"] for s in socks] == [0, 1, 2, None]
    assert leaver_sock.frames[0]["state"]["legal"], "the seat to move gets its legal actions"

    await leaver_sock.comm.send_json_to({"type": "resign", "game": game_id, "ref": "r"})
    await leaver_sock.until(lambda f: f["type"] == "ack", "the resign's ack")

    def agree() -> int:
        for seat in others:
            version = game_handover_agree(game_id=game_id, user=users[seat], seat=leaver)
        return version

    handed = await sync_to_async(agree)()
    final = await sync_to_async(play_until_the_bot_moved)(game_id, users, leaver)
    for sock in socks:
        await sock.at_version(final)

    seen = events_by_version(watcher)
    bot_to_move = [f for f in frames_from(leaver_sock, handed) if f["state"]["to_act"] == [leaver]]
    assert bot_to_move, "no frame where the bot was to move: nothing to test"
    for frame in frames_from(leaver_sock, handed):
        assert frame["state"]["legal"] == [], "the leaver received the bot's legal actions"
        # Built for what the leaver is now: a spectator of the seat it left.
        assert as_seen(frame) == as_seen(seen[frame["version"]]), frame["version"]
    for sock in (watcher, *(socks[s] for s in others)):
        for frame in frames_from(sock, handed):
            if frame["state"]["to_act"] == [leaver]:
                assert frame["state"]["legal"] == [], "the bot's legal actions went out"
    for who, sock in zip(("seat 0", "seat 1", "seat 2", "watcher"), socks, strict=True):
        assert str(seed) not in sock.text(), f"{who} received the seed"

    # A socket the leaver opens now starts as a spectator of its old seat.
    again = (await open_socks(game_id, [users[leaver]]))[0]
    hello = again.frames[0]
    assert hello["seat"] == leaver and hello["state"]["legal"] == []
    fresh = (await open_socks(game_id, [None]))[0]
    assert hello["state"]["view"] == fresh.frames[0]["state"]["view"]
    await close_all([s.comm for s in (*socks, again, fresh)])


# -- 1 and 5. a timed-out Hexenhalma team handed to a bot -------------------------------
def team_three_times_out_and_goes_to_the_bot(game_id: int, users: list) -> int:
    """Round 1 of a campaign (GM and three teams, daily clock): team 3 writes
    orders but times out, the others agree, the medium bot plays team 3.
    Returns the handover's version."""
    gm, one, two, three = users
    act(game_id, gm, OPEN)
    act(game_id, three, {"type": "orders", "orders": PLAIN})  # written, never locked
    for user, orders in ((one, SECRET), (two, PLAIN)):
        act(game_id, user, {"type": "orders", "orders": orders})
        act(game_id, user, {"type": "lock"})
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(days=2)):
        assert sweep_once() == 2  # team 3 locked by its timeout, then the round resolved
    assert Game.objects.get(pk=game_id).handovers == {"3": {"votes": [], "move": None}}
    for user in (one, gm, two):
        handed = game_handover_agree(game_id=game_id, user=user, seat=3)
    assert Game.objects.get(pk=game_id).bots == {"3": "medium"}
    return handed


async def test_a_team_handed_to_a_bot_no_longer_reaches_its_former_player():
    # Every socket is open before the handover (and before the timeout).
    game_id, users = await sync_to_async(table)("hexenhalma", 4, DAY, {"rounds": 2})
    gm, one, two, three = users
    socks = await open_socks(game_id, [gm, one, two, three, None])
    gm_sock, one_sock, two_sock, three_sock, watcher = socks
    assert three_sock.frames[0]["seat"] == 3

    handed = await sync_to_async(team_three_times_out_and_goes_to_the_bot)(game_id, users)
    # Team 3's own orders of round 1 reached its player while it played the seat.
    await three_sock.at_version(handed - 1)
    assert holds(three_sock.frames, PLAIN)

    def round_two() -> tuple[list[dict], int]:
        act(game_id, gm, OPEN)
        orders = bot_writes_and_locks(game_id, 3)
        act(game_id, one, {"type": "orders", "orders": SECRET})  # not locked: no resolution
        act(game_id, two, {"type": "orders", "orders": PLAIN})
        return orders, current_version(game_id)

    bot_orders, final = await sync_to_async(round_two)()
    for sock in socks:
        await sock.at_version(final)

    # The former player's socket, opened as seat 3, gets a spectator's frames now.
    seen = events_by_version(watcher)
    after = frames_from(three_sock, handed)
    assert after and all(f["type"] == "event" for f in after)
    assert_none_of(bot_orders, after, "team 3's former player")
    for word in ORDER_WORDS:
        assert word not in json.dumps(after), f"team 3's former player received {word}"
    for frame in after:
        assert as_seen(frame) == as_seen(seen[frame["version"]]), frame["version"]
    # Nobody else gets the bot's orders either.
    for who, sock in (("the GM", gm_sock), ("the watcher", watcher)):
        assert_none_of(bot_orders, sock.frames, who)
        for word in ORDER_WORDS:
            assert word not in sock.text(), f"{who} received {word}"
    for who, sock, seat in (("team 1", one_sock, 1), ("team 2", two_sock, 2)):
        assert_none_of(bot_orders, [without_own(f, seat) for f in sock.frames], who)
    assert_secret_free(two_sock.text(), "team 2")
    assert one_sock.frames[-1]["state"]["view"]["my_orders"] == SECRET  # the secret is there

    # Opened now, the former player's socket still names its seat, shows no orders.
    again, fresh = await open_socks(game_id, [three, None])
    hello = again.frames[0]
    assert hello["seat"] == 3
    assert hello["state"]["view"] == fresh.frames[0]["state"]["view"]
    assert_none_of(bot_orders, [hello], "a new socket of team 3's former player")

    def detail():
        client = APIClient()
        client.force_authenticate(three)
        return client.get(f"/api/games/{game_id}/").json()

    assert_none_of(bot_orders, [await sync_to_async(detail)()], "the former player's API")
    await close_all([s.comm for s in (*socks, again, fresh)])


# -- 3. a bot's team and the people at its table --------------------------------------
async def test_a_bot_team_s_orders_reach_no_person(monkeypatch):
    sent: list[tuple[str, dict]] = []
    real = publish._send
    monkeypatch.setattr(publish, "_send", lambda g, m: (sent.append((g, m)), real(g, m)))

    def build():
        gm, one, stranger = make_user(), make_user(), make_user()
        game = lobby.table_create(host=gm, ruleset="hexenhalma", seat_count=3)
        lobby.table_join(game_id=game.pk, user=one, seat=1)
        lobby.table_invite_bot(game_id=game.pk, user=gm, level="easy", seat=2)
        lobby.table_start(game_id=game.pk, user=gm)
        return game.pk, gm, one, stranger

    game_id, gm, one, stranger = await sync_to_async(build)()
    socks = await open_socks(game_id, [gm, one, stranger, None])
    gm_sock, one_sock, stranger_sock, watcher = socks

    def play() -> tuple[list[dict], int]:
        act(game_id, gm, OPEN)
        orders = bot_writes_and_locks(game_id, 2)
        act(game_id, one, {"type": "orders", "orders": SECRET})  # not locked: no resolution
        return orders, current_version(game_id)

    bot_orders, final = await sync_to_async(play)()
    for sock in socks:
        await sock.at_version(final)
    for who, sock in (("the GM", gm_sock), ("a stranger", stranger_sock), ("a watcher", watcher)):
        assert_none_of(bot_orders, sock.frames, who)
        for word in ORDER_WORDS:
            assert word not in sock.text(), f"{who} received {word}"
    assert_none_of(bot_orders, [without_own(f, 1) for f in one_sock.frames], "the team facing it")
    assert one_sock.frames[-1]["state"]["view"]["my_orders"] == SECRET
    # The bot's own frame (its orders) travels in no group message either.
    frames = [(g, m) for g, m in sent if m["type"] in ("game.frames", "game.own_frame")]
    assert frames, "the spy saw no frames"
    for group, message in frames:
        texts = [message["frame"]] if "frame" in message else list(message["frames"].values())
        assert_none_of(bot_orders, [json.loads(t) for t in texts], f"a message to {group}")
    await close_all([s.comm for s in socks])


# -- 2. a rematch ----------------------------------------------------------------------
def finished_campaign() -> tuple[int, list]:
    """A one-round campaign (GM and two teams), resolved and over."""
    game_id, users = table("hexenhalma", 3, None, {"rounds": 1})
    gm, one, two = users
    act(game_id, gm, OPEN)
    for user, orders in ((one, SECRET), (two, PLAIN)):
        act(game_id, user, {"type": "orders", "orders": orders})
        act(game_id, user, {"type": "lock"})
    assert sweep_once() == 1
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    return game_id, users


async def test_a_rematch_gives_each_player_its_new_seat_s_view_and_no_other():
    old_id, users = await sync_to_async(finished_campaign)()
    gm, one, two = users
    old_socks = await open_socks(old_id, [gm, one, two, None])
    for count, sock in enumerate(old_socks[:3], start=1):
        await sock.comm.send_json_to({"type": "rematch", "game": old_id})
        await sock.until(
            lambda f, n=count: f["type"] == "rematch" and len(f["rematch"]["accepted"]) == n,
            "the offer",
        )
    rematches = [
        await sock.until(
            lambda f: f["type"] == "rematch" and f["rematch"]["new_game"], "the new game"
        )
        for sock in old_socks
    ]
    new_id = rematches[0]["rematch"]["new_game"]
    marks = [len(sock.frames) for sock in old_socks]
    new_socks = await open_socks(new_id, [gm, one, two, None])
    gm_new, one_new, two_new, watcher_new = new_socks
    # The teams moved one seat on; the game master keeps seat 0.
    assert [s.frames[0]["seat"] for s in new_socks] == [0, 2, 1, None]

    def play() -> int:
        act(new_id, gm, OPEN)
        act(new_id, one, {"type": "orders", "orders": SECRET})  # team 2 now; not locked
        act(new_id, two, {"type": "orders", "orders": PLAIN})
        return current_version(new_id)

    final = await sync_to_async(play)()
    for sock in new_socks:
        await sock.at_version(final)
    assert one_new.frames[-1]["state"]["view"]["my_orders"] == SECRET
    assert one_new.frames[-1]["state"]["view"]["seat"] == 2
    assert two_new.frames[-1]["state"]["view"]["my_orders"] == PLAIN
    assert_secret_free(two_new.text(), "team 1 of the rematch")
    for who, sock in (("the GM", gm_new), ("a watcher", watcher_new)):
        for word in ORDER_WORDS:
            assert word not in sock.text(), f"{who} received {word}"
    # The old game's sockets heard only of the offer, nothing of the new game's play.
    for sock, mark in zip(old_socks, marks, strict=True):
        later = sock.frames[mark:]
        assert {f["type"] for f in later} <= {"rematch", "watchers"}, later
        assert_secret_free(json.dumps(later), "a socket on the old game")
    # The new game's seed is new, and no socket received it.
    old, new = await sync_to_async(lambda: list(Game.objects.filter(pk__in=[old_id, new_id])))()
    seeds = {g.pk: g.seed for g in (old, new)}
    assert seeds[old_id] != seeds[new_id]
    for sock in (*old_socks, *new_socks):
        assert str(seeds[new_id]) not in sock.text()
    await close_all([s.comm for s in (*old_socks, *new_socks)])


async def test_a_rematch_after_a_handover_is_played_by_the_person_not_the_bot():
    def finish() -> tuple[int, list]:
        game_id, users = table("hexenhalma", 4, DAY, {"rounds": 2})
        team_three_times_out_and_goes_to_the_bot(game_id, users)
        gm, one, two, _three = users
        act(game_id, gm, OPEN)
        bot_writes_and_locks(game_id, 3)
        for user in (one, two):
            act(game_id, user, {"type": "orders", "orders": PLAIN})
            act(game_id, user, {"type": "lock"})
        assert sweep_once() == 1
        assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
        for user in users:
            summary = rematch_offer(game_id=game_id, user=user)
        return summary["new_game"], users

    new_id, users = await sync_to_async(finish)()
    gm, one, two, three = users
    socks = await open_socks(new_id, [gm, one, two, three, None])
    # Team 3's player moved on to seat 1 and plays it in person.
    assert socks[3].frames[0]["seat"] == 1
    new = await sync_to_async(Game.objects.get)(pk=new_id)
    assert new.bots == {} and not new.has_bots

    def play() -> int:
        act(new_id, gm, OPEN)
        act(new_id, three, {"type": "orders", "orders": SECRET})
        return current_version(new_id)

    final = await sync_to_async(play)()
    for sock in socks:
        await sock.at_version(final)
    assert socks[3].frames[-1]["state"]["view"]["my_orders"] == SECRET
    others = [socks[i] for i in (0, 1, 2, 4)]
    for who, sock in zip(("the GM", "team 2", "team 3", "a watcher"), others, strict=True):
        assert_secret_free(sock.text(), who)
    await close_all([s.comm for s in socks])


# -- 4. vacation events ----------------------------------------------------------------
async def test_vacation_events_tell_whose_clock_stopped_and_nothing_secret():
    def build():
        game_id, users = table("hexenhalma", 3, {**DAY, "bank": 2})
        gm, one, _two = users
        act(game_id, gm, OPEN)
        act(game_id, one, {"type": "orders", "orders": SECRET})
        return game_id, users

    game_id, users = await sync_to_async(build)()
    gm, one, two = users
    socks = await open_socks(game_id, [gm, one, two, None])
    gm_sock, one_sock, two_sock, watcher = socks
    start = await sync_to_async(current_version)(game_id) + 1

    def away_and_back() -> int:
        vacation.vacation_start(user=one, until=None)
        vacation.vacation_stop(user=one)
        return current_version(game_id)

    final = await sync_to_async(away_and_back)()
    assert final == start + 1
    for sock in socks:
        await sock.at_version(final)
    away, back = (events_by_version(watcher)[v] for v in (start, final))
    assert away["event"]["events"] == [
        {"type": "vacation", "seat": 1, "until": away["event"]["events"][0]["until"]}
    ]
    assert back["event"]["events"] == [{"type": "vacation_end", "seat": 1}]
    assert away["state"]["vacation"] == [
        {"seat": 1, "username": one.username, "until": away["event"]["events"][0]["until"]}
    ]
    for who, sock in (("the GM", gm_sock), ("team 2", two_sock), ("a watcher", watcher)):
        text = json.dumps(frames_from(sock, start))
        assert_secret_free(text, who)
        if sock is not two_sock:
            for word in ORDER_WORDS:
                assert word not in text, f"{who} received {word}"
        for word in VACATION_PRIVATE:
            assert word not in text, f"{who} received {word}"
    # The player's own frames of these events still carry its orders.
    assert all(f["state"]["view"]["my_orders"] == SECRET for f in frames_from(one_sock, start))
    await close_all([s.comm for s in socks])
