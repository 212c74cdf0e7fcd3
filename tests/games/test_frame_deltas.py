"""First frames stay small however long the game, and event frames carry what
changed (docs/protocol.md "event"): each seat's view as a patch from the view
it had, which rebuilds the full view exactly."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from django.conf import settings
from django.utils import timezone

from games import publish
from games.models import Event, Game
from games.realtime import acts, sending
from games.rules import RULESETS, get_ruleset
from games.selectors import delta
from games.selectors.frames import EVENTS_TAIL, SYNC_TAIL, dumps, hello_frame, sync_frame
from games.services import play
from tests.db_threads import sync_to_async
from tests.factories import FIRST_MOVE, client_for, make_user, started_game

from .halma_script import RS as HALMA
from .halma_script import repetition_log

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def long_halma(plies: int) -> Game:
    """A running Halma game of ``plies`` real moves (stored as the site stores
    them: an Event per move with the ruleset's items, the state at the end)."""
    game = started_game("halma")
    state, created = HALMA.setup({}, 2, 1), timezone.now()
    rows = []
    for number, (seat, action) in enumerate(repetition_log(104, (plies - 104) // 4)[:plies]):
        state, items = HALMA.apply(state, seat, action)
        rows.append(
            Event(game=game, version=2 + number, seat=seat, kind=Event.Kind.ACT, action=action)
        )
        rows[-1].events, rows[-1].created = items, created
    Event.objects.bulk_create(rows)
    Game.objects.filter(pk=game.pk).update(
        version=1 + len(rows), state=HALMA.encode(state), to_act=HALMA.to_act(state)
    )
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
def test_the_hello_of_a_1000_event_game_carries_the_state_and_a_bounded_tail():
    game = long_halma(1000)
    assert game.version == 1001 and game.status == Game.Status.ACTIVE
    mover = game.seats.get(index=game.to_act[0]).user
    hello = hello_frame(game.pk, mover)
    assert [e["version"] for e in hello["events"]] == list(range(1002 - EVENTS_TAIL, 1002))
    assert hello["state"]["version"] == 1001 and hello["state"]["legal"]
    assert len(dumps(hello).encode()) < 20_000, len(dumps(hello).encode())
    got = client_for(mover).get(f"/api/games/{game.pk}/")
    assert got.status_code == 200 and len(got.content) < 20_000, len(got.content)
    body = got.json()
    assert body["state"]["version"] == 1001 and body["state"]["status"] == "active"
    assert body["state"]["legal"] == hello["state"]["legal"]
    # A client far behind gets a bounded tail; one just behind, only what it lacks.
    far_behind = sync_frame(game.pk, mover, 3)[0]["events"]
    assert [e["version"] for e in far_behind] == list(range(1002 - SYNC_TAIL, 1002))
    assert len(dumps(sync_frame(game.pk, mover, 3)[0]).encode()) < 25_000
    # Behind by a burst longer than hello's tail: everything it lacks, no gap.
    seen = 1001 - SYNC_TAIL
    behind = sync_frame(game.pk, mover, seen)[0]["events"]
    assert [e["version"] for e in behind] == list(range(seen + 1, 1002))
    assert [e["version"] for e in sync_frame(game.pk, mover, 999)[0]["events"]] == [1000, 1001]
    # The events before the tail: the replay API's pages.
    page = client_for(mover).get(f"/api/games/{game.pk}/replay/?views=0&from=900&limit=72")
    assert [f["version"] for f in page.json()["frames"]] == list(range(900, 972))


@pytest.mark.django_db
def test_reading_a_game_is_throttled(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "game_reads": "3/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    game = started_game()
    reader = client_for(make_user())
    urls = [f"/api/games/{game.pk}/", f"/api/games/{game.pk}/events/?since=0"] * 2
    codes = [reader.get(url).status_code for url in urls]
    assert codes == [200, 200, 200, 429]
    assert reader.get(urls[0]).json()["code"] == "throttled"


def as_json(value):
    """``value`` as a client reads it (tuples become lists)."""
    return json.loads(dumps(value))


def captured(monkeypatch) -> list[dict]:
    """Every game.frames / game.own_frame message built, as sent."""
    sent: list[dict] = []
    monkeypatch.setattr(publish, "_send", lambda group, message: sent.append(message))
    return sent


def frames_of(message: dict) -> dict[str, dict]:
    if message["type"] == "game.frames" and "frames" in message:
        return {key: json.loads(text) for key, text in message["frames"].items()}
    if message["type"] == "game.frames":
        return {"s": json.loads(message["frame"])}
    if message["type"] == "game.own_frame":
        return {str(message["seat"]): json.loads(message["frame"])}
    return {}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "ruleset, seats", [("halma", 2), ("daschax", 2), ("malefiz", 3), ("idiotenspiel", 2)]
)
def test_patches_rebuild_every_seat_s_view(
    monkeypatch, django_capture_on_commit_callbacks, ruleset, seats
):
    """After each of 25 random moves, each seat's frame (and the spectators')
    patches the view it had into the view a fresh hello shows: nothing more,
    nothing less, and never another seat's."""
    players = [make_user() for _ in range(seats)]
    game = started_game(ruleset, players=players)
    rs, rng = get_ruleset(ruleset), random.Random(7)
    hellos = {str(s): hello_frame(game.pk, u) for s, u in enumerate(players)}
    hellos["s"] = hello_frame(game.pk, None)
    views = {key: as_json(hello["state"]["view"]) for key, hello in hellos.items()}
    patched = 0
    sent = captured(monkeypatch)
    for _ in range(25):
        game.refresh_from_db()
        seat = game.to_act[0]
        action = rs.random_action(rs.decode(game.state), seat, rng)
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            play.game_act(game_id=game.pk, user=players[seat], version=game.version, action=action)
        frames = {k: f for m in sent for k, f in frames_of(m).items()}
        for key in views:
            frame = frames.get(key, frames["s"])  # a seat's own frame, else the spectators'
            fresh = as_json(
                hello_frame(game.pk, players[int(key)] if key != "s" else None)["state"]
            )
            assert "view" not in frame["state"], "the view travels as a patch"
            views[key] = delta.apply(views[key], frame["view_patch"])
            assert views[key] == fresh["view"], (ruleset, key)
            state = {**frame["state"], "view": views[key]}
            assert {k: state[k] for k in fresh if k != "clock"} == {
                k: v for k, v in fresh.items() if k != "clock"
            }
            patched += 1
    assert patched == 25 * (seats + 1)


@pytest.mark.django_db
def test_a_halma_move_s_event_frame_is_under_a_kilobyte(
    monkeypatch, django_capture_on_commit_callbacks
):
    game = long_halma(120)
    white_or_black = game.to_act[0]
    user = game.seats.get(index=white_or_black).user
    action = HALMA.legal_actions(HALMA.decode(game.state), white_or_black)[0]
    sent = captured(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        play.game_act(game_id=game.pk, user=user, version=game.version, action=action)
    frames = {k: f for m in sent for k, f in frames_of(m).items()}
    sizes = {k: len(dumps(f).encode()) for k, f in frames.items()}
    next_seat = str(1 - white_or_black)
    # The seat to act now also gets its legal actions (a list the ruleset sizes).
    assert sizes["s"] < 1000 and sizes[str(white_or_black)] < 1000, sizes
    legal = len(dumps(frames[next_seat]["state"]["legal"]).encode())
    assert sizes[next_seat] - legal < 1000, sizes


@pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL")
@pytest.mark.django_db(transaction=True)
async def test_the_loop_and_the_usual_path_publish_the_same_frames(monkeypatch):
    """The same move made on the event loop and through the thread pool."""
    sent: list[dict] = []

    async def capture(pending):
        sent.extend(message for _group, message in pending)

    monkeypatch.setattr(sending, "_flush", capture)

    async def one_move(on_loop: bool) -> dict[str, dict]:
        white = await sync_to_async(make_user)()
        game = await sync_to_async(started_game)(players=[white, await sync_to_async(make_user)()])
        sent.clear()
        if on_loop:
            await acts.act(game_id=game.pk, user=white, version=1, action=FIRST_MOVE)
        else:
            await sending.in_thread_then_publish(play.game_act)(
                game_id=game.pk, user=white, version=1, action=FIRST_MOVE
            )
        frames = {k: f for m in sent for k, f in frames_of(m).items()}
        for frame in frames.values():
            frame.pop("game"), frame["state"].pop("clock"), frame["event"].pop("time")
        return frames

    on_loop = await one_move(True)
    assert on_loop == await one_move(False)
    assert all("view_patch" in frame for frame in on_loop.values())


@pytest.mark.skipif(not ON_POSTGRES, reason="moves run on the loop only on PostgreSQL")
@pytest.mark.django_db(transaction=True)
async def test_a_move_on_the_loop_patches_from_the_views_the_move_before_left(monkeypatch):
    """The views are held under the state they were made from: the state the
    next lock reads back (psycopg's JSON) matches the one written."""
    from games.selectors import frames as frames_module

    held = frames_module._Recent(1_000_000)
    monkeypatch.setattr(frames_module, "_recent", held)
    found = []
    real_get = held.get

    def get(*key):
        views = real_get(*key)
        found.append(bool(views))  # (now: the dict is filled in after)
        return views

    monkeypatch.setattr(held, "get", get)
    monkeypatch.setattr(sending, "_flush", lambda pending: asyncio.sleep(0))
    players = [await sync_to_async(make_user)(), await sync_to_async(make_user)()]
    game = await sync_to_async(started_game)(players=players)
    for version in (1, 2, 3):
        seat = game.to_act[0]
        user = players[seat]
        action = HALMA.legal_actions(HALMA.decode(game.state), seat)[0]
        await acts.act(game_id=game.pk, user=user, version=version, action=action)
        game = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert found == [True, True, True]  # (the first from the start, published in the test)


def test_diff_and_apply_agree_on_random_documents():
    rng = random.Random(31)

    def value(depth: int = 0):
        pick = rng.random()
        if depth > 3 or pick < 0.3:
            return rng.choice([0, 1, None, "a", "b/c", "~d", 2.5])
        if pick < 0.65:
            return [value(depth + 1) for _ in range(rng.randint(0, 5))]
        return {rng.choice(["a", "b", "c/d", "e~"]): value(depth + 1) for _ in range(4)}

    def changed(doc):
        if isinstance(doc, list):
            doc = [changed(v) if rng.random() < 0.3 else v for v in doc]
            if doc and rng.random() < 0.4:
                doc.pop(rng.randrange(len(doc)))
            if rng.random() < 0.4:
                doc.insert(rng.randint(0, len(doc)), value(2))
            return doc
        if isinstance(doc, dict):
            doc = {k: changed(v) for k, v in doc.items() if rng.random() < 0.9}
            return doc | ({"new": value(2)} if rng.random() < 0.2 else {})
        return value(3) if rng.random() < 0.5 else doc

    for _ in range(3000):
        old = value()
        new = changed(old)
        ops = json.loads(json.dumps(delta.diff(old, new)))
        assert delta.apply(old, ops) == new, (old, new, ops)
    # A piece moved in a sorted list: out at one place, in at another.
    pieces = sorted([r, c] for r in range(4) for c in range(4))
    moved = sorted([p for p in pieces if p != [1, 1]] + [[3, 9]])
    assert len(delta.diff(pieces, moved)) == 2


def exact(value) -> str:
    """JSON text in one key order: a bool and a number differ, as in the browser."""
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("slug", sorted(RULESETS))
def test_patches_rebuild_every_rulesets_views_exactly(slug):
    """Every seat's and the spectators' views along random playouts: each
    patch turns the view before into the view after as JSON, not only as
    Python compares (``[True] == [1]``; delta skips parts equal in C)."""
    rs = get_ruleset(slug)
    for seed in range(2):
        seats = rs.min_seats
        rng = random.Random(seed)
        state = rs.setup(rs.default_options(), seats, seed)
        eyes = [*range(seats), None]
        views = {eye: rs.view(state, eye) for eye in eyes}
        for _ in range(120):
            actors = rs.actors(state)
            if actors.kind == "over":
                break
            if actors.kind == "work":
                state = rs.do_work(state)[0]
            else:
                seat = rng.choice(actors.anyone)
                action = rs.random_action(state, seat, rng)
                if action is None:
                    continue
                state = rs.apply(state, seat, action)[0]
            for eye in eyes:
                after = rs.view(state, eye)
                ops = json.loads(json.dumps(delta.diff(views[eye], after)))
                had = json.loads(json.dumps(views[eye]))  # as the page holds it: no shared lists
                assert exact(delta.apply(had, ops)) == exact(after), (slug, eye, ops)
                views[eye] = after


def test_the_views_held_for_the_next_patch_are_bounded_by_weight_not_count():
    from games.selectors.frames import _Recent

    recent = _Recent(budget=1000)
    for game_id in range(1, 201):  # 200 small games: all held
        recent.put(game_id, 7, {None: {"game": game_id}}, 5)
    assert recent.get(1, 7) == {None: {"game": 1}} and recent.weight == 1000
    assert recent.get(1, 8) == {}  # another version: nothing to patch from
    recent.put(1, 8, {None: {"game": 1}}, 5)  # published again: its weight is counted once
    assert recent.weight == 1000 and recent.get(2, 7)
    recent.put(300, 1, {None: {"big": True}}, 600)  # a big view pushes out the oldest
    assert recent.weight <= 1000 and recent.get(300, 1) and recent.get(1, 8)
    assert not recent.get(2, 7) and recent.get(200, 7)
    recent.put(400, 1, {None: {}}, 5000)  # heavier than the whole budget: not kept
    assert recent.weight == 0 and not recent.get(400, 1)
    # Held under the state they were made from: the same version made again
    # from another state (a commit that failed, the move made elsewhere) misses.
    recent.put(5, (3, {"pieces": [1]}), {None: {"pieces": [1]}}, 5)
    assert recent.get(5, (3, {"pieces": [1]})) and not recent.get(5, (3, {"pieces": [2]}))


def played(game: Game, action: dict, capture_on_commit) -> None:
    """The seat to act plays ``action``; what it publishes is sent."""
    seat = game.to_act[0]
    with capture_on_commit(execute=True):
        play.game_act(
            game_id=game.pk,
            user=game.seats.get(index=seat).user,
            version=game.version,
            action=action,
        )


@pytest.mark.django_db
def test_a_process_publishing_many_games_patches_from_the_views_it_published(
    monkeypatch, django_capture_on_commit_callbacks
):
    """100 games moving in turn: each event's patches start from the views
    published with the event before, not from the stored state decoded again."""
    from games.selectors import frames as frames_module

    games = [started_game("halma") for _ in range(100)]
    decodes = []
    real_decode = type(HALMA).decode
    monkeypatch.setattr(
        type(HALMA), "decode", lambda rs, data: decodes.append(1) or real_decode(rs, data)
    )
    sent = captured(monkeypatch)

    def move(game: Game) -> int:
        game.refresh_from_db()
        seat = game.to_act[0]
        action = HALMA.legal_actions(real_decode(HALMA, game.state), seat)[0]
        decodes.clear()
        played(game, action, django_capture_on_commit_callbacks)
        return len(decodes)

    for game in games:
        move(game)
    sent.clear()
    held = {move(game) for game in games}
    assert all("view_patch" in frames_of(m)["s"] for m in sent if m["type"] == "game.frames")
    monkeypatch.setattr(frames_module, "_recent", frames_module._Recent(1_000_000))
    assert len(held) == 1 and move(games[0]) == held.pop() + 1  # forgotten: decoded again


@pytest.mark.django_db
def test_views_of_a_move_whose_commit_failed_mislead_no_later_patch(
    monkeypatch, django_capture_on_commit_callbacks
):
    """Frames are built before a commit that may fail (a conditional reply's,
    on either path): their views, held for the next patch, must not be taken
    for those of the version made again elsewhere with another move."""
    from django.db import transaction

    from games.services.internal import deciding, events
    from games.store import rows

    game = started_game("halma")
    seat = game.to_act[0]
    mover = game.seats.get(index=seat).user
    first, other = HALMA.legal_actions(HALMA.decode(game.state), seat)[:2]
    with transaction.atomic():  # decided and framed, never stored
        locked = rows.lock_game(game.pk, mover.pk)
        change = deciding.decide_act(locked, mover, game.version, first, timezone.now())
        events.change_publish_prepared(change)
        transaction.set_rollback(True)
    # The same version made with another move, published by another process.
    play.game_act(game_id=game.pk, user=mover, version=game.version, action=other)
    game.refresh_from_db()
    view = HALMA.view(HALMA.decode(game.state), None)
    sent = captured(monkeypatch)
    bases = []  # the views each patch was made from
    real_diff = delta.diff
    monkeypatch.setattr(delta, "diff", lambda old, new: bases.append(old) or real_diff(old, new))
    seat = game.to_act[0]
    reply = HALMA.legal_actions(HALMA.decode(game.state), seat)[0]
    played(game, reply, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    (frame,) = [frames_of(m)["s"] for m in sent if m["type"] == "game.frames"]
    shown = (
        delta.apply(view, frame["view_patch"]) if "view_patch" in frame else frame["state"]["view"]
    )
    assert shown == json.loads(json.dumps(HALMA.view(HALMA.decode(game.state), None)))
    assert bases and all(base["pieces"] == view["pieces"] for base in bases)
