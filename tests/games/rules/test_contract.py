"""Every registered ruleset honours the shared contract (OpenSpiel-style random sims)."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import RULESETS, IllegalAction, get_ruleset
from games.rules.base import LongWork, Ruleset

SLUGS = sorted(RULESETS)


def test_registry():
    for slug in SLUGS:
        rs = get_ruleset(slug)
        assert isinstance(rs, Ruleset) and rs.slug == slug
        assert 1 <= rs.min_seats <= rs.max_seats
        assert rs.validate_options(rs.default_options()) == rs.default_options()
    with pytest.raises(KeyError):
        get_ruleset("no-such-game")


def _check_step(rs: Ruleset, seats: int, seed: int, new, events: list) -> None:
    """What every applied action (or piece of background work) must keep."""
    assert all(isinstance(e, dict) and "type" in e for e in events)
    json.dumps(events)
    round_trip = rs.decode(json.loads(json.dumps(rs.encode(new))))
    assert rs.encode(round_trip) == rs.encode(new)
    for viewer in [*range(seats), None]:
        view = json.dumps(rs.view(new, viewer))
        assert str(seed) not in view or seed < 1000
        for event in events:
            rs.view_event(event, viewer)
    rs.position_key(new)


def random_sim(rs: Ruleset, seats: int, seed: int, max_actions: int = 150) -> int:
    """Random play (``rs.random_action``) until the game ends or ``max_actions``
    actions were applied, the platform's background work included; returns the
    number of actions applied. A seat the game waits for always has an action."""
    rng = random.Random(seed)
    state = rs.setup(rs.default_options(), seats, seed)
    opening = rs.position_key(state)
    applied = 0
    for _ in range(20 * max_actions):  # passes of seats that only may act are free
        if applied == max_actions:
            break
        if isinstance(rs, LongWork) and rs.work_due(state):
            state, events, _records = rs.do_work(state)
            _check_step(rs, seats, seed, state, events)
            continue
        to_act = rs.to_act(state)
        if not to_act:
            assert rs.outcome(state) is not None, "nobody acts, no work is due, no outcome"
            break
        actors = sorted(set(to_act) | {s for s in range(seats) if rs.may_act(state, s)})
        seat = rng.choice(actors)
        action = rs.random_action(state, seat, rng)
        if action is None:
            assert seat not in to_act, f"seat {seat} must act but has no action"
            continue
        legal = rs.legal_actions(state, seat) if seat in to_act else None
        assert legal is None or action in legal
        before = json.dumps(rs.encode(state), sort_keys=True)
        new, events = rs.apply(state, seat, action)
        assert json.dumps(rs.encode(state), sort_keys=True) == before, "apply mutated its input"
        _check_step(rs, seats, seed, new, events)
        state = new
        applied += 1
    assert applied == max_actions or rs.outcome(state) is not None, "random play stalled"
    assert applied and rs.position_key(state) != opening, "random play changed nothing"
    return applied


# Seats beyond 4 add cost, not contract coverage (a 21-seat Hexenhalma round is
# 190 matches); test_hexenhalma_ruleset plays the largest table at random.
MAX_SIM_SEATS = 4


@pytest.mark.parametrize("slug", SLUGS)
@given(seed=st.integers(min_value=10**6, max_value=2**62))
def test_random_simulation(slug, seed):
    rs = get_ruleset(slug)
    for seats in {rs.min_seats, min(rs.max_seats, MAX_SIM_SEATS)}:
        random_sim(rs, seats, seed)


class _Enumerating(Ruleset):
    """A ruleset that enumerates nothing and has no random_action of its own."""

    slug = "stub"
    title = "Stub"
    min_seats = max_seats = 2

    def setup(self, options, seats, seed):
        return 0

    def to_act(self, state):
        return [state % 2]

    def legal_actions(self, state, seat):
        return None

    def apply(self, state, seat, action):
        return state + 1, [{"type": "moved"}]

    def view(self, state, seat):
        return {"n": state}

    def outcome(self, state):
        return None

    def encode(self, state):
        return {"n": state}

    def decode(self, data):
        return data["n"]


def test_random_play_fails_a_ruleset_without_random_actions():
    """The random sim cannot pass by applying nothing (as it once did for Hexenhalma)."""
    with pytest.raises(AssertionError, match="must act but has no action"):
        random_sim(_Enumerating(), 2, 10**6)


@pytest.mark.parametrize("slug", SLUGS)
@given(
    action=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["type", "path", "at", "to", "from"]), inner, max_size=3
            )
        ),
        max_leaves=8,
    )
)
def test_junk_actions_raise_illegal_action(slug, action):
    rs = get_ruleset(slug)
    state = rs.setup(rs.default_options(), rs.min_seats, 12345)
    before = rs.encode(state)
    for seat in rs.to_act(state):
        with contextlib.suppress(IllegalAction):
            rs.apply(state, seat, action)
        with contextlib.suppress(IllegalAction):
            rs.normalize_action(state, seat, action)
    assert rs.encode(state) == before


JUNK = {"junk": "x" * 1000, "nested": {"deeper": [1, 2, 3]}}


@pytest.mark.parametrize("slug", SLUGS)
def test_normalize_action_keeps_what_the_rules_read_and_drops_the_rest(slug):
    """Every legal action normalises to itself (its keys are all the ruleset's);
    the same action with a client's extra keys normalises to it too, so the
    log stores nothing else and replays the same."""
    rs = get_ruleset(slug)
    rng = random.Random(7)
    checked = 0
    for seats in {rs.min_seats, rs.max_seats}:
        state = rs.setup(rs.default_options(), seats, 4242)
        for _ in range(120):
            to_act = rs.to_act(state)
            actions = rs.legal_actions(state, to_act[0]) if to_act else None
            if not actions:
                break
            seat = to_act[0]
            action = rng.choice(actions)
            assert rs.normalize_action(state, seat, action) == action
            padded = {**action, **JUNK}
            clean = rs.normalize_action(state, seat, padded)
            assert clean == action, f"{slug} kept {set(clean) - set(action)}"
            state, _ = rs.apply(state, seat, clean)
            checked += 1
    assert checked or rs.legal_actions(state, rs.to_act(state)[0]) is None
