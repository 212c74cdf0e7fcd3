"""Hostile actions against every ruleset: only IllegalAction, and nothing changes.

States are reached by seeded random legal play (as the platform stores them:
encoded, through JSON and decoded again), then hypothesis throws (a) arbitrary
JSON values and (b) mutated real actions at ``apply`` for every seat, whether
it is to act or not. The contract (games/rules/base.py): a bad action raises
IllegalAction and nothing else, and ``apply`` never mutates its input.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import math
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from games.rules import RULESETS, IllegalAction, get_ruleset
from games.rules.base import LongWork, Ruleset
from games.rules.hexenhalma.presets import PRESETS
from games.rules.hexenhalma.sample import random_orders

pytestmark = pytest.mark.fuzz

SLUGS = sorted(RULESETS)
# (options, seats) per ruleset: defaults plus the variants that change the board.
CONFIGS: dict[str, list[tuple[dict[str, Any], int]]] = {
    "halma": [({}, 2)],
    "malefiz": [({}, 2), ({}, 3), ({}, 4)],
    "daschax": [
        ({}, 2),
        ({"move_on": True, "removal": True, "backward": True, "place_first": "black"}, 2),
    ],
    "hexenhalma": [({}, 3), ({"rounds": 2}, 4)],
    "idiotenspiel": [
        ({}, 2),
        ({"scenario": "marian"}, 2),
        ({"map": "die_huegelkette", "sandglass": 0}, 2),
    ],
}
SEEDS = (11, 4242)
SNAPSHOTS = (0, 1, 4, 12, 40, 120, 300)  # actions played before a state is kept
MAX_PLAY = max(SNAPSHOTS)
LEGAL_PER_STATE = 400  # cap on the legal actions applied per state and seat

# Action vocabulary of all five games, so mutations hit real code paths.
TYPES = [
    "move",
    "roll",
    "barricade",
    "place",
    "turn",
    "remove",
    "open_round",
    "close",
    "finish",
    "orders",
    "lock",
    "choose_setup",
    "end_movement",
    "sandglass",
    "attack",
    "end_combat",
    "decline",
    "retreat",
    "advance",
    "capture",
    "move_marian",
    "pass",
    "",
    "MOVE",
    "move ",
    "__class__",
]
KEYS = [
    "type",
    "path",
    "at",
    "to",
    "from",
    "size",
    "steps",
    "unit",
    "target",
    "kind",
    "with",
    "facing",
    "capture",
    "yes",
    "side",
    "zone",
    "board",
    "params",
    "orders",
    "deadline",
    "start",
    "walk",
    "fly",
    "spell",
    "ban_to",
    "rows",
    "cols",
    "fields",
    "starts",
    "witches",
]
WEIRD_SCALARS = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**31,
    2**63,
    -(2**63) - 1,
    10**30,
    -(10**30),
    0.5,
    -0.0,
    1e308,
    float("inf"),
    float("-inf"),
    float("nan"),
    "",
    "0",
    "1",
    "house",
    "N",
    "F",
    "W",
    "NE",
    "x" * 10_000,
    "\x00",
    "é\u202e",
    [],
    {},
]


# --- reaching states ----------------------------------------------------------


@dataclass
class Position:
    """A reachable state, frozen as the platform stores it."""

    label: str
    seats: int
    state: Any
    encoded: str  # canonical JSON of encode(state), to compare after errors
    actions: list[dict[str, Any]]  # real actions of any seat here (legal or synthesized)


def _canon(rs: Ruleset, state: Any) -> str:
    return json.dumps(rs.encode(state), sort_keys=True, allow_nan=True)


def _stored(rs: Ruleset, state: Any) -> Any:
    """The state as the platform hands it to apply: encoded, JSON, decoded."""
    return rs.decode(json.loads(json.dumps(rs.encode(state))))


def _hexenhalma_actions(state: Any, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Hexenhalma has no enumerable actions (legal_actions is None): build real ones."""
    if seat == 0:
        if state.phase == "waiting":
            diamond = PRESETS["diamond"]
            return [
                {"type": "open_round", "board": "rectangle", "deadline": None},
                {"type": "open_round", "board": diamond["board"], "params": diamond["params"]},
                {
                    "type": "open_round",
                    "board": "cross",
                    "deadline": "2030-01-02T18:00:00+01:00",
                },
                {"type": "finish"},
            ]
        if state.phase == "orders" and not all(state.locked):
            return [{"type": "close"}]
        return []
    if state.phase == "orders" and not state.locked[seat - 1]:
        board, params = json.loads(state.board), json.loads(state.params)
        return [
            {"type": "orders", "orders": random_orders(board, params, rng)},
            {"type": "orders", "orders": random_orders(board, params, rng, spell_rate=0.9)},
            {"type": "lock"},
        ]
    return []


def candidate_actions(rs: Ruleset, state: Any, seat: int, rng: random.Random) -> list[dict]:
    """Actions the rules accept from ``seat`` now (the timeout's included)."""
    legal = rs.legal_actions(state, seat)
    if legal is None:
        legal = _hexenhalma_actions(state, seat, rng) if rs.slug == "hexenhalma" else []
    legal = list(legal)
    timeout = rs.timeout_action(state, seat) if seat in rs.to_act(state) else None
    if timeout is not None and timeout not in legal:
        legal.append(timeout)
    return legal


def _actors(rs: Ruleset, state: Any, seats: int) -> list[int]:
    return sorted(set(rs.to_act(state)) | {s for s in range(seats) if rs.may_act(state, s)})


def _play(slug: str, options: dict, seats: int, seed: int) -> list[Position]:
    rs = get_ruleset(slug)
    rng = random.Random(seed)
    state = _stored(rs, rs.setup(rs.validate_options(options), seats, seed))
    kept: list[Position] = []
    played = 0
    snapped: set[int] = set()

    def keep(note_: str) -> None:
        actions = []
        for seat in range(seats):
            actions += candidate_actions(rs, state, seat, random.Random(seed + seat))
        label = f"{slug} {options} seats={seats} seed={seed} after {played} actions{note_}"
        kept.append(Position(label, seats, state, _canon(rs, state), actions))

    while played <= MAX_PLAY:
        if played in SNAPSHOTS and played not in snapped:
            snapped.add(played)
            keep("")
        if isinstance(rs, LongWork) and rs.work_due(state):
            state = _stored(rs, rs.do_work(state)[0])
            continue
        actors = _actors(rs, state, seats)
        moves = [
            (seat, action)
            for seat in actors
            for action in candidate_actions(rs, state, seat, rng)
            # the GM ends a Hexenhalma campaign only after two rounds
            if not (action.get("type") == "finish" and state.round < 2)
        ]
        if not moves:
            keep(" (final)")
            break
        seat, action = rng.choice(moves)
        state = _stored(rs, rs.apply(state, seat, action)[0])
        played += 1
    return kept


@functools.cache
def positions(slug: str) -> tuple[Position, ...]:
    found: list[Position] = []
    for options, seats in CONFIGS[slug]:
        for seed in SEEDS:
            found += _play(slug, options, seats, seed)
    return tuple(found)


# --- the checks ---------------------------------------------------------------


def assert_only_illegal(rs: Ruleset, pos: Position, seat: int, action: Any) -> None:
    """apply either works or raises IllegalAction; the input state never changes."""
    frozen = copy.deepcopy(action)
    try:
        rs.apply(pos.state, seat, action)
    except IllegalAction as exc:
        assert exc.template, "an IllegalAction carries its message template"
        str(exc)  # the template and its params format without error
    except Exception as exc:  # the bug this file hunts
        raise AssertionError(
            f"{type(exc).__name__}: {exc!r}\n  ruleset={rs.slug} seat={seat}\n"
            f"  position: {pos.label}\n  action={_short(frozen)}"
        ) from exc
    assert _canon(rs, pos.state) == pos.encoded, (
        f"apply changed its input state\n  position: {pos.label}\n"
        f"  seat={seat} action={_short(frozen)}"
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 600 else text[:600] + "..."


@pytest.mark.parametrize("slug", SLUGS)
def test_positions_are_varied(slug):
    """The driver reaches more than the opening (else the fuzzing is shallow)."""
    found = positions(slug)
    assert len(found) >= 4
    assert len({p.encoded for p in found}) >= 3
    assert any(p.actions for p in found)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_legal_action_applies(slug):
    rs = get_ruleset(slug)
    for pos in positions(slug):
        for seat in range(pos.seats):
            legal = candidate_actions(rs, pos.state, seat, random.Random(seat))
            for action in legal[:LEGAL_PER_STATE]:
                try:
                    new, events = rs.apply(pos.state, seat, copy.deepcopy(action))
                except Exception as exc:
                    raise AssertionError(
                        f"legal action refused: {exc!r}\n  {pos.label} seat={seat} "
                        f"action={_short(action)}"
                    ) from exc
                assert _canon(rs, pos.state) == pos.encoded, f"apply mutated {pos.label}"
                json.dumps(events)
                rs.encode(new)


@pytest.mark.parametrize("slug", SLUGS)
def test_leave_is_refused_or_clean(slug):
    """The platform asks every ruleset whether a seat may leave (3+ seats)."""
    rs = get_ruleset(slug)
    for pos in positions(slug):
        for seat in range(pos.seats):
            with contextlib.suppress(IllegalAction):
                rs.leave(pos.state, seat)
            assert _canon(rs, pos.state) == pos.encoded


# --- strategies ---------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(TYPES)
    | st.sampled_from(WEIRD_SCALARS[:-2])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=12,
)
# Objects that pass the first "is it an action" checks.
typed_objects = st.builds(
    lambda kind, rest: {**rest, "type": kind},
    st.sampled_from(TYPES),
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=4),
)


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value, the root included."""
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*here, index))
    return found


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(root: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


def _mutants(value: Any, pick: Any, junk: Any) -> list[Any]:
    """Ways to spoil one JSON value, by its type (``pick`` chooses from a
    sequence, ``junk`` makes an arbitrary JSON value)."""
    out: list[Any] = [None, [value], {"value": value}, str(value)[:50], junk()]
    if isinstance(value, bool):
        out += [not value, int(value), "true"]
    elif isinstance(value, int):
        out += [
            value + 1,
            value - 1,
            -value - 1,
            -1,
            value + 10**6,
            2**63,
            10**30,
            value + 0.5,
            float(value),
            math.nan,
            math.inf,
            str(value),
            True,
        ]
    elif isinstance(value, float):
        out += [int(value) if math.isfinite(value) else 0, math.nan, -value]
    elif isinstance(value, str):
        out += [
            "",
            value * 50,
            value.upper(),
            value + " ",
            value[:-1],
            "x" * 70_000,
            pick(TYPES),
            0,
            ["N", "F"],
        ]
    elif isinstance(value, list):
        out += [[], value[::-1], [*value, *value], [None, *value], value[:-1], [value]]
        if value:
            i = pick(range(len(value)))
            out += [
                [*value[: i + 1], value[i], *value[i + 1 :]],  # repeat an entry
                value[:i] + value[i + 1 :],  # drop an entry
                [*value, junk()],
                {str(k): v for k, v in enumerate(value)},
            ]
    elif isinstance(value, dict):
        out += [{}, list(value), list(value.values())]
        if value:
            key = pick(sorted(value, key=str))
            out += [
                {k: v for k, v in value.items() if k != key},  # drop a key
                {**value, key: {key: value[key]}},  # extra nesting
            ]
        out += [
            {**value, pick(KEYS): junk()},  # add a key
            {**value, "type": pick(TYPES)},  # wrong type
            {**value, "type": pick(WEIRD_SCALARS)},
        ]
    return out


@st.composite
def mutated(draw: Any, base: dict[str, Any]) -> Any:
    action = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(action)))
        try:
            target = _get(action, path)
        except (KeyError, IndexError, TypeError):
            continue
        options = _mutants(
            target, lambda seq: draw(st.sampled_from(seq)), lambda: draw(json_values)
        )
        replacement = draw(st.sampled_from(options))
        action = _set(action, path, copy.deepcopy(replacement))
    return action


# --- the fuzzers --------------------------------------------------------------

FUZZ = settings(max_examples=settings.default.max_examples * 8)


@pytest.mark.parametrize("slug", SLUGS)
@FUZZ
@given(data=st.data())
def test_arbitrary_json_actions(slug, data):
    rs = get_ruleset(slug)
    found = positions(slug)
    pos = found[data.draw(st.integers(0, len(found) - 1), label="position")]
    action = data.draw(json_values | typed_objects, label="action")
    note(pos.label)
    for seat in range(pos.seats):
        assert_only_illegal(rs, pos, seat, action)


@pytest.mark.parametrize("slug", SLUGS)
@FUZZ
@given(data=st.data())
def test_mutated_legal_actions(slug, data):
    rs = get_ruleset(slug)
    found = [p for p in positions(slug) if p.actions]
    pos = found[data.draw(st.integers(0, len(found) - 1), label="position")]
    base = pos.actions[data.draw(st.integers(0, len(pos.actions) - 1), label="base action")]
    action = data.draw(mutated(base), label="action")
    note(pos.label)
    for seat in range(pos.seats):
        assert_only_illegal(rs, pos, seat, action)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_mutation_of_every_kind(slug):
    """Deterministic sweep: each real action with each single-step mutation."""
    rs = get_ruleset(slug)
    rng = random.Random(1)
    junk = [None, 7, -3, 2.5, "move", "", [1, 2], [[0, 0]], {"type": "move"}]

    for pos in positions(slug):
        kinds: dict[str, dict] = {}
        for action in pos.actions:
            kinds.setdefault(str(action.get("type")), action)
        for base in kinds.values():
            paths = _paths(base)
            for path in rng.sample(paths, min(len(paths), 40)):
                for replacement in _mutants(_get(base, path), rng.choice, lambda: rng.choice(junk)):
                    action = _set(copy.deepcopy(base), path, copy.deepcopy(replacement))
                    for seat in range(pos.seats):
                        assert_only_illegal(rs, pos, seat, action)
