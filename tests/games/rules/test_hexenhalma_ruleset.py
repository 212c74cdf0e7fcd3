"""The Hexenhalma campaign on the ruleset contract: rounds, secrecy, round robin, standings."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.base import IllegalAction, InvalidOptions
from games.rules.hexenhalma import (
    PRESETS,
    HexenhalmaRuleset,
    HexenhalmaState,
    pairings,
    standings,
)
from games.rules.hexenhalma.sample import random_orders

RULES = HexenhalmaRuleset()
SEED = 918273645546372819
RECT = PRESETS["rectangle"]


def straight(start_col: int, steps: int = 11) -> dict[str, Any]:
    return {"start": [11, start_col], "steps": [{"walk": "N"}] * steps}


GOOD = [straight(1), straight(2)]  # both reach the goal row in step 11
# Both stop one row short of the goal: they starve.
LOST = [
    {"start": [11, 3], "steps": [{"walk": "N"}] * 10 + [{"walk": "E"}]},
    {"start": [11, 4], "steps": [{"walk": "N"}] * 10 + [{"walk": "W"}]},
]


def opened(teams: int = 3, **options: Any) -> HexenhalmaState:
    state = RULES.setup(options, teams + 1, SEED)
    state, events = RULES.apply(
        state, 0, {"type": "open_round", "board": "rectangle", "deadline": None}
    )
    assert events[0]["type"] == "round_opened"
    return state


def submit(state: HexenhalmaState, seat: int, orders: Any, lock: bool = True) -> HexenhalmaState:
    state, _ = RULES.apply(state, seat, {"type": "orders", "orders": orders})
    if lock:
        state, _ = RULES.apply(state, seat, {"type": "lock"})
    return state


def roundtrip(state: HexenhalmaState) -> None:
    data = json.loads(json.dumps(RULES.encode(state)))
    assert RULES.decode(data) == state


def test_setup_seats_and_names() -> None:
    with pytest.raises(InvalidOptions):
        RULES.setup({}, 2, 1)
    with pytest.raises(InvalidOptions):
        RULES.setup({}, 22, 1)
    with pytest.raises(InvalidOptions):
        RULES.setup({"rounds": -1}, 3, 1)
    state = RULES.setup({}, 4, 1)
    assert RULES.to_act(state) == [0]
    assert RULES.seat_names(4) == ["Game master", "Team 1", "Team 2", "Team 3"]
    assert RULES.outcome(state) is None
    assert (RULES.min_seats, RULES.max_seats) == (3, 21)
    roundtrip(state)


def test_open_round_checks_board_params_deadline_and_seat() -> None:
    state = RULES.setup({}, 3, 1)
    bad_board = {**RECT["board"], "fields": RECT["board"]["fields"][1:]}
    for action, message in [
        ({"type": "open_round", "board": bad_board, "params": RECT["params"]}, "symmetric"),
        ({"type": "open_round", "board": "nope"}, "Unknown preset board"),
        (
            {
                "type": "open_round",
                "board": RECT["board"],
                "params": {**RECT["params"], "witches": 99},
            },
            "witches must lie",
        ),
        ({"type": "open_round", "board": "rectangle", "deadline": "soon"}, "ISO date-time"),
        ({"type": "close"}, "No round is open"),
        ({"type": "orders", "orders": []}, "writes no orders"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            RULES.apply(state, 0, action)
    with pytest.raises(IllegalAction, match="Only the game master"):
        RULES.apply(state, 1, {"type": "open_round", "board": "rectangle"})
    state, _events = RULES.apply(
        state,
        0,
        {
            "type": "open_round",
            "board": RECT["board"],
            "params": RECT["params"],
            "deadline": "2030-01-02T03:04:05+00:00",
        },
    )
    assert RULES.to_act(state) == [1, 2]
    view = RULES.view(state, None)
    assert view["deadline"] == "2030-01-02T03:04:05+00:00"
    assert view["board"]["goals"][0] == [0, 1]
    assert view["params"]["spells"]["Z"] == 1
    with pytest.raises(IllegalAction, match="already open"):
        RULES.apply(state, 0, {"type": "open_round", "board": "rectangle"})
    roundtrip(state)


def test_orders_are_validated_revisable_and_locked() -> None:
    state = opened()
    with pytest.raises(IllegalAction, match=r"Witch 1 has 1 steps: this round needs at least 11"):
        RULES.apply(state, 1, {"type": "orders", "orders": [straight(1, 1), straight(2)]})
    state = submit(state, 1, LOST, lock=False)
    state = submit(state, 1, GOOD, lock=False)  # revised
    assert RULES.view(state, 1)["my_orders"] == GOOD
    assert RULES.timeout_action(state, 1) == {"type": "lock"}
    state, events = RULES.apply(state, 1, {"type": "lock"})
    assert events == [{"type": "locked", "seat": 1, "round": 1}]
    assert RULES.to_act(state) == [2, 3]
    with pytest.raises(IllegalAction, match="locked"):
        RULES.apply(state, 1, {"type": "orders", "orders": LOST})
    assert not RULES.round_ready(state)
    state, _ = RULES.apply(state, 2, RULES.timeout_action(state, 2))  # no orders: starves
    state = submit(state, 3, LOST)
    assert RULES.round_ready(state)
    assert RULES.to_act(state) == []
    assert RULES.view(state, None)["phase"] == "resolving"
    assert RULES.timeout_action(state, 0) is None


def test_secrecy_of_views_and_events() -> None:
    state = opened()
    state, events = RULES.apply(state, 1, {"type": "orders", "orders": GOOD})
    event = events[0]
    assert RULES.view_event(event, 1) == event
    for seat in (0, 2, 3):
        assert RULES.view_event(event, seat) == {"type": "orders_submitted", "seat": 1, "round": 1}
    assert RULES.view_event(event, None) is None
    gm = RULES.view(state, 0)
    assert gm["submitted"] == [1]
    assert "my_orders" not in gm
    assert RULES.view(state, 1)["my_orders"] == GOOD
    assert RULES.view(state, 2)["my_orders"] is None
    spectator = RULES.view(state, None)
    assert "submitted" not in spectator and "my_orders" not in spectator
    secret = json.dumps(GOOD[0]["steps"][:3])[1:-1]
    for seat in (0, 2, 3, None):
        text = json.dumps(RULES.view(state, seat))
        assert secret not in text
        assert str(SEED) not in text and '"seed"' not in text and '"counter"' not in text
    locked = RULES.apply(state, 1, {"type": "lock"})[1][0]
    assert RULES.view_event(locked, None) == locked


def test_round_robin_for_three_teams() -> None:
    state = opened(3)
    state = submit(state, 1, GOOD)
    state, _ = RULES.apply(state, 2, {"type": "lock"})
    state = submit(state, 3, LOST)
    new, events, records = RULES.resolve_round(state)
    assert pairings([1, 2, 3]) == [(1, 2), (3, 1), (2, 3)]
    assert [r["teams"] for r in records] == [[1, 2], [3, 1], [2, 3]]
    assert [r["score"] for r in records] == [[2, 0], [0, 2], [0, 0]]
    assert records[0]["fates"][1] == [{"fate": "starved", "step": 0}] * 2
    assert records[0]["fates"][0] == [{"fate": "goal", "step": 11}] * 2
    # Team 1 plays side B against team 3: its orders are rotated and still reach the goal.
    assert records[1]["trace"][11]["positions"][1] == [[11, 8], [11, 7]]
    assert records[1]["board"] == RECT["board"]
    resolved = events[0]
    assert resolved["type"] == "round_resolved"
    assert [m["points"] for m in resolved["matches"]] == [[2, 0], [0, 2], [1, 1]]
    table = [(r["seat"], r["goals"], r["points"], r["rank"]) for r in resolved["standings"]]
    assert table == [(1, 4, 4, 1), (2, 0, 1, 2), (3, 0, 1, 2)]
    assert new.phase == "waiting" and RULES.to_act(new) == [0]
    assert new.counter == state.counter + 3
    assert RULES.view(new, 1)["results"] == [
        {
            "round": 1,
            "matches": [
                {"teams": [1, 2], "score": [2, 0]},
                {"teams": [3, 1], "score": [0, 2]},
                {"teams": [2, 3], "score": [0, 0]},
            ],
        }
    ]
    assert RULES.resolve_round(state) == (new, events, records)  # deterministic
    roundtrip(new)
    json.dumps(records)
    # The GM ends the campaign: team 1 leads.
    done, events = RULES.apply(new, 0, {"type": "finish"})
    assert RULES.outcome(done) == {
        "winners": [1],
        "draw": False,
        "reason": RULES.outcome(done)["reason"],
    }
    assert events[0]["type"] == "finished" and events[0]["winners"] == [1]
    assert RULES.to_act(done) == []
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(done, 0, {"type": "open_round", "board": "rectangle"})


def test_round_robin_for_four_teams_and_sides() -> None:
    pairs = pairings([1, 2, 3, 4])
    assert len(pairs) == 6 and {frozenset(p) for p in pairs} == {
        frozenset((i, j)) for i in range(1, 5) for j in range(i + 1, 5)
    }
    side_a = [sum(a == s for a, _ in pairs) for s in range(1, 5)]
    assert side_a == [2, 1, 2, 1]
    state = opened(4)
    for seat in (1, 2, 3, 4):
        state = submit(state, seat, GOOD)
    new, events, records = RULES.resolve_round(state)
    assert len(records) == 6 and all(r["score"] == [2, 2] for r in records)
    assert all(
        row["goals"] == 6 and row["points"] == 3 and row["rank"] == 1
        for row in events[0]["standings"]
    )
    done, _ = RULES.apply(new, 0, {"type": "finish"})
    assert RULES.outcome(done)["winners"] == [1, 2, 3, 4]
    assert RULES.outcome(done)["draw"] is True


def test_standings_rank_goals_before_points() -> None:
    # Team 3 has fewer match points than team 2 but more witches in goal.
    state = RULES.setup({}, 4, 5)
    state = HexenhalmaState(
        **{**state.__dict__, "results": (((1, 2, 3, 0), (3, 1, 2, 2), (2, 3, 1, 0)),)}
    )
    table = standings(state)
    assert [(r["seat"], r["goals"], r["points"], r["rank"]) for r in table] == [
        (1, 5, 3, 1),
        (3, 2, 1, 2),
        (2, 1, 2, 3),
    ]


def test_rounds_option_finishes_after_the_last_round() -> None:
    state = opened(3, rounds=1)
    state, events = RULES.apply(state, 0, {"type": "close"})
    assert events == [{"type": "round_closed", "round": 1}]
    assert RULES.round_ready(state)
    with pytest.raises(IllegalAction, match="being resolved"):
        RULES.apply(state, 0, {"type": "close"})
    new, events, _ = RULES.resolve_round(state)
    assert [e["type"] for e in events] == ["round_resolved", "finished"]
    assert RULES.outcome(new)["winners"] == [1, 2, 3]
    assert RULES.to_act(new) == []


def test_two_rounds_add_up_and_leaving_teams_starve() -> None:
    state = opened(3)
    state = submit(state, 1, GOOD)
    state = submit(state, 2, GOOD)
    state = submit(state, 3, GOOD)
    state, _, _ = RULES.resolve_round(state)
    state, _ = RULES.apply(state, 0, {"type": "open_round", "board": "rectangle"})
    state, events = RULES.leave(state, 2)
    assert events == [{"type": "left", "seat": 2}]
    assert RULES.to_act(state) == [1, 3]
    state = submit(state, 1, GOOD)
    state = submit(state, 3, GOOD)
    state, events, _records = RULES.resolve_round(state)
    table = {r["seat"]: r["goals"] for r in events[0]["standings"]}
    assert table == {1: 8, 2: 4, 3: 8}
    assert RULES.view(state, None)["gone"] == [2]
    state, _ = RULES.apply(state, 0, {"type": "open_round", "board": "rectangle"})
    assert RULES.to_act(state) == [1, 3]  # a team that left stays locked
    with pytest.raises(IllegalAction):
        RULES.leave(state, 0)
    roundtrip(state)


# -- fuzzing ---------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.text(max_size=5)
    | st.sampled_from(["N", "K", "B"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "orders",
                    "board",
                    "params",
                    "start",
                    "steps",
                    "walk",
                    "fly",
                    "spell",
                    "ban_to",
                    "deadline",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
junk_actions = json_values | st.fixed_dictionaries(
    {"type": st.sampled_from(["orders", "lock", "open_round", "close", "finish", "move", 3])},
    optional={
        "orders": json_values,
        "board": json_values,
        "params": json_values,
        "deadline": json_values,
    },
)


@given(junk_actions, st.integers(-1, 4))
def test_junk_actions_raise_illegal_action_only(action: Any, seat: int) -> None:
    for state in (RULES.setup({}, 4, 3), opened(3)):
        before = RULES.encode(state)
        try:
            new, events = RULES.apply(state, seat, action)
        except IllegalAction:
            assert RULES.encode(state) == before
            continue
        assert RULES.encode(state) == before
        json.dumps(events)
        roundtrip(new)


@given(st.integers(0, 2**62), st.lists(st.integers(0, 1000), min_size=5, max_size=40))
def test_random_campaigns(seed: int, choices: list[int]) -> None:
    teams = 2 + seed % 3
    state = RULES.setup({"rounds": seed % 3}, teams + 1, seed)
    rng = random.Random(seed)
    for choice in choices:
        if RULES.outcome(state) is not None:
            break
        before, old = RULES.encode(state), state
        if RULES.round_ready(state):
            state, events, records = RULES.resolve_round(state)
            assert len(records) == teams * (teams - 1) // 2
            json.dumps(records)
        elif state.phase == "waiting":
            if choice % 5 == 0:
                action: dict[str, Any] = {"type": "finish"}
            else:
                action = {"type": "open_round", "board": list(PRESETS)[choice % 3]}
            state, events = RULES.apply(state, 0, action)
        else:
            seat = RULES.to_act(state)[choice % len(RULES.to_act(state))]
            if choice % 3 == 0:
                state, events = RULES.apply(state, seat, {"type": "lock"})
            else:
                board, params = json.loads(state.board), json.loads(state.params)
                orders = random_orders(board, params, rng)
                state, events = RULES.apply(state, seat, {"type": "orders", "orders": orders})
        assert RULES.encode(old) == before  # nothing mutates its input
        roundtrip(state)
        json.dumps(events)
        for seat in (None, *range(state.seats)):
            view = RULES.view(state, seat)
            assert str(seed) not in json.dumps(view) or seed < 10**6
            assert "seed" not in view and "counter" not in view
            for event in events:
                shown = RULES.view_event(event, seat)
                if event["type"] == "orders" and seat != event["seat"]:
                    assert shown is None or "orders" not in shown
        assert all(s in range(state.seats) for s in RULES.to_act(state))


def random_campaign(seats: int, options: dict[str, Any], seed: int) -> tuple[Any, list[str]]:
    """Play a campaign with random_action only, as the contract test does; the
    platform's worker resolves each round. Returns the last state and action types."""
    rng = random.Random(seed)
    state = RULES.setup(options, seats, seed)
    kinds: list[str] = []
    for _ in range(5000):
        if RULES.outcome(state) is not None:
            break
        if RULES.work_due(state):
            state = RULES.do_work(state)[0]
            continue
        actors = sorted(
            {*RULES.to_act(state), *(s for s in range(seats) if RULES.may_act(state, s))}
        )
        seat = rng.choice(actors)
        action = RULES.random_action(state, seat, rng)
        if action is None:
            assert seat not in RULES.to_act(state)
            continue
        state = RULES.apply(state, seat, action)[0]
        kinds.append(action["type"])
    return state, kinds


def test_random_actions_play_a_campaign_to_its_last_round() -> None:
    state, kinds = random_campaign(4, {"rounds": 2}, SEED)
    assert RULES.outcome(state)["reason"] == "all rounds are played; most witches in goal wins"
    assert len(state.results) == 2 and all(len(matches) == 3 for matches in state.results)
    assert kinds.count("open_round") == 2 and "orders" in kinds and "lock" in kinds
    assert any(ga or gb for matches in state.results for _, _, ga, gb in matches)


def test_random_actions_fill_the_largest_table() -> None:
    state, kinds = random_campaign(21, {"rounds": 1}, SEED)
    assert RULES.outcome(state) is not None and len(state.results[0]) == 190
    assert kinds.count("orders") >= 20


def test_random_action_of_the_game_master_and_of_teams() -> None:
    rng = random.Random(5)
    state = RULES.setup({}, 3, SEED)
    assert RULES.random_action(state, 1, rng) is None  # no round open: teams wait
    opening = RULES.random_action(state, 0, rng)
    assert opening["type"] == "open_round" and opening["board"] in PRESETS
    state = RULES.apply(state, 0, opening)[0]
    first = RULES.random_action(state, 1, rng)
    assert first["type"] == "orders"  # a team writes orders before it may lock them
    state = RULES.apply(state, 1, first)[0]
    answers = {RULES.random_action(state, 1, random.Random(k))["type"] for k in range(20)}
    assert answers == {"orders", "lock"}
    closes = {str(RULES.random_action(state, 0, random.Random(k))) for k in range(100)}
    assert closes == {"None", str({"type": "close"})}


def test_normalize_action_keeps_only_validated_boards_params_and_orders():
    """A team's orders and the GM's round are stored as the rules read them:
    extra keys are dropped (or, inside params and orders, refused), and the
    normalised action replays to the same state as the one sent."""
    import random

    from games.rules.hexenhalma import PRESETS
    from games.rules.hexenhalma.sample import random_orders

    rs = HexenhalmaRuleset()
    state = rs.setup({}, 3, 99)
    preset = PRESETS["rectangle"]
    sent = {"type": "open_round", "board": "rectangle", "deadline": None, "junk": "x" * 500}
    clean = rs.normalize_action(state, 0, sent)
    assert clean == {"type": "open_round", "board": "rectangle", "params": None, "deadline": None}
    custom = {
        "type": "open_round",
        "board": {**preset["board"], "junk": [1] * 100},
        "params": preset["params"],
        "deadline": None,
    }
    normal = rs.normalize_action(state, 0, custom)
    assert "junk" not in normal["board"]
    assert rs.normalize_action(state, 0, normal) == normal
    assert rs.encode(rs.apply(state, 0, normal)[0]) == rs.encode(rs.apply(state, 0, custom)[0])
    state, _ = rs.apply(state, 0, clean)

    orders = random_orders(preset["board"], preset["params"], random.Random(3))
    padded = [{**o, "steps": [{**s, "junk": 1} for s in o["steps"]]} for o in orders]
    with pytest.raises(IllegalAction):
        rs.normalize_action(state, 1, {"type": "orders", "orders": padded})
    sent = {"type": "orders", "orders": orders, "extra": {"big": "z" * 1000}}
    clean = rs.normalize_action(state, 1, sent)
    assert clean == {"type": "orders", "orders": orders}
    assert rs.encode(rs.apply(state, 1, clean)[0]) == rs.encode(rs.apply(state, 1, sent)[0])
    assert rs.normalize_action(state, 1, {"type": "lock", "why": "x"}) == {"type": "lock"}
