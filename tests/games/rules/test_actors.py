"""``rs.actors(state)`` and ``rs.random_action``: one way to drive every game.

A seeded driver that knows nothing but ``actors``, ``random_action``,
``apply`` and (for platform work) ``do_work`` plays every registered ruleset
to its end or a cap; concrete positions pin what ``actors`` answers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules import RULESETS, get_ruleset
from games.rules.base import Actors, LongWork, Ruleset
from games.rules.hexenhalma import PRESETS
from games.rules.hexenhalma.sample import random_orders
from games.rules.idiotenspiel.scenarios import ROBIN

SLUGS = sorted(RULESETS)
CAP = 300  # actions per playout: Malefiz needs thousands to finish (TESTING.md)
MAX_SEATS = 4  # more seats add cost, not coverage


def agrees(rs: Ruleset[Any], state: Any, actors: Actors, seats: int) -> None:
    """``actors`` says what the older calls say, never something else."""
    over = rs.outcome(state) is not None
    assert (actors.kind == "over") == over
    work = isinstance(rs, LongWork) and rs.work_due(state)
    assert (actors.kind == "work") == (work and not over)
    if actors.kind in ("players", "referee"):
        assert list(actors.seats) == rs.to_act(state)
        assert actors.anyone, "the game waits for nobody"
        assert (actors.kind == "referee") == all(rs.is_referee(s) for s in actors.seats)
        assert set(actors.optional) == {
            s for s in range(seats) if s not in actors.seats and rs.may_act(state, s)
        }
    else:
        assert actors.seats == actors.optional == ()


def playout(rs: Ruleset[Any], seats: int, seed: int) -> tuple[int, Any]:
    """Play with actors + random_action only; returns (actions applied, last state)."""
    rng = random.Random(seed)
    state = rs.setup(rs.default_options(), seats, seed)
    applied = 0
    while applied < CAP:
        actors = rs.actors(state)
        agrees(rs, state, actors, seats)
        if actors.kind == "over":
            break
        if actors.kind == "work":
            assert isinstance(rs, LongWork)
            state = rs.do_work(state)[0]
            continue
        seat = rng.choice(actors.anyone)
        action = rs.random_action(state, seat, rng)
        if action is None:
            assert seat in actors.optional, f"seat {seat} is waited for but has no action"
            continue
        state = rs.apply(state, seat, action)[0]  # raises if random_action lied
        applied += 1
    return applied, state


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("slug", SLUGS)
def test_actors_and_random_action_drive_every_game(slug, seed):
    rs = get_ruleset(slug)
    for seats in sorted({rs.min_seats, min(rs.max_seats, MAX_SEATS)}):
        applied, state = playout(rs, seats, 1000 * seed + seats)
        assert applied == CAP or rs.actors(state).kind == "over"
        assert applied, "the driver applied nothing"


def test_the_driver_plays_a_campaign_to_its_end():
    """Not only the cap: a Hexenhalma campaign (GM, teams, platform work) ends."""
    rs = get_ruleset("hexenhalma")
    ends = [rs.actors(playout(rs, 3, seed)[1]).kind for seed in range(3)]
    assert "over" in ends, ends


# -- concrete positions ---------------------------------------------------------


def test_two_seat_games_wait_for_the_seat_to_move():
    halma = get_ruleset("halma")
    state = halma.setup({}, 2, 1)
    assert halma.actors(state) == Actors("players", (halma.to_act(state)[0],))
    malefiz = get_ruleset("malefiz")
    state = malefiz.setup({}, 4, 9)
    assert malefiz.actors(state) == Actors("players", (state.turn,))


def test_a_finished_game_is_over():
    rs = get_ruleset("hexenhalma")
    state = rs.setup({"rounds": 1}, 3, 5)
    state = rs.apply(state, 0, {"type": "open_round", "board": "rectangle", "deadline": None})[0]
    for team in (1, 2):
        state = rs.apply(state, team, {"type": "lock"})[0]
    state = rs.do_work(state)[0]
    assert rs.outcome(state) is not None
    assert rs.actors(state) == Actors("over")


def test_hexenhalma_the_game_master_teams_and_the_platform():
    rs, rng = get_ruleset("hexenhalma"), random.Random(3)
    state = rs.setup({"rounds": 2}, 3, 5)
    assert rs.actors(state) == Actors("referee", (0,))  # the GM opens a round
    state = rs.apply(state, 0, {"type": "open_round", "board": "rectangle", "deadline": None})[0]
    # Teams write orders; the GM may close the round early but is not waited for.
    assert rs.actors(state) == Actors("players", (1, 2), (0,))
    assert rs.actors(state).anyone == (0, 1, 2)
    preset = PRESETS["rectangle"]
    orders = random_orders(preset["board"], preset["params"], rng)
    state = rs.apply(state, 1, {"type": "orders", "orders": orders})[0]
    state = rs.apply(state, 1, {"type": "lock"})[0]
    assert rs.actors(state) == Actors("players", (2,), (0,))
    state = rs.apply(state, 2, {"type": "lock"})[0]
    assert rs.actors(state) == Actors("work")  # the round is resolved by the platform
    state = rs.do_work(state)[0]
    assert rs.actors(state) == Actors("referee", (0,))


def test_idiotenspiel_robin_acts_in_the_marian_phase():
    rs, rng = get_ruleset("idiotenspiel"), random.Random(1)
    state = rs.setup(rs.validate_options({"scenario": "marian"}), 2, 4)
    while state.phase != "marian":
        (seat,) = rs.actors(state).seats
        state = rs.apply(state, seat, rs.random_action(state, seat, rng))[0]
    assert rs.actors(state) == Actors("players", (ROBIN,))


def test_random_action_is_legal_for_every_seat_waited_for():
    """Hexenhalma's actions do not enumerate, yet every team waited for gets one."""
    rs = get_ruleset("hexenhalma")
    state = rs.setup({"rounds": 1}, 4, 8)
    state = rs.apply(state, 0, rs.random_action(state, 0, random.Random(0)))[0]
    assert rs.legal_actions(state, 1) is None
    for seat in rs.actors(state).seats:
        for k in range(5):
            action = rs.random_action(state, seat, random.Random(k))
            assert action is not None
            rs.apply(state, seat, action)
