"""Das Idiotenspiel: set-up, both scenarios played to a victory, random playouts, junk."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.base import IllegalAction, InvalidOptions
from games.rules.idiotenspiel import MAPS, IdiotenspielRuleset
from games.rules.idiotenspiel.movement import stack_ok
from games.rules.idiotenspiel.scenarios import (
    inner_forest,
    island_castle,
    lower_castle,
    near_fortress,
)
from games.rules.idiotenspiel.state import State

from .test_idiotenspiel_helpers import get

RS = IdiotenspielRuleset()
BURG = MAPS["die_burg"]


def cheb(a: Any, b: Any) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def run(state: State, seat: int, action: dict[str, Any]) -> State:
    return RS.apply(state, seat, action)[0]


# -- maps and options ------------------------------------------------------------------------


def test_maps_fit_the_seed():
    for key in ("die_burg", "die_huegelkette"):
        md = MAPS[key]
        assert len(md.rows) == md.height and all(len(r) == md.width for r in md.rows)
        assert md.width > md.height  # the short sides (W, E) are the Grundspiel home edges
    assert lower_castle(BURG) and all(
        i // BURG.width >= BURG.height * 2 / 3 for i in lower_castle(BURG)
    )
    assert island_castle(BURG) and all(i % BURG.width < BURG.width / 3 for i in island_castle(BURG))
    # the island castle is cut off by the river: every way out crosses a ford
    island, todo = set(island_castle(BURG)), list(island_castle(BURG))
    while todo:
        for n in BURG.neigh[todo.pop()]:
            if BURG.terrain[n] not in "~o" and n not in island:
                island.add(n)
                todo.append(n)
    assert len(island) < 30 and all(i % BURG.width < 5 for i in island)
    assert len(inner_forest(BURG)) >= 20
    assert all(i % BURG.width >= 20 for i in inner_forest(BURG))  # the great forest lies east
    assert {c for c in "".join(BURG.rows)} == set(".=hfs~oFcr")
    camp = [i for i, c in enumerate(BURG.terrain) if c == "c"]
    assert camp and all(i // BURG.width <= 2 for i in camp)  # the Sheriff's camp in the north
    ridge = MAPS["die_huegelkette"]
    for y in range(ridge.height):  # a ridge of hills runs across the whole map
        assert "h" in ridge.rows[y] or "=" in ridge.rows[y][11:17]


def test_options():
    assert RS.default_options() == {"scenario": "grundspiel", "map": "die_burg", "sandglass": 30}
    assert RS.validate_options({"sandglass": 0})["sandglass"] == 0
    with pytest.raises(InvalidOptions):
        RS.validate_options({"scenario": "marian", "map": "die_huegelkette"})
    with pytest.raises(InvalidOptions):
        RS.validate_options({"sandglass": -1})
    with pytest.raises(InvalidOptions):
        RS.setup({}, 3, 1)
    assert RS.seat_names(2) == ["Robin Hood", "Sheriff of Nottingham"]


# -- set-up ------------------------------------------------------------------------------------


def test_grundspiel_choice_of_side_and_zone():
    s = RS.setup({}, 2, 5)
    start = s.start_player
    assert s.phase == "choose" and RS.to_act(s) == [start]
    assert RS.legal_actions(s, start) == [
        {"type": "choose_setup", "side": "W", "zone": "edge"},
        {"type": "choose_setup", "side": "W", "zone": "fortress"},
        {"type": "choose_setup", "side": "E", "zone": "edge"},
    ]
    with pytest.raises(IllegalAction, match="no fortress"):
        run(s, start, {"type": "choose_setup", "side": "E", "zone": "fortress"})
    with pytest.raises(IllegalAction, match="short map sides"):
        run(s, start, {"type": "choose_setup", "side": "N", "zone": "edge"})
    s2 = run(s, start, {"type": "choose_setup", "side": "E", "zone": "edge"})
    # the other player gets the W side, which has the island castle: it chooses a zone
    assert s2.phase == "choose" and RS.to_act(s2) == [1 - start]
    assert RS.legal_actions(s2, 1 - start) == [
        {"type": "choose_setup", "zone": "edge"},
        {"type": "choose_setup", "zone": "fortress"},
    ]
    s3 = run(s2, 1 - start, {"type": "choose_setup", "zone": "edge"})
    assert s3.phase == "setup" and RS.to_act(s3) == [start]
    assert s3.home[start] == "E" and s3.home[1 - start] == "W"
    # placements alternate, inside the 10 columns by one's own edge
    for a in RS.legal_actions(s3, start):
        assert a["at"][0] >= BURG.width - 10
    s4 = run(s3, start, RS.legal_actions(s3, start)[0])
    assert RS.to_act(s4) == [1 - start]


def test_fortress_setup_puts_two_thirds_inside():
    s = RS.setup({}, 2, 5)
    me = s.start_player
    s = run(s, me, {"type": "choose_setup", "side": "W", "zone": "fortress"})
    assert s.phase == "setup"  # the E side has no fortress: edge set-up by itself
    forts = near_fortress(BURG, "W")
    n = sum(1 for u in s.units if u.side == me)
    quota = (2 * n + 2) // 3
    while s.phase == "setup":
        seat = RS.to_act(s)[0]
        legal = RS.legal_actions(s, seat)
        if seat == me:
            inside = sum(1 for u in s.units if u.side == me and u.at and BURG.index(*u.at) in forts)
            for a in legal:
                if inside < quota and get(s, a["unit"]).kind == "infantry":
                    assert BURG.index(*a["at"]) in forts  # infantry goes inside first
                else:
                    assert BURG.index(*a["at"]) not in forts  # quota met, or cavalry
            # prefer units that stay outside, to test that they are allowed
            outside = [a for a in legal if BURG.index(*a["at"]) not in forts]
            s = run(s, seat, (outside or legal)[-1])
        else:
            s = run(s, seat, legal[-1])
    inside = sum(1 for u in s.units if u.side == me and u.at and BURG.index(*u.at) in forts)
    assert inside >= quota
    assert s.phase == "move" and s.active == me


def test_marian_setup_camp_and_forests():
    s = RS.setup({"scenario": "marian"}, 2, 3)
    assert s.phase == "setup" and RS.to_act(s) == [1]  # the Sheriff starts
    legal = RS.legal_actions(s, 1)
    assert all(BURG.at(*a["at"]) == "c" for a in legal)
    assert not any(a["unit"] == "m" for a in legal)  # Marian needs a guard in her field
    s = run(s, 1, {"type": "place", "unit": "s7", "at": [13, 1]})
    robin = RS.legal_actions(s, 0)
    assert robin and all(BURG.at(*a["at"]) == "f" for a in robin)
    s = run(s, 0, robin[0])
    assert {"type": "place", "unit": "m", "at": [13, 1]} in RS.legal_actions(s, 1)
    s = run(s, 1, {"type": "place", "unit": "m", "at": [13, 1]})
    assert get(s, "m").guard == "s7"


# -- both scenarios played to a victory ---------------------------------------------------------


def greedy(s: State, seat: int) -> dict[str, Any]:
    """A scripted player: march on the enemy leader, attack leaders first, always roll."""
    acts = RS.legal_actions(s, seat)
    if s.phase in ("move", "grace"):
        goal = next(u.at for u in s.units if u.leader and u.side != seat)
        pos = {u.id: u.at for u in s.units}
        best, gain = None, 0
        for a in acts:
            if a["type"] == "move" and "with" not in a:
                d = cheb(pos[a["unit"]], goal) - cheb(a["to"], goal)
                if d > gain:
                    best, gain = a, d
        return best or {"type": "end_movement"}
    if s.phase == "combat" and s.pending is None:
        attacks = [a for a in acts if a["type"] == "attack"]
        leaders = {u.id for u in s.units if u.leader}
        return next((a for a in attacks if a["target"] in leaders), None) or (
            attacks[0] if attacks else {"type": "end_combat"}
        )
    if s.pending is not None and s.pending.kind == "advance":
        return {"type": "advance", "yes": True}
    return acts[0]


@pytest.mark.parametrize(
    ("options", "seed", "winner"),
    [({}, 2, 0), ({}, 0, 1), ({"map": "die_huegelkette"}, 1, None)],
)
def test_grundspiel_played_to_the_end(options, seed, winner):
    s = RS.setup(options, 2, seed)
    kinds: set[str] = set()
    for _ in range(3000):
        if RS.outcome(s) is not None:
            break
        seat = RS.to_act(s)[0]
        s, events = RS.apply(s, seat, greedy(s, seat))
        kinds.update(e["type"] for e in events)
    result = RS.outcome(s)
    assert result is not None and not result["draw"]
    assert "eliminated or captured" in result["reason"]
    if winner is not None:
        assert result["winners"] == [winner]
    assert {"placed", "moved", "fight", "game_over"} <= kinds
    assert RS.to_act(s) == [] and RS.legal_actions(s, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        RS.apply(s, 0, {"type": "end_movement"})


def _marian_setup(s: State, seat: int, robin_near: tuple[int, ...]) -> dict[str, Any]:
    legal = RS.legal_actions(s, seat)
    if seat == 1:
        placed = {u.id for u in s.units if u.at is not None}
        if "s1" not in placed:
            return {"type": "place", "unit": "s1", "at": [14, 2]}
        if "m" not in placed:
            return {"type": "place", "unit": "m", "at": [14, 2]}
        return next(a for a in legal if a["at"] != [14, 2])
    near = [a for a in legal if a["at"][0] in robin_near]
    return (near or legal)[-1 if not robin_near else 0]


def test_marian_the_sheriff_brings_her_to_his_castle():
    s = RS.setup({"scenario": "marian"}, 2, 11)
    while s.phase == "setup":
        seat = RS.to_act(s)[0]
        s = run(s, seat, _marian_setup(s, seat, ()))
    assert s.active == 1 and get(s, "m").at == (14, 2) and get(s, "m").guard == "s1"
    for y in range(3, 15):  # s1 (infantry, 1 field a turn) walks the road south with her
        s = run(s, 1, {"type": "move", "unit": "s1", "to": [14, y]})
        assert get(s, "m").at == (14, y)
        if RS.outcome(s) is not None:
            break
        s = run(s, 1, {"type": "end_movement"})
        s = run(s, 0, {"type": "end_movement"})
    assert RS.outcome(s) == {
        "winners": [1],
        "draw": False,
        "reason": "the Sheriff brought Maid Marian into his castle",
    }


def test_marian_robin_frees_her_and_brings_her_into_the_great_forest():
    target = (22, 5)
    assert BURG.index(*target) in inner_forest(BURG)
    s = RS.setup({"scenario": "marian"}, 2, 1)
    while s.phase == "setup":
        seat = RS.to_act(s)[0]
        s = run(s, seat, _marian_setup(s, seat, (10, 11)))
    kinds: set[str] = set()
    for _ in range(3000):
        if RS.outcome(s) is not None:
            break
        seat = RS.to_act(s)[0]
        s, events = RS.apply(s, seat, _marian_player(s, seat, target))
        kinds.update(e["type"] for e in events)
    assert RS.outcome(s) == {
        "winners": [0],
        "draw": False,
        "reason": "Maid Marian reached the inside of the great forest",
    }
    assert {"freed", "marian_moved", "fight"} <= kinds


def _marian_player(s: State, seat: int, target: tuple[int, int]) -> dict[str, Any]:
    """Robin attacks Marian's guard and leads her away; the Sheriff only fights back."""
    acts = RS.legal_actions(s, seat)
    m = get(s, "m")
    if s.pending is not None:
        if s.pending.kind == "advance":
            return {"type": "advance", "yes": seat == 0}
        return acts[0]
    if s.phase == "combat":
        attacks = [a for a in acts if a["type"] == "attack" and a["target"] != "m"]
        attacks = [a for a in attacks if "capture" not in a]
        first = next((a for a in attacks if a["target"] == m.guard), None)
        return first or (attacks[0] if attacks else {"type": "end_combat"})
    if seat == 1:
        return {"type": "end_movement"}
    if s.phase == "marian":
        return min(acts, key=lambda a: cheb(a["to"], target))
    escort = [a for a in acts if a.get("with") == ["m"]]
    if m.guard is None and escort:
        return min(escort, key=lambda a: cheb(a["to"], target))
    pos = {u.id: u.at for u in s.units}
    best, gain = None, 0
    for a in acts:
        if a["type"] == "move" and "with" not in a:
            d = cheb(pos[a["unit"]], m.at) - cheb(a["to"], m.at)
            if d > gain:
                best, gain = a, d
    return best or {"type": "end_movement"}


# -- random playouts -------------------------------------------------------------------------------


def check_invariants(s: State) -> None:
    md = MAPS[s.map_key]
    by_id = {u.id: u for u in s.units}
    stacks: dict[tuple[Any, int], list[int]] = {}
    for u in s.units:
        if not u.alive:
            assert u.at is None
            continue
        if u.at is None:
            continue
        assert md.inside(*u.at)
        if u.guard is not None:
            g = by_id[u.guard]
            assert g.alive and g.at == u.at and g.guard is None and g.side != u.side
            continue
        assert md.ranges[u.kind][md.index(*u.at)], (u, md.at(*u.at))  # never on impassable ground
        if u.type != "civilian":
            c = stacks.setdefault((u.at, u.side), [0, 0, 0])
            c[("infantry", "cavalry", "chariot").index(u.kind)] += 1
    for key, counts in stacks.items():
        assert stack_ok(*counts), key


def _view_has_no_seed(s: State) -> None:
    for seat in (None, 0, 1):
        text = json.dumps(RS.view(s, seat))
        assert '"seed"' not in text and '"rng"' not in text
        assert str(s.seed) not in text or s.seed < 1000


@given(
    seed=st.integers(min_value=1000, max_value=2**40),
    scenario=st.sampled_from(["grundspiel", "marian"]),
    data=st.data(),
)
def test_random_playouts_keep_the_rules(seed: int, scenario: str, data: st.DataObject) -> None:
    s = RS.setup({"scenario": scenario}, 2, seed)
    for step in range(140):
        if RS.outcome(s) is not None:
            assert RS.to_act(s) == []
            break
        seat = RS.to_act(s)[0]
        legal = RS.legal_actions(s, seat)
        assert legal, (s.phase, s.pending)
        movish = [a for a in legal if a["type"] not in ("end_movement", "end_combat")]
        pool = movish if movish and data.draw(st.integers(0, 9)) else legal
        action = pool[data.draw(st.integers(0, len(pool) - 1))]
        before = json.dumps(RS.encode(s), sort_keys=True)
        new, events = RS.apply(s, seat, action)
        assert json.dumps(RS.encode(s), sort_keys=True) == before  # apply is pure
        assert RS.decode(json.loads(json.dumps(RS.encode(new)))) == new
        json.dumps(events)
        check_invariants(new)
        if step % 20 == 0:
            _view_has_no_seed(new)
            for e in events:
                assert RS.view_event(e, 0) == e
        s = new


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 50) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
TYPES = [
    "choose_setup",
    "place",
    "move",
    "end_movement",
    "sandglass",
    "attack",
    "roll",
    "decline",
    "retreat",
    "advance",
    "end_combat",
    "capture",
    "move_marian",
]
KEYS = ["unit", "target", "to", "at", "side", "zone", "facing", "with", "kind", "capture", "yes"]


def _junk_states() -> list[State]:
    """States in every phase: play a fixed game a little and keep snapshots."""
    out: list[State] = []
    for options, seed in (({}, 2), ({"scenario": "marian"}, 1)):
        s = RS.setup(options, 2, seed)
        seen: set[str] = set()
        for _ in range(400):
            if RS.outcome(s) is not None:
                break
            tag = s.phase + (s.pending.kind if s.pending else "")
            if tag not in seen:
                seen.add(tag)
                out.append(s)
            seat = RS.to_act(s)[0]
            if options == {}:
                s = run(s, seat, greedy(s, seat))
            elif s.phase == "setup":
                s = run(s, seat, _marian_setup(s, seat, (10, 11)))
            else:
                s = run(s, seat, _marian_player(s, seat, (22, 5)))
    return out


JUNK_STATES = _junk_states()


@given(
    index=st.integers(0, len(JUNK_STATES) - 1),
    action=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {"type": st.sampled_from(TYPES)},
            optional={k: JSON for k in KEYS},
        ),
    ),
    seat=st.sampled_from([0, 1, 2, -1]),
)
def test_junk_actions_raise_illegal_action_only(index: int, action: Any, seat: int) -> None:
    s = JUNK_STATES[index]
    before = json.dumps(RS.encode(s), sort_keys=True)
    try:
        RS.apply(s, seat, action)
    except IllegalAction as err:
        assert err.template
    assert json.dumps(RS.encode(s), sort_keys=True) == before


def test_junk_states_cover_every_phase():
    tags = {s.phase + (s.pending.kind if s.pending else "") for s in JUNK_STATES}
    assert {"choose", "setup", "move", "combat", "marian"} <= tags
    assert {"combatretreat", "combatadvance", "combatdefend"} & tags


def test_views_and_encoding():
    s = JUNK_STATES[-1]
    view = RS.view(s, 0)
    assert view["map"]["rows"] == list(MAPS[s.map_key].rows)
    assert {"units", "phase", "to_act", "combat", "sandglass", "last"} <= set(view)
    assert RS.view(s, None)["to_act"] == RS.to_act(s)
    assert RS.decode(RS.encode(s)) == s
    assert isinstance(RS.position_key(s), str)
