"""Every registered ruleset honours the shared contract (OpenSpiel-style random sims)."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import RULESETS, IllegalAction, get_ruleset
from games.rules.base import Ruleset

SLUGS = sorted(RULESETS)


def test_registry():
    for slug in SLUGS:
        rs = get_ruleset(slug)
        assert isinstance(rs, Ruleset) and rs.slug == slug
        assert 1 <= rs.min_seats <= rs.max_seats
        assert rs.validate_options(rs.default_options()) == rs.default_options()
    with pytest.raises(KeyError):
        get_ruleset("no-such-game")


def random_sim(rs: Ruleset, seats: int, seed: int, max_actions: int = 150) -> None:
    rng = random.Random(seed)
    state = rs.setup(rs.default_options(), seats, seed)
    for _ in range(max_actions):
        to_act = rs.to_act(state)
        if not to_act:
            assert rs.outcome(state) is not None
            return
        seat = rng.choice(to_act)
        actions = rs.legal_actions(state, seat)
        if not actions:
            return
        before = json.dumps(rs.encode(state), sort_keys=True)
        new, events = rs.apply(state, seat, rng.choice(actions))
        assert json.dumps(rs.encode(state), sort_keys=True) == before, "apply mutated its input"
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
        state = new


@pytest.mark.parametrize("slug", SLUGS)
@given(seed=st.integers(min_value=10**6, max_value=2**62))
def test_random_simulation(slug, seed):
    rs = get_ruleset(slug)
    for seats in {rs.min_seats, rs.max_seats}:
        random_sim(rs, seats, seed)


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
