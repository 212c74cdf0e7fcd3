"""Every bot honours the interface of ARCHITECTURE.md "Bots": legal in every phase,
deterministic, blind to hidden information, behind a safety net that always
answers. Pure: no database.

The easy bot drives seeded playouts mixed with random players (so games reach
late phases cheaply); medium and strong are checked on a few positions of
those playouts only, so the file stays fast when the real searches land.
Bots are asked for seats in ``to_act`` (a seat that only ``may_act``, the game
master who could close a round early, may have nothing to do).
"""

from __future__ import annotations

import json
import logging
import random
import subprocess
import sys
import time
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games.bots import LEVELS, base, get_bot
from games.rules import RULESETS, IllegalAction, get_ruleset
from games.rules.base import LongWork
from games.rules.hexenhalma import validate_orders
from games.rules.hexenhalma.sample import random_orders
from tests.games.nim import registered

ROOT = Path(__file__).resolve().parents[3]
# Every registered ruleset, not only those with bots of their own: a game
# without one is played by the contract's generic bot (games/bots/generic.py).
SLUGS = sorted(RULESETS)
# Per game: (options, seats) played in turn, one playout each, then more until
# the bot has acted in every phase of REQUIRED (at most MAX_PLAYOUTS).
CONFIGS: dict[str, list[tuple[dict[str, Any], int]]] = {
    "halma": [({}, 2)],
    "daschax": [
        ({}, 2),
        ({"removal": True, "backward": True, "move_on": True}, 2),
        ({"formation": "SMSLSMSLSM"}, 2),
    ],
    "malefiz": [({}, 2), ({}, 4), ({}, 3)],
    "hexenhalma": [({"rounds": 4}, 3), ({"rounds": 0}, 4)],
    "idiotenspiel": [({}, 2), ({"map": "die_huegelkette"}, 2), ({"scenario": "marian"}, 2)],
}
REQUIRED = {
    "halma": {"move <= 50", "move > 50"},
    "daschax": {"placement", "play"},
    "malefiz": {"roll", "move", "barricade"},
    "hexenhalma": {"waiting", "orders"},
    "idiotenspiel": {
        *("choose", "setup", "move", "grace", "combat", "marian"),
        *("combat/defend", "combat/retreat", "combat/advance", "combat/capture"),
    },
}
MAX_ACTIONS = {"halma": 400, "daschax": 500, "malefiz": 400, "hexenhalma": 100}
MAX_ACTIONS_DEFAULT = 2500
MAX_PLAYOUTS = 8
BOT_EVERY = {"idiotenspiel": 50, "hexenhalma": 2}  # besides the first COVER decisions of each phase
BOT_EVERY_DEFAULT = 10
COVER = 3
TIMEOUT_ODDS = 0.05  # the platform's timer fires instead of a random player's action
LEAVE_AT = 10  # with 4+ seats the last seat leaves after this many actions
EASY_SAMPLES = 24  # positions for determinism / no peeking, per game
SEARCH_SAMPLES = 2  # the same for medium and strong (each call may take a second)


def configs_of(slug: str) -> list[tuple[dict[str, Any], int]]:
    """The tables to play: CONFIGS', else the defaults at the fewest seats."""
    return CONFIGS.get(slug) or [({}, get_ruleset(slug).min_seats)]


def phase(rs: Any, state: Any, seat: int) -> str:
    """What the coverage counts: the view's phase (with Idiotenspiel's pending
    combat decision); Halma before and after its 50-move rule."""
    view = rs.view(state, seat)
    if rs.slug == "halma":
        return "move > 50" if view["move_number"] > 50 else "move <= 50"
    pending = (view.get("combat") or {}).get("pending") if rs.slug == "idiotenspiel" else None
    return f"{view['phase']}/{pending['kind']}" if pending else str(view.get("phase"))


def driver(rs: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """The random players; Halma's push forward (purely random Halma never
    empties a house, so it would never see move 51)."""
    if rs.slug != "halma":
        return rs.random_action(state, seat, rng)
    moves = rs.legal_actions(state, seat)
    sign = 1 if seat == 0 else -1  # seat 0 heads for the top-left corner
    forward = [m for m in moves if sign * (sum(m["path"][0]) - sum(m["path"][-1])) > 0] or moves
    if rng.random() < 0.5:  # half the time, the rearmost piece: houses empty by move 50
        rear = max(sign * sum(m["path"][0]) for m in forward)
        forward = [m for m in forward if sign * sum(m["path"][0]) == rear]
    return rng.choice(forward)


class Failures(logging.Handler):
    """Collects what the safety net logs: any record means the bot itself failed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def playout(slug: str, k: int, counts: dict[str, int], failures: Failures) -> list[Any]:
    """Playout ``k``: the easy bot and random players; returns the bot's
    decision points (state, seat). Fails on any action the bot got wrong."""
    rs, bot, rng = get_ruleset(slug), get_bot(slug, "easy"), random.Random(k)
    configs = configs_of(slug)
    options, seats = configs[k % len(configs)]
    state = rs.setup(rs.validate_options(options), seats, 1000 + k)
    asked = []
    for ply in range(MAX_ACTIONS.get(slug, MAX_ACTIONS_DEFAULT)):
        if isinstance(rs, LongWork) and rs.work_due(state):
            state = rs.do_work(state)[0]
        if ply == LEAVE_AT and seats >= 4:
            with suppress(IllegalAction):
                state = rs.leave(state, seats - 1)[0]
        to_act = rs.to_act(state)
        if not to_act:
            break
        seat, key = to_act[ply % len(to_act)], phase(rs, state, to_act[ply % len(to_act)])
        timeout = rs.timeout_action(state, seat) if rng.random() < TIMEOUT_ODDS else None
        if counts.get(key, 0) < COVER or ply % BOT_EVERY.get(slug, BOT_EVERY_DEFAULT) == 0:
            counts[key] = counts.get(key, 0) + 1
            asked.append((state, seat))
            action = bot.choose(state, seat, seed=ply)
            assert not failures.lines, (
                f"{slug} playout {k}, action {ply}, seat {seat}, {key}:\n{failures.lines[0]}"
            )
        else:
            action = timeout or driver(rs, state, seat, rng)
        state = rs.apply(state, seat, action)[0]
    return asked


@cache
def positions(slug: str) -> tuple[list[Any], frozenset[str]]:
    """The easy bot's decision points over the playouts, and the phases it acted in."""
    counts: dict[str, int] = {}
    failures, logger = Failures(), logging.getLogger(base.__name__)
    logger.addHandler(failures)
    try:
        asked: list[Any] = []
        for k in range(MAX_PLAYOUTS):
            asked += playout(slug, k, counts, failures)
            if k + 1 >= len(configs_of(slug)) and REQUIRED.get(slug, set()) <= set(counts):
                break
    finally:
        logger.removeHandler(failures)
    return asked, frozenset(counts)


def spread(items: list[Any], count: int) -> list[Any]:
    return items if len(items) <= count else [items[i * len(items) // count] for i in range(count)]


def samples(slug: str, level: str) -> list[Any]:
    """Positions to check a level on; for the searches, ones with a real choice."""
    asked = positions(slug)[0]
    if level == "easy":
        return spread(asked, EASY_SAMPLES)
    rs = get_ruleset(slug)
    choice = [(s, seat) for s, seat in asked if len(rs.legal_actions(s, seat) or [1, 2]) > 1]
    return spread(choice, SEARCH_SAMPLES)


# -- get_bot ------------------------------------------------------------------


def test_get_bot_gives_every_level_and_names_what_exists():
    for slug in SLUGS:
        for level in LEVELS:
            assert callable(get_bot(slug, level).choose)
    with pytest.raises(LookupError, match=r"'chess'.*halma"):
        get_bot("chess", "easy")
    with pytest.raises(LookupError, match=r"'grandmaster'.*easy, medium, strong"):
        get_bot("halma", "grandmaster")


def test_bots_import_no_django():
    code = (
        "import sys, games.bots; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# -- legal, deterministic, blind ---------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_easy_bot_plays_legally_in_every_phase(slug):
    asked, covered = positions(slug)
    required = REQUIRED.get(slug, set())
    assert required <= covered, f"the bot never acted in {required - covered}"
    assert len(asked) >= 12


def _choose(slug: str, level: str, state: Any, seat: int, caplog: Any) -> dict[str, Any]:
    with caplog.at_level(logging.WARNING, logger=base.__name__):
        action = get_bot(slug, level).choose(state, seat, seed=42)
    fallbacks = [r.getMessage() for r in caplog.records if r.name == base.__name__]
    assert not fallbacks, f"{slug} {level} needed the safety net: {fallbacks[0]}"
    get_ruleset(slug).apply(state, seat, action)
    return action


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("slug", SLUGS)
def test_same_state_seat_and_seed_give_the_same_action(slug, level, caplog):
    for state, seat in samples(slug, level):
        assert _choose(slug, level, state, seat, caplog) == _choose(
            slug, level, state, seat, caplog
        )


def hide(slug: str, state: Any, seat: int, rng: random.Random) -> Any:
    """``state`` with everything ``seat`` may not see changed: the dice's seed and
    counter, and in Hexenhalma the other teams' orders."""
    rs = get_ruleset(slug)
    data = json.loads(json.dumps(rs.encode(state)))
    data["seed"] = (data["seed"] * 31 + 17) % 2**62
    counter = "rng" if slug == "idiotenspiel" else "counter"
    data[counter] += 5
    if slug == "hexenhalma" and data["phase"] == "orders":
        board, params = json.loads(data["board"]), json.loads(data["params"])
        for team in range(1, data["seats"]):
            if team != seat and (seat != 0 or data["orders"][team - 1] is not None):
                orders = validate_orders(board, params, random_orders(board, params, rng))
                data["orders"][team - 1] = json.dumps(orders, sort_keys=True, separators=(",", ":"))
    return rs.decode(data)


@pytest.mark.parametrize("level", LEVELS)
# Halma hides nothing (perfect information): there is nothing to change.
@pytest.mark.parametrize("slug", [s for s in SLUGS if not get_ruleset(s).perfect_information])
def test_choices_ignore_what_the_view_hides(slug, level, caplog):
    rs, rng = get_ruleset(slug), random.Random(5)
    for state, seat in samples(slug, level):
        other = hide(slug, state, seat, rng)
        assert rs.view(other, seat) == rs.view(state, seat)
        assert rs.encode(other) != rs.encode(state)
        assert _choose(slug, level, other, seat, caplog) == _choose(
            slug, level, state, seat, caplog
        )


def test_a_game_registered_later_gets_bots_that_honour_the_contract(caplog):
    """A ruleset with no bot of its own (the tests' Nim) is played by the generic
    bot at every level: legal in the easy bot's playouts, deterministic."""
    counts: dict[str, int] = {}
    failures, logger = Failures(), logging.getLogger(base.__name__)
    logger.addHandler(failures)
    try:
        with registered():
            asked = [
                point for k in range(MAX_PLAYOUTS) for point in playout("nim", k, counts, failures)
            ]
            assert set(counts) == {"play"} and len(asked) >= MAX_PLAYOUTS
            for level in LEVELS:
                for state, seat in spread(asked, EASY_SAMPLES):
                    first = _choose("nim", level, state, seat, caplog)
                    assert _choose("nim", level, state, seat, caplog) == first
    finally:
        logger.removeHandler(failures)


# -- the safety net (Guarded) ---------------------------------------------------


class Raises:
    def choose(self, state, seat, *, seed):
        raise RuntimeError("search blew up")


class Illegal:
    def choose(self, state, seat, *, seed):
        return {"type": "no such action"}


class Loops:
    def choose(self, state, seat, *, seed):
        while True:
            base.check_clock()
            time.sleep(0.001)


def _opening(slug: str) -> tuple[Any, Any, int]:
    rs = get_ruleset(slug)
    state = rs.setup(rs.default_options(), rs.min_seats, 77)
    return rs, state, rs.to_act(state)[0]


@pytest.mark.parametrize(
    ("inner", "logged"), [(Raises(), "failed"), (Illegal(), "failed"), (Loops(), "cap")]
)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_failing_bot_still_answers_a_legal_action(slug, inner, logged, caplog, monkeypatch):
    monkeypatch.setitem(base.WALL_CLOCK_CAP_SECONDS, "easy", 0.05)
    rs, state, seat = _opening(slug)
    start = time.monotonic()
    with caplog.at_level(logging.WARNING, logger=base.__name__):
        action = base.Guarded(slug, "easy", inner).choose(state, seat, seed=3)
    assert time.monotonic() - start < 2
    rs.apply(state, seat, action)
    assert any(logged in r.getMessage() for r in caplog.records), caplog.text
