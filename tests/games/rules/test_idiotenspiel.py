"""Das Idiotenspiel (RULES.md §5): one focused test per rule, on the small probe map.

Seat 0 is Robin Hood, seat 1 the Sheriff; Robin's home edge is W, the
Sheriff's E unless a test says otherwise. See test_idiotenspiel_helpers for
the map drawing.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.rules.base import IllegalAction
from games.rules.idiotenspiel import MAPS, line_of_sight, reachable
from games.rules.idiotenspiel.movement import stack_ok
from games.rules.idiotenspiel.sight import crossed, in_front

from .test_idiotenspiel_helpers import (
    RS,
    act,
    at,
    combat,
    get,
    of_type,
    position,
    rigged,
    unit,
)

PROBE = MAPS["probe"]


def pts(fields: list[list[int]]) -> set[tuple[int, int]]:
    return {(x, y) for x, y in fields}


# -- the two public helpers -------------------------------------------------------------


def test_infantry_moves_one_field():
    assert reachable(PROBE, "infantry", [0, 0]) == [[1, 0], [0, 1], [1, 1]]


def test_cavalry_moves_three_fields_around_the_forest():
    found = pts(reachable(PROBE, "cavalry", [5, 0]))
    assert len(found) == 20
    assert (8, 1) in found and (6, 3) in found  # 3 steps round the forest
    assert (8, 2) not in found and (7, 3) not in found  # 4 steps
    assert not found & {(6, 1), (7, 1), (6, 2), (7, 2)}  # forest: x for cavalry


def test_range_is_the_smallest_range_of_the_fields_entered():
    found = pts(reachable(PROBE, "cavalry", [9, 5]))
    assert (7, 6) in found  # camp (range 2) entered on the 2nd step
    assert (6, 6) not in found  # a camp field 3 steps away
    assert (6, 7) in found  # plain all the way: 3 steps
    chariot = pts(reachable(PROBE, "chariot", [8, 3]))
    assert (10, 3) not in chariot  # a ford (range 1) two steps away
    assert (10, 3) in pts(reachable(PROBE, "chariot", [9, 3]))
    assert not chariot & {(7, 2), (2, 1), (10, 2)}  # forest, hill, rock


def test_impassable_terrain():
    assert (11, 3) not in pts(reachable(PROBE, "infantry", [10, 2]))  # river
    assert (10, 2) not in pts(reachable(PROBE, "infantry", [9, 2]))  # rock
    assert (4, 4) not in pts(reachable(PROBE, "cavalry", [5, 3]))  # swamp
    assert (6, 4) in pts(reachable(PROBE, "infantry", [5, 3]))  # fortress


def test_a_unit_stops_next_to_an_enemy_and_never_enters_its_field():
    found = pts(reachable(PROBE, "cavalry", [0, 3], enemies=[[2, 5]]))
    assert (1, 4) in found and (1, 6) in found and (2, 4) in found  # may stop there
    assert (2, 6) not in found  # only through a threatened field
    assert (2, 5) not in found
    assert (0, 6) in found  # the way along the edge stays unthreatened


def test_full_fields_can_be_neither_entered_nor_passed():
    assert reachable(PROBE, "cavalry", [0, 0], full=[[1, 0], [0, 1], [1, 1]]) == []


def test_a_unit_leaves_an_enemy_field_only_towards_its_home_edge():
    assert reachable(PROBE, "infantry", [5, 3], enemies=[[5, 3]], home="W") == [
        [4, 2],
        [4, 3],
        [4, 4],
    ]
    assert pts(reachable(PROBE, "infantry", [5, 3], enemies=[[5, 3]], home="E")) == {
        (6, 2),
        (6, 3),
        (6, 4),
    }


def test_reachable_accepts_the_map_as_json():
    as_json = PROBE.as_json()
    assert reachable(as_json, "cavalry", [5, 0]) == reachable(PROBE, "cavalry", [5, 0])
    with pytest.raises(ValueError):
        reachable(as_json, "dragon", [0, 0])


def test_line_of_sight_terrain():
    assert line_of_sight(PROBE, [0, 0], [3, 0])
    assert not line_of_sight(PROBE, [1, 0], [4, 2])  # through the hills
    assert line_of_sight(PROBE, [0, 1], [2, 1])  # into a hill
    assert not line_of_sight(PROBE, [0, 1], [4, 1])  # through a hill
    assert not line_of_sight(PROBE, [5, 1], [8, 1])  # through the forest
    assert not line_of_sight(PROBE, [5, 4], [8, 4])  # through the fortress
    assert not line_of_sight(PROBE, [9, 1], [11, 3])  # through the rock


def test_line_of_sight_corner_touch_does_not_block():
    assert crossed(2, 2) == ((1, 1),)
    rock_beside = {"name": "t", "width": 3, "height": 3, "rows": [".r.", "...", "..."]}
    rock_between = {"name": "t", "width": 3, "height": 3, "rows": ["...", ".r.", "..."]}
    assert line_of_sight(rock_beside, [0, 0], [2, 2])
    assert not line_of_sight(rock_between, [0, 0], [2, 2])
    assert set(crossed(3, 1)) == {(1, 0), (2, 1)}


def test_line_of_sight_units_block():
    assert not line_of_sight(PROBE, [0, 0], [3, 0], units=[[2, 0]])
    assert line_of_sight(PROBE, [0, 0], [3, 0], units=[[2, 1], [3, 0], [0, 0]])


def test_stacking_limits():
    assert stack_ok(3, 0, 0) and not stack_ok(4, 0, 0)
    assert stack_ok(0, 2, 0) and not stack_ok(0, 3, 0)
    assert stack_ok(1, 1, 0) and not stack_ok(2, 1, 0) and not stack_ok(1, 2, 0)
    assert stack_ok(0, 0, 1) and not stack_ok(1, 0, 1) and not stack_ok(0, 0, 2)


def test_shield_wall_front_sectors():
    assert in_front("N", (5, 4), (5, 5)) and in_front("N", (6, 4), (5, 5))
    assert in_front("N", (7, 4), (5, 5))  # 2 right, 1 ahead: within the diagonal-front sector
    assert not in_front("N", (6, 5), (5, 5)) and not in_front("N", (5, 6), (5, 5))
    assert not in_front("N", (5, 5), (5, 5))


# -- movement --------------------------------------------------------------------------


def test_move_counts_and_each_unit_moves_once():
    s = position([unit("r1", 0, "infantry", (0, 0)), unit("s1", 1, "cavalry", (9, 0))])
    legal = RS.legal_actions(s, 0)
    # r1: 3 fields; the far leader rL at (0, 7): 3 fields; plus end_movement
    assert len(legal) == 7
    assert RS.legal_actions(s, 1) == []
    s, events = act(s, 0, {"type": "move", "unit": "r1", "to": [1, 1]})
    assert at(s, "r1") == (1, 1) and events[0]["type"] == "moved"
    with pytest.raises(IllegalAction, match="once per movement phase"):
        act(s, 0, {"type": "move", "unit": "r1", "to": [2, 2]})
    with pytest.raises(IllegalAction, match="not your unit"):
        act(s, 0, {"type": "move", "unit": "s1", "to": [8, 0]})
    with pytest.raises(IllegalAction, match="not your turn"):
        act(s, 1, {"type": "end_movement"})


def test_move_reasons():
    s = position([unit("r1", 0, "cavalry", (5, 0)), unit("s1", 1, "infantry", (9, 7))])
    with pytest.raises(IllegalAction, match="may not enter forest"):
        act(s, 0, {"type": "move", "unit": "r1", "to": [6, 1]})
    with pytest.raises(IllegalAction, match="cannot reach"):
        act(s, 0, {"type": "move", "unit": "r1", "to": [8, 2]})
    with pytest.raises(IllegalAction, match="off the map"):
        act(s, 0, {"type": "move", "unit": "r1", "to": [12, 0]})


def test_engine_stacking_blocks_a_fourth_infantry():
    units = [unit(f"r{i}", 0, "infantry", (1, 1)) for i in range(3)]
    units += [unit("r9", 0, "infantry", (2, 2)), unit("s1", 1, "infantry", (9, 7))]
    s = position(units)
    with pytest.raises(IllegalAction, match="Stacking"):
        act(s, 0, {"type": "move", "unit": "r9", "to": [1, 1]})
    mixed = [unit("r1", 0, "cavalry", (1, 1)), unit("r3", 0, "infantry", (1, 1))]
    s = position([*mixed, unit("r2", 0, "infantry", (1, 2))])
    with pytest.raises(IllegalAction, match="Stacking"):
        act(s, 0, {"type": "move", "unit": "r2", "to": [1, 1]})


def replace_unit(state, uid, **kw):
    return replace(state, units=tuple(replace(u, **kw) if u.id == uid else u for u in state.units))


def test_engine_leaves_a_shared_field_only_towards_home():
    s = position([unit("r1", 0, "infantry", (5, 3)), unit("s1", 1, "infantry", (5, 3))])
    moves = [a["to"] for a in RS.legal_actions(s, 0) if a.get("unit") == "r1"]
    assert sorted(moves) == [[4, 2], [4, 3], [4, 4]]


def test_shield_wall_sets_its_facing_and_may_turn_in_place():
    s = position(
        [unit("r1", 0, "shieldwall", (1, 0), facing="E"), unit("s1", 1, "infantry", (9, 7))]
    )
    legal = [a for a in RS.legal_actions(s, 0) if a.get("unit") == "r1"]
    assert len(legal) == 5 * 8 + 7  # 5 fields x 8 facings + 7 turns in place
    s2, _ = act(s, 0, {"type": "move", "unit": "r1", "to": [1, 0], "facing": "S"})
    assert get(s2, "r1").facing == "S" and get(s2, "r1").moved
    with pytest.raises(IllegalAction, match="only a shield wall may turn"):
        act(s, 0, {"type": "move", "unit": "rL", "to": [0, 7]})
    with pytest.raises(IllegalAction, match="Only a shield wall has a facing"):
        act(s, 0, {"type": "move", "unit": "rL", "to": [1, 7], "facing": "N"})


# -- the sandglass -----------------------------------------------------------------------


def test_sandglass_grace_for_the_field_being_worked_on():
    units = [unit(f"r{i}", 0, "infantry", (1, 1)) for i in range(3)]
    units += [unit("r9", 0, "infantry", (5, 0)), unit("s1", 1, "infantry", (9, 7))]
    s = position(units)
    assert RS.phase_timer(s) == 30
    key = RS.timer_key(s)
    assert RS.timeout_action(s, 0) == {"type": "sandglass"}
    assert RS.timeout_action(s, 1) is None
    s, _ = act(s, 0, {"type": "move", "unit": "r0", "to": [0, 0]})
    assert RS.timer_key(s) == key  # moves do not restart the sandglass
    s, events = act(s, 0, RS.timeout_action(s, 0))
    assert s.phase == "grace" and events[0] == {"type": "sandglass", "seat": 0, "field": [1, 1]}
    assert RS.phase_timer(s) == 10 and RS.timer_key(s) != key
    movers = {a["unit"] for a in RS.legal_actions(s, 0) if a["type"] == "move"}
    assert movers == {"r1", "r2"}
    with pytest.raises(IllegalAction, match="sandglass has run out"):
        act(s, 0, {"type": "move", "unit": "r9", "to": [4, 0]})
    s, _ = act(s, 0, {"type": "move", "unit": "r1", "to": [2, 1]})
    assert RS.timeout_action(s, 0) == {"type": "sandglass"}
    s, events = act(s, 0, RS.timeout_action(s, 0))
    assert events[0] == {"type": "movement_over", "seat": 0, "reason": "grace_over"}
    assert s.phase == "move" and s.active == 1  # no combat: the Sheriff's turn
    assert RS.phase_timer(s) == 30


def test_sandglass_without_moves_ends_the_phase():
    s = position([unit("r1", 0, "infantry", (1, 1)), unit("s1", 1, "infantry", (9, 7))])
    s, events = act(s, 0, {"type": "sandglass"})
    assert events[0]["reason"] == "sandglass" and s.active == 1
    s = position([unit("r1", 0, "infantry", (1, 1))], sandglass=0)
    assert RS.phase_timer(s) is None and RS.timeout_action(s, 0) is None


# -- melee ----------------------------------------------------------------------------------


def duel(att_type="infantry", def_type="infantry", a_at=(2, 0), d_at=(3, 0), **kw):
    return position(
        [unit("r1", 0, att_type, a_at, **kw), unit("s1", 1, def_type, d_at)], phase="move"
    )


def test_adjacent_enemies_must_fight():
    s = combat(duel())
    assert s.phase == "combat" and RS.to_act(s) == [0]
    assert RS.legal_actions(s, 0) == [
        {"type": "attack", "unit": "r1", "target": "s1", "kind": "melee"}
    ]
    with pytest.raises(IllegalAction, match="must fight"):
        act(s, 0, {"type": "end_combat"})


def test_melee_loser_retreats_and_winner_may_advance():
    s = rigged(combat(duel()), [5, 2])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    fight = of_type(events, "fight")[0]
    assert fight["attacker"]["total"] == 5 and fight["defender"]["total"] == 2
    assert fight["result"]["retreat"] == "s1"
    assert s.pending.kind == "retreat" and RS.to_act(s) == [1]
    options = RS.legal_actions(s, 1)
    assert sorted(a["to"] for a in options) == [[2, 1], [3, 1], [4, 0], [4, 1]]  # any direction
    s, events = act(s, 1, {"type": "retreat", "to": [4, 0]})
    assert at(s, "s1") == (4, 0)
    assert s.pending.kind == "advance" and RS.to_act(s) == [0]
    s, events = act(s, 0, {"type": "advance", "yes": True})
    assert at(s, "r1") == (3, 0) and of_type(events, "advanced")


def test_terrain_bonus_forest_and_swamp():
    s = rigged(combat(duel(a_at=(5, 1), d_at=(6, 1))), [3, 3])  # plain vs forest
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    fight = of_type(events, "fight")[0]
    assert fight["defender"]["bonuses"] == [{"source": "terrain", "terrain": "forest", "value": 1}]
    assert fight["defender"]["total"] == 4 and fight["result"]["retreat"] == "r1"
    s = rigged(combat(duel(a_at=(3, 4), d_at=(2, 4))), [3, 3])  # swamp vs plain
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "fight")[0]["attacker"]["total"] == 2


def test_hill_gives_a_further_plus_one_against_plain():
    s = rigged(combat(duel(a_at=(2, 1), d_at=(1, 1))), [3, 3])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    att = of_type(events, "fight")[0]["attacker"]
    assert att["bonuses"] == [{"source": "hill", "foe_terrain": "plain", "value": 1}]
    s = rigged(combat(duel("cavalry", "cavalry", a_at=(3, 0), d_at=(3, 1))), [3, 3])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    fight = of_type(events, "fight")[0]
    assert fight["attacker"]["total"] == 4  # cavalry on plain +1
    assert fight["defender"]["total"] == 5  # cavalry on hill +1, +1 more against plain


def test_six_or_more_eliminates_also_on_a_tie():
    s = rigged(combat(duel()), [6, 6])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert sorted(of_type(events, "fight")[0]["result"]["eliminated"]) == ["r1", "s1"]
    assert not get(s, "r1").alive and not get(s, "s1").alive


def test_equal_results_have_no_effect():
    s = rigged(combat(duel()), [4, 4])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "fight")[0]["result"] == {
        "eliminated": [],
        "captured": [],
        "retreat": None,
    }
    assert at(s, "r1") == (2, 0) and at(s, "s1") == (3, 0)


def test_no_retreat_field_means_elimination():
    # s1 in the corner, its neighbours held by Robin
    units = [unit("r1", 0, "infantry", (10, 0)), unit("s1", 1, "infantry", (11, 0))]
    units += [unit("r2", 0, "infantry", (10, 1)), unit("r3", 0, "infantry", (11, 1))]
    s = rigged(combat(position(units)), [5, 1])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "eliminated")[0] == {
        "type": "eliminated",
        "unit": "s1",
        "side": 1,
        "at": [11, 0],
        "reason": "no retreat",
    }


def test_a_single_retreat_field_is_taken_at_once():
    units = [unit("r1", 0, "infantry", (10, 0)), unit("s1", 1, "infantry", (11, 0))]
    units += [unit("r2", 0, "infantry", (10, 1))]
    s = rigged(combat(position(units)), [5, 1])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "retreated")[0]["to"] == [11, 1]
    # s1 now stands next to unfought r2: r2 must attack it again (or another unit)
    assert s.obligations == (("r2", "s1"),)
    assert s.pending.kind == "advance"
    s, _ = act(s, 0, {"type": "advance", "yes": False})
    assert RS.legal_actions(s, 0) == [
        {"type": "attack", "unit": "r2", "target": "s1", "kind": "melee"}
    ]


def test_leader_bonus_and_aura():
    units = [
        unit("r0", 0, "cavalry", (0, 0), leader=True, name="Robin"),
        unit("r1", 0, "infantry", (2, 0)),
        unit("r2", 0, "infantry", (5, 1)),  # 5 fields away: outside the aura
        unit("s1", 1, "infantry", (3, 0)),
        unit("s2", 1, "infantry", (6, 0)),
    ]
    s = rigged(combat(position(units)), [2, 2, 2, 2])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    att = of_type(events, "fight")[0]["attacker"]
    assert att["bonuses"] == [{"source": "aura", "leader": "r0", "value": 1}]
    assert att["total"] == 3 and s.pending.kind == "retreat"
    s, _ = act(s, 1, {"type": "retreat", "to": [4, 1]})  # next to r2: r2 owes a re-attack
    s, _ = act(s, 0, {"type": "advance", "yes": False})
    # attacking another unit instead settles the duty
    s, events = act(s, 0, {"type": "attack", "unit": "r2", "target": "s2"})
    assert of_type(events, "fight")[0]["attacker"]["bonuses"] == []


def test_leader_fights_with_plus_one():
    units = [
        unit("r0", 0, "infantry", (2, 0), leader=True, name="Robin"),
        unit("s1", 1, "infantry", (3, 0)),
    ]
    s = rigged(combat(position(units)), [2, 2])
    s, events = act(s, 0, {"type": "attack", "unit": "r0", "target": "s1"})
    att = of_type(events, "fight")[0]["attacker"]
    assert att["bonuses"] == [{"source": "leader", "unit": "r0", "value": 1}] and att["total"] == 3


def test_shield_wall_bonus_from_the_front_only():
    front = position(
        [unit("r1", 0, "infantry", (2, 0)), unit("s1", 1, "shieldwall", (3, 0), facing="W")]
    )
    s = rigged(combat(front), [3, 3])
    _, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "fight")[0]["defender"]["bonuses"] == [
        {"source": "shieldwall", "facing": "W", "value": 1}
    ]
    back = replace_unit(front, "s1", facing="E")
    s = rigged(combat(back), [3, 3])
    _, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "fight")[0]["defender"]["bonuses"] == []


def test_chariots_attack_twice():
    units = [
        unit("r1", 0, "chariot", (4, 0)),
        unit("s1", 1, "infantry", (5, 0)),
        unit("s2", 1, "infantry", (3, 0)),
    ]
    s = rigged(combat(position(units)), [3, 4, 3, 4])  # chariot on plain +2: 5 vs 4
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert get(s, "r1").fights == 1 and s.phase == "combat"
    assert s.pending.kind == "retreat"
    s, _ = act(s, 1, {"type": "retreat", "to": [6, 0]})
    s, _ = act(s, 0, {"type": "advance", "yes": False})
    assert RS.legal_actions(s, 0) == [  # the second attack is optional
        {"type": "attack", "unit": "r1", "target": "s2", "kind": "melee"},
        {"type": "end_combat"},
    ]
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s2"})
    assert len(of_type(events, "fight")) == 1


def test_opponent_may_attack_after_the_mover():
    units = [
        unit("r1", 0, "infantry", (0, 0)),
        unit("s1", 1, "archer", (3, 0)),
    ]
    s = combat(position(units))
    # Robin has nothing to fight; the Sheriff's archer may shoot (2+ fields, in sight)
    assert s.phase == "combat" and s.cstage == "opponent" and RS.to_act(s) == [1]
    legal = RS.legal_actions(s, 1)
    assert {"type": "attack", "unit": "s1", "target": "r1", "kind": "ranged"} in legal
    assert {"type": "end_combat"} in legal
    s, _ = act(s, 1, {"type": "end_combat"})
    assert s.phase == "move" and s.active == 1


# -- ranged -----------------------------------------------------------------------------------


def archers(**kw):
    return position(
        [unit("r1", 0, "archer", (0, 0)), unit("s1", 1, "infantry", (3, 0)), *kw.get("more", [])]
    )


def test_a_shot_lets_the_target_roll_or_decline():
    s = combat(archers())
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1", "kind": "ranged"})
    assert events[0] == {"type": "shot", "attacker": "r1", "target": "s1"}
    assert RS.to_act(s) == [1] and RS.legal_actions(s, 1) == [{"type": "roll"}, {"type": "decline"}]
    s = rigged(s, [5])
    s, events = act(s, 1, {"type": "decline"})
    fight = of_type(events, "fight")[0]
    assert fight["defender"]["declined"] and fight["defender"]["counted"] == 0
    assert fight["result"]["retreat"] == "s1"
    assert get(s, "s1").fights == 0  # a declined roll keeps its defence
    # away from the shooter: only fields whose centre lies farther from (0, 0)
    assert s.pending.kind == "retreat" and set(s.pending.options) == {(4, 0), (3, 1), (4, 1)}


def test_shot_results_below_four_count_zero():
    s = combat(archers())
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s = rigged(s, [3, 2])
    s, events = act(s, 1, {"type": "roll"})
    fight = of_type(events, "fight")[0]
    assert fight["attacker"]["counted"] == 0 and fight["defender"]["counted"] == 0
    assert fight["result"]["retreat"] is None and not fight["defender"]["declined"]


def test_a_losing_shooter_retreats_away_from_its_target():
    s = combat(archers())
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s = rigged(s, [2, 5])
    s, events = act(s, 1, {"type": "roll"})
    assert of_type(events, "fight")[0]["result"]["retreat"] == "r1"
    assert at(s, "r1") == (0, 1)  # the only neighbour farther from (3, 0)


def test_shot_retreat_fields_lie_farther_from_the_shooter():
    s = combat(position([unit("r1", 0, "archer", (0, 0)), unit("s1", 1, "infantry", (2, 2))]))
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s = rigged(s, [5])
    s, _ = act(s, 1, {"type": "decline"})
    assert s.pending.kind == "retreat"
    assert sorted(s.pending.options) == [(1, 3), (2, 3), (3, 1), (3, 2), (3, 3)]


def test_no_shooting_with_an_enemy_adjacent_or_through_units():
    pressed = archers(more=[unit("s2", 1, "infantry", (1, 1))])
    s = combat(pressed)
    legal = RS.legal_actions(s, 0)
    assert {"type": "attack", "unit": "r1", "target": "s1", "kind": "ranged"} not in legal
    with pytest.raises(IllegalAction, match="cannot shoot"):
        act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    blocked = archers(more=[unit("r2", 0, "infantry", (2, 0))])
    s = combat(blocked)
    with pytest.raises(IllegalAction, match="line of sight"):
        act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    far = position([unit("r1", 0, "archer", (0, 0)), unit("s1", 1, "infantry", (4, 0))])
    s = combat(far)
    assert s.phase == "move" and s.active == 1  # out of range: no combat at all


def test_robin_shoots_with_his_plus_one():
    units = [
        unit("r0", 0, "archer", (0, 0), leader=True, name="Robin Hood"),
        unit("s1", 1, "infantry", (2, 0)),
    ]
    s = combat(position(units))
    s, _ = act(s, 0, {"type": "attack", "unit": "r0", "target": "s1"})
    s = rigged(s, [3])
    s, events = act(s, 1, {"type": "decline"})
    att = of_type(events, "fight")[0]["attacker"]
    assert att["total"] == 4 and att["counted"] == 4  # 3 + 1 counts


# -- prisoners ------------------------------------------------------------------------------------


def test_a_leader_beaten_with_six_may_be_captured():
    units = [
        unit("r0", 0, "infantry", (0, 7), leader=True, name="Robin"),
        unit("r1", 0, "cavalry", (2, 0)),
        unit("s0", 1, "cavalry", (3, 0), leader=True, name="Sheriff"),
    ]
    s = rigged(combat(position(units)), [5, 1])
    assert {"type": "attack", "unit": "r1", "target": "s0", "kind": "melee", "capture": True} in (
        RS.legal_actions(s, 0)
    )
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s0", "capture": True})
    assert of_type(events, "captured")[0]["by"] == "r1"
    sheriff = get(s, "s0")
    assert sheriff.guard == "r1" and sheriff.at == (2, 0) and sheriff.alive
    assert RS.outcome(s) == {
        "winners": [0],
        "draw": False,
        "reason": "the Sheriff was eliminated or captured",
    }
    assert events[-1]["type"] == "game_over" and RS.to_act(s) == []


def marian_probe(units, **kw):
    base = [unit("m", 0, "civilian", (5, 0), name="Maid Marian")]
    return position(base + units, scenario="marian", home=("S", "N"), **kw)


def test_an_unaccompanied_civilian_is_captured_without_combat():
    s = marian_probe([unit("s1", 1, "cavalry", (3, 0))], active=1)
    s, events = act(s, 1, {"type": "move", "unit": "s1", "to": [5, 0]})
    assert of_type(events, "captured")[0] == {
        "type": "captured",
        "unit": "m",
        "by": "s1",
        "at": [5, 0],
        "how": "unaccompanied",
    }
    assert get(s, "m").guard == "s1"


def test_a_prisoner_follows_its_guard_and_can_be_handed_over():
    s = marian_probe(
        [unit("s1", 1, "cavalry", (5, 0)), unit("s2", 1, "infantry", (5, 0))],
        active=1,
    )
    s = replace_unit(s, "m", guard="s1")
    legal = RS.legal_actions(s, 1)
    assert {"type": "move", "unit": "s2", "to": [4, 1], "with": ["m"]} in legal
    s2, _ = act(s, 1, {"type": "move", "unit": "s1", "to": [3, 0]})
    assert at(s2, "m") == (3, 0)
    s3, _ = act(s, 1, {"type": "move", "unit": "s2", "to": [4, 1], "with": ["m"]})
    assert at(s3, "m") == (4, 1) and get(s3, "m").guard == "s2"


def test_an_unguarded_prisoner_is_free_at_once():
    s = marian_probe(
        [unit("s1", 1, "infantry", (5, 0)), unit("r1", 0, "infantry", (4, 0))], active=0
    )
    s = replace_unit(s, "m", guard="s1")
    s = rigged(combat(s), [6, 1])
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert of_type(events, "freed") == [{"type": "freed", "unit": "m", "at": [5, 0]}]
    assert get(s, "m").guard is None


def test_robin_moves_an_unguarded_marian_after_the_sheriffs_turn():
    s = marian_probe([unit("s1", 1, "infantry", (11, 7))], active=1)
    s, _ = act(s, 1, {"type": "end_movement"})
    assert s.phase == "marian" and RS.to_act(s) == [0]
    legal = RS.legal_actions(s, 0)
    assert {"type": "move_marian", "to": [5, 0]} in legal  # staying is allowed
    assert {"type": "move_marian", "to": [8, 0]} in legal  # 3 fields
    assert {"type": "move_marian", "to": [9, 0]} not in legal
    s, _ = act(s, 0, {"type": "move_marian", "to": [8, 0]})
    assert at(s, "m") == (8, 0) and s.phase == "move" and s.active == 0


def test_marian_needs_an_escort_in_robins_turn():
    s = marian_probe([unit("r1", 0, "infantry", (5, 0))], active=0)
    with pytest.raises(IllegalAction, match="escort"):
        act(s, 0, {"type": "move", "unit": "m", "to": [4, 0]})
    s, _ = act(s, 0, {"type": "move", "unit": "r1", "to": [4, 0], "with": ["m"]})
    assert at(s, "m") == (4, 0) and get(s, "m").guard is None


def test_the_side_that_kills_marian_loses():
    s = marian_probe(
        [unit("s1", 1, "infantry", (4, 0)), unit("s2", 1, "infantry", (9, 7))], active=1
    )
    s = rigged(combat(s), [6])
    assert {"type": "attack", "unit": "s1", "target": "m", "kind": "melee"} in RS.legal_actions(
        s, 1
    )
    s, _ = act(s, 1, {"type": "attack", "unit": "s1", "target": "m", "capture": False})
    assert RS.outcome(s)["winners"] == [0]
    s = marian_probe(
        [unit("s1", 1, "infantry", (4, 0)), unit("s2", 1, "infantry", (9, 7))], active=1
    )
    s = rigged(combat(s), [6])
    s, _ = act(s, 1, {"type": "attack", "unit": "s1", "target": "m"})
    assert get(s, "m").guard == "s1" and RS.outcome(s) is None  # captured by default


# -- the end ------------------------------------------------------------------------------------


def test_both_leaders_lost_in_one_fight_is_a_draw():
    units = [
        unit("r0", 0, "infantry", (2, 0), leader=True, name="Robin"),
        unit("s0", 1, "infantry", (3, 0), leader=True, name="Sheriff"),
    ]
    s = rigged(combat(position(units)), [5, 5])
    s, _ = act(s, 0, {"type": "attack", "unit": "r0", "target": "s0"})
    # the Sheriff eliminated, Robin's fate the Sheriff's side's choice (capture or not)
    assert not get(s, "s0").alive and s.pending.kind == "capture" and RS.to_act(s) == [1]
    assert RS.outcome(s) is None
    s, _ = act(s, 1, {"type": "capture", "yes": False})
    assert RS.outcome(s) == {
        "winners": [],
        "draw": True,
        "reason": "both leaders were lost in the same combat phase",
    }


def test_eliminating_all_enemy_units_wins():
    units = [unit("r1", 0, "infantry", (2, 0)), unit("s1", 1, "infantry", (3, 0))]
    s = position(units, leaders=False)
    s = rigged(combat(s), [6, 1])
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    assert RS.outcome(s)["winners"] == [0]


def test_two_quiet_turns_are_a_draw():
    s = position([unit("r1", 0, "infantry", (1, 1)), unit("s1", 1, "infantry", (9, 7))])
    s, _ = act(s, 0, {"type": "end_movement"})
    assert RS.outcome(s) is None and s.quiet == 1
    s, events = act(s, 1, {"type": "end_movement"})
    assert RS.outcome(s)["draw"] and events[-1]["type"] == "game_over"


# -- more combat rules -----------------------------------------------------------------------------


def test_a_retreated_unit_must_be_attacked_again_by_an_unfought_neighbour():
    units = [
        unit("r1", 0, "infantry", (2, 0)),
        unit("s1", 1, "infantry", (3, 0)),
        unit("s2", 1, "infantry", (0, 0)),
        unit("r3", 0, "infantry", (1, 2)),
    ]
    s = rigged(combat(position(units)), [2, 5, 2, 5])
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s, _ = act(s, 0, {"type": "retreat", "to": [1, 0]})  # next to the unfought s2
    assert s.obligations == (("s2", "r1"),)
    s, _ = act(s, 1, {"type": "advance", "yes": False})
    # Robin has nothing left: the Sheriff's stage, where s2 owes the re-attack
    assert s.cstage == "opponent" and RS.to_act(s) == [1]
    assert RS.legal_actions(s, 1) == [
        {"type": "attack", "unit": "s2", "target": "r1", "kind": "melee"}
    ]
    with pytest.raises(IllegalAction, match="must fight"):
        act(s, 1, {"type": "end_combat"})
    s, _ = act(s, 1, {"type": "attack", "unit": "s2", "target": "r1"})  # r1 defends again
    s, _ = act(s, 1, {"type": "retreat", "to": [0, 1]})  # s2 lost; next to the unfought r3
    s, _ = act(s, 0, {"type": "advance", "yes": False})
    # a cleanup stage for Robin: r3 must attack
    assert s.cstage == "cleanup" and RS.to_act(s) == [0]
    assert RS.legal_actions(s, 0) == [
        {"type": "attack", "unit": "r3", "target": "s2", "kind": "melee"}
    ]


def test_the_winner_may_advance_into_a_field_with_other_enemies():
    units = [
        unit("r1", 0, "infantry", (2, 0)),
        unit("s1", 1, "infantry", (3, 0)),
        unit("s2", 1, "infantry", (3, 0)),
    ]
    s = rigged(combat(position(units)), [5, 1])
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s, _ = act(s, 1, {"type": "retreat", "to": [4, 1]})
    s, _ = act(s, 0, {"type": "advance", "yes": True})
    assert at(s, "r1") == (3, 0) == at(s, "s2")


def test_a_retreating_guard_leaves_its_prisoner_behind():
    s = marian_probe(
        [unit("s1", 1, "infantry", (5, 0)), unit("r1", 0, "infantry", (4, 0))], active=0
    )
    s = replace_unit(s, "m", guard="s1")
    s = rigged(combat(s), [5, 1])
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s, events = act(s, 1, {"type": "retreat", "to": [6, 0]})
    assert at(s, "m") == (5, 0) and get(s, "m").guard is None
    assert of_type(events, "freed")


def test_no_marian_turn_while_she_is_guarded():
    s = marian_probe([unit("s1", 1, "infantry", (5, 0))], active=1)
    s = replace_unit(s, "m", guard="s1")
    s, _ = act(s, 1, {"type": "end_movement"})
    assert s.phase == "move" and s.active == 0


def test_the_aura_reaches_only_fields_the_leader_could_enter():
    units = [
        unit("r0", 0, "cavalry", (4, 0), leader=True, name="Robin"),
        unit("r2", 0, "infantry", (6, 1)),  # forest: no cavalry there
        unit("s2", 1, "infantry", (7, 1)),
    ]
    s = rigged(combat(position(units)), [2, 2])
    s, events = act(s, 0, {"type": "attack", "unit": "r2", "target": "s2"})
    att = of_type(events, "fight")[0]["attacker"]
    assert att["bonuses"] == [{"source": "terrain", "terrain": "forest", "value": 1}]


def test_no_timer_outside_the_movement_phase():
    s = combat(duel())
    assert RS.phase_timer(s) is None and RS.timeout_action(s, 0) is None
    assert RS.timer_key(s) is None


def test_helper_doctests():
    import doctest

    from games.rules.idiotenspiel import movement, sight

    for module in (movement, sight):
        assert doctest.testmod(module).failed == 0


# -- prisoners freed by a retreat, obligatory shots, captures by either side ---------------------


def test_a_leader_freed_by_its_guards_retreat_must_re_attack_it():
    # Rettet Maid Marian!: leaders taken prisoner do not end this scenario
    units = [
        unit("r0", 0, "infantry", (5, 0), leader=True, name="Robin Hood", guard="s1"),
        unit("s1", 1, "infantry", (5, 0)),
        unit("r1", 0, "infantry", (4, 0)),
        unit("m", 0, "civilian", (0, 7), name="Maid Marian"),
    ]
    s = position(units, scenario="marian", home=("S", "N"))
    s = rigged(combat(s), [5, 1])
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
    s, events = act(s, 1, {"type": "retreat", "to": [6, 0]})
    assert of_type(events, "freed") == [{"type": "freed", "unit": "r0", "at": [5, 0]}]
    # freed first, then the duties: the leader stands next to its retreated guard
    assert s.obligations == (("r0", "s1"),)
    s, _ = act(s, 0, {"type": "advance", "yes": False})
    assert RS.to_act(s) == [0] and s.cstage == "mover"
    assert RS.legal_actions(s, 0) == [
        {"type": "attack", "unit": "r0", "target": "s1", "kind": "melee"}
    ]
    with pytest.raises(IllegalAction, match="must fight"):
        act(s, 0, {"type": "end_combat"})
    s, events = act(s, 0, {"type": "attack", "unit": "r0", "target": "s1"})
    assert of_type(events, "fight")[0]["defender"]["unit"] == "s1"


def test_the_movers_archer_must_shoot_at_a_target_in_range_and_sight():
    s = combat(archers())
    assert s.cstage == "mover" and RS.to_act(s) == [0]
    assert RS.legal_actions(s, 0) == [
        {"type": "attack", "unit": "r1", "target": "s1", "kind": "ranged"}
    ]
    with pytest.raises(IllegalAction, match="must shoot"):
        act(s, 0, {"type": "end_combat"})
    assert RS.view(s, 0)["combat"]["must_fight"] == ["r1"]


def test_a_declined_roll_is_no_defence_against_the_movers_other_archers():
    def shot_once(reply: str, dice: list[int]):
        two = archers(more=[unit("r2", 0, "archer", (0, 0))])
        s = combat(two)
        s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s1"})
        return act(rigged(s, dice), 1, {"type": reply})[0]

    s = shot_once("decline", [2])  # 2 counts 0, the declined roll 0: no effect
    assert get(s, "s1").fights == 0 and get(s, "r1").fights == 1
    assert RS.legal_actions(s, 0) == [
        {"type": "attack", "unit": "r2", "target": "s1", "kind": "ranged"}
    ]
    with pytest.raises(IllegalAction, match="must shoot"):
        act(s, 0, {"type": "end_combat"})
    s = shot_once("roll", [2, 2])  # a target that rolls has fought: r2 has no target left
    assert s.phase == "move" and s.active == 1  # so Robin's combat could end


def test_the_other_sides_shots_stay_optional():
    units = [unit("r1", 0, "infantry", (0, 0)), unit("s1", 1, "archer", (3, 0))]
    s = combat(position(units))
    assert s.cstage == "opponent" and {"type": "end_combat"} in RS.legal_actions(s, 1)
    assert RS.view(s, 1)["combat"]["must_fight"] == []


def sheriff_charges(dice: list[int]):
    units = [
        unit("s0", 1, "cavalry", (3, 0), leader=True, name="Sheriff of Nottingham"),
        unit("r1", 0, "infantry", (2, 0)),
    ]
    s = rigged(combat(position(units, active=1)), dice)
    return act(s, 1, {"type": "attack", "unit": "s0", "target": "r1"})


def test_a_defender_may_capture_the_leader_it_beat():
    s, events = sheriff_charges([1, 6])  # Sheriff 1+1 plain+1 leader = 3; Robin's infantry 6
    fight = of_type(events, "fight")[0]
    assert fight["result"] == {"eliminated": [], "captured": [], "retreat": None, "beaten": ["s0"]}
    assert s.pending.kind == "capture" and RS.to_act(s) == [0]
    assert RS.outcome(s) is None and get(s, "s0").alive
    assert RS.legal_actions(s, 0) == [
        {"type": "capture", "yes": False},
        {"type": "capture", "yes": True},
    ]
    with pytest.raises(IllegalAction, match="not your turn"):
        act(s, 1, {"type": "capture", "yes": True})
    taken, events = act(s, 0, {"type": "capture", "yes": True})
    assert of_type(events, "captured") == [
        {"type": "captured", "unit": "s0", "by": "r1", "at": [2, 0], "how": "fight"}
    ]
    assert get(taken, "s0").guard == "r1" and at(taken, "s0") == (2, 0)
    assert RS.outcome(taken)["winners"] == [0]
    killed, events = act(s, 0, {"type": "capture", "yes": False})
    assert of_type(events, "eliminated")[0]["unit"] == "s0" and not get(killed, "s0").alive
    assert RS.outcome(killed)["winners"] == [0]


def test_a_leader_captured_by_a_defender_that_died_in_the_same_fight_is_free_at_once():
    s, events = sheriff_charges([5, 6])  # Sheriff 7: Robin's infantry dies; it rolled 6
    assert of_type(events, "fight")[0]["result"]["eliminated"] == ["r1"]
    assert s.pending.kind == "capture"
    s, events = act(s, 0, {"type": "capture", "yes": True})
    assert [e["type"] for e in events[:2]] == ["captured", "freed"]
    assert get(s, "s0").guard is None and at(s, "s0") == (3, 0)
    assert RS.outcome(s) is None


def test_a_captor_that_dies_in_the_same_fight_cannot_hold_the_leader():
    units = [
        unit("r1", 0, "infantry", (2, 0)),
        unit("s0", 1, "infantry", (3, 0), leader=True, name="Sheriff of Nottingham"),
    ]
    s = rigged(combat(position(units)), [6, 5])  # 6 against 5+1
    s, events = act(s, 0, {"type": "attack", "unit": "r1", "target": "s0", "capture": True})
    assert of_type(events, "fight")[0]["result"]["captured"] == ["s0"]
    assert not get(s, "r1").alive and get(s, "s0").guard is None and at(s, "s0") == (3, 0)
    assert of_type(events, "freed") == [{"type": "freed", "unit": "s0", "at": [3, 0]}]
    assert RS.outcome(s) is None


def sheriff_under_fire(*more):
    units = [
        unit("r1", 0, "archer", (0, 0)),
        unit("s0", 1, "infantry", (3, 0), leader=True, name="Sheriff of Nottingham"),
        *more,
    ]
    return combat(position(units))


def test_a_shooters_capture_frees_the_leader_at_once():
    s = sheriff_under_fire()
    legal = RS.legal_actions(s, 0)
    capture = {"type": "attack", "unit": "r1", "target": "s0", "kind": "ranged", "capture": True}
    assert capture in legal
    s, _ = act(s, 0, capture)
    s, events = act(rigged(s, [6, 1]), 1, {"type": "roll"})
    assert of_type(events, "fight")[0]["result"]["captured"] == ["s0"]
    assert of_type(events, "captured") == [
        {"type": "captured", "unit": "s0", "by": "r1", "at": [3, 0], "how": "fight"}
    ]
    assert of_type(events, "freed") == [{"type": "freed", "unit": "s0", "at": [3, 0]}]
    assert get(s, "s0").guard is None and get(s, "s0").alive and at(s, "s0") == (3, 0)
    assert RS.outcome(s) is None


def test_a_shooters_capture_holds_when_its_side_stands_in_the_leaders_field():
    s = sheriff_under_fire(unit("r2", 0, "infantry", (3, 0)))
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s0", "capture": True})
    s, events = act(rigged(s, [6, 1]), 1, {"type": "roll"})
    assert of_type(events, "guard") == [{"type": "guard", "unit": "s0", "by": "r2"}]
    assert get(s, "s0").guard == "r2" and RS.outcome(s)["winners"] == [0]


def test_only_leaders_and_civilians_can_be_taken_prisoner():
    s = combat(archers())
    with pytest.raises(IllegalAction, match="Only a leader or a civilian"):
        act(s, 0, {"type": "attack", "unit": "r1", "target": "s1", "capture": True})


def test_states_stored_before_the_capture_flag_still_decode():
    s = sheriff_under_fire()
    s, _ = act(s, 0, {"type": "attack", "unit": "r1", "target": "s0", "capture": True})
    data = RS.encode(s)
    assert data["pending"]["capture"] is True and RS.decode(data) == s
    del data["pending"]["capture"]  # the shape stored before captures by shots existed
    old = RS.decode(data)
    assert old.pending.kind == "defend" and old.pending.capture is False
    assert RS.view(old, 1)["combat"]["pending"]["capture"] is False
