"""Das Idiotenspiel bots: concrete positions, determinism, no peeking, legality.

Positions use the probe map of the rules tests (see test_idiotenspiel_helpers):
Robin (seat 0) has home W, the Sheriff E; far-away leaders are added.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.bots import get_bot
from games.bots.base import RandomBot
from games.bots.idiotenspiel import make
from games.rules.idiotenspiel import MAPS
from games.rules.idiotenspiel.movement import home_distance
from games.rules.idiotenspiel.scenarios import setup_zone
from games.rules.idiotenspiel.state import Pending, State
from tests.games.rules.test_idiotenspiel_helpers import RS, combat, position, unit

LEVELS = ("easy", "medium", "strong")


def play(bots: list[Any], state: State, max_turns: int, check: Any = None) -> tuple[State, int]:
    """Play until the game ends or ``max_turns``; every action must be legal."""
    n = 0
    while RS.outcome(state) is None and state.turn <= max_turns:
        seat = RS.to_act(state)[0]
        action = bots[seat].choose(state, seat, seed=n)
        if check is not None:
            check(state, seat, action)
        state, _ = RS.apply(state, seat, action)  # raises on an illegal action
        n += 1
    return state, n


@pytest.mark.parametrize("level", LEVELS)
def test_get_bot_gives_every_level(level: str) -> None:
    assert get_bot("idiotenspiel", level).choose is not None
    assert make(level).choose is not None


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_favourable_pairing(level: str) -> None:
    # s1 on plain (5, 1) is next to r1 in the forest (+1) and r2 on plain: r1 attacks.
    s = position(
        [
            unit("r1", 0, "infantry", (6, 1)),
            unit("r2", 0, "infantry", (4, 0)),
            unit("s1", 1, "infantry", (5, 1)),
        ]
    )
    action = make(level).choose(combat(s), 0, seed=1)
    assert action == {"type": "attack", "unit": "r1", "target": "s1", "kind": "melee"}


def test_strikes_at_the_enemy_leader() -> None:
    s = position(
        [
            unit("r1", 0, "infantry", (6, 1)),
            unit("s1", 1, "infantry", (5, 0)),
            unit("sL", 1, "infantry", (5, 2), leader=True, name="Sheriff"),
        ]
    )
    action = make("strong").choose(combat(s), 0, seed=1)
    assert action["type"] == "attack" and action["target"] == "sL"


def _retreat_state(uid: str, leader: bool) -> State:
    # r at (5, 1) lost to s1; (4, 0) lies next to the unfought s2, (4, 2) does not.
    units = [
        unit(uid, 0, "archer" if leader else "infantry", (5, 1), leader=leader, fights=1),
        unit("s1", 1, "infantry", (6, 1), fights=1),
        unit("s2", 1, "infantry", (3, 0)),
    ]
    s = position(units, phase="combat", active=1)
    pending = Pending(
        kind="retreat",
        seat=0,
        unit=uid,
        other="s1",
        melee=True,
        field=(5, 1),
        options=((4, 0), (4, 2)),
    )
    return replace(s, cseat=1, cstage="mover", pending=pending)


@pytest.mark.parametrize("leader", [False, True])
def test_retreats_away_from_fresh_enemies(leader: bool) -> None:
    uid = "r0" if leader else "r1"
    s = _retreat_state(uid, leader)
    for level in LEVELS:
        assert make(level).choose(s, 0, seed=3) == {"type": "retreat", "to": [4, 2]}


def test_rolls_when_shot_and_eliminates_a_beaten_leader() -> None:
    s = position([unit("r1", 0, "archer", (2, 0)), unit("s1", 1, "infantry", (5, 0))], active=0)
    s = combat(s)
    s, _ = RS.apply(s, 0, {"type": "attack", "unit": "r1", "target": "s1", "kind": "ranged"})
    assert make("strong").choose(s, 1, seed=0) == {"type": "roll"}


def test_sets_up_in_formation_within_its_zone() -> None:
    s = RS.setup({}, 2, 5)
    bot = make("strong")
    s, _ = play([bot, bot], s, max_turns=0)
    md = MAPS[s.map_key]
    for seat in (0, 1):
        zone = setup_zone(md, s.scenario, seat, s.home[seat], s.zones[seat])
        depth: dict[str, list[int]] = {}
        for u in s.units:
            if u.side != seat:
                continue
            assert u.at is not None and md.index(*u.at) in zone
            kind = "leader" if u.leader else u.type
            depth.setdefault(kind, []).append(home_distance(md, md.index(*u.at), s.home[seat]))
        mean = {k: sum(v) / len(v) for k, v in depth.items()}
        assert mean["infantry"] > mean["leader"]
        if seat == 0:
            assert mean["infantry"] > mean["archer"] > mean["leader"]


def _states(seed: int, turns: int, options: dict[str, Any]) -> list[State]:
    """Positions of every phase from a game of the easy bot against random play."""
    out: list[State] = []
    play(
        [RandomBot("idiotenspiel"), make("easy")],
        RS.setup(options, 2, seed),
        turns,
        check=lambda s, seat, a: out.append(s),
    )
    return out


def test_deterministic_and_blind_to_the_dice() -> None:
    states = _states(11, 8, {})
    picked = random.Random(3).sample(states, 15)
    phases = {s.phase for s in picked}
    assert {"setup", "move", "combat"} <= phases
    for level in LEVELS:
        bot = make(level)
        for s in picked:
            seat = RS.to_act(s)[0]
            first = bot.choose(s, seat, seed=9)
            assert bot.choose(s, seat, seed=9) == first
            # Only the seed and the dice counter are hidden: changing them changes nothing.
            hidden = replace(s, seed=s.seed + 12345, rng=s.rng + 77)
            assert bot.choose(hidden, seat, seed=9) == first


def test_whole_game_easy_against_random_is_legal() -> None:
    end, moves = play([RandomBot("idiotenspiel"), make("easy")], RS.setup({}, 2, 21), 200)
    assert RS.outcome(end) is not None and moves > 50


@pytest.mark.parametrize(
    ("options", "levels"),
    [
        ({"scenario": "marian"}, ("medium", "strong")),
        ({"scenario": "marian"}, ("strong", "easy")),
        ({"map": "die_huegelkette"}, ("strong", "medium")),
    ],
)
def test_other_scenarios_and_levels_play_legally(
    options: dict[str, Any], levels: tuple[str, str]
) -> None:
    bots = [make(levels[0]), make(levels[1])]
    _end, moves = play(bots, RS.setup(options, 2, 4), 9)
    assert moves > 30
