"""What the win chances (games/bots/chances.py) are computed from, per game.

Each game's function reads a position as ``seat`` may see it and returns
either the chances outright (a forced result the evaluation sees) or, per seat
still in the race, a small vector of numbers taken from that game's own bot
evaluation. ``chances.py`` turns the vectors into chances with constants fitted
on self-play (bench/calibration.py records these very vectors to fit them).

Only public parts of a state enter: boards, pieces, the roll on the table and
standings; never a seed, a dice counter or another team's orders.
"""

from __future__ import annotations

import math
from typing import Any

from games.bots import daschax as dbot
from games.bots import halma as hbot
from games.bots import malefiz as mbot
from games.bots.idiot_plan import power
from games.bots.malefiz_core import FIELD_COUNT, costs, moves, place, pos_of, seat_cost
from games.bots.search import OutOfNodes
from games.rules import get_ruleset
from games.rules.malefiz import GOAL, MOVE, PLACE, MalefizState

# Per contending seat, the numbers the fitted constants weigh (absent seats
# cannot win); or a plain list: the chances themselves.
Terms = dict[int, tuple[float, ...]] | list[float]

# Halma: a two-ply look (the mover's best move and the best reply) with the
# strong bot's evaluation; a handful of milliseconds.
HALMA_LOOK = hbot.Level(depth=2, beam=8, nodes=4_000, cap=20_000, noise=0)
DASCHAX_QUIET = dbot.LEVELS["strong"]


def decided(seats: int, winner: int) -> list[float]:
    return [1.0 if s == winner else 0.0 for s in range(seats)]


def halma(state: Any, seat: int) -> Terms:
    """The mover's score over the race still to run (a lead counts more as
    the race gets shorter), and a one for the mover's tempo."""
    if hbot.dead(state):
        return [0.5, 0.5]  # the house rule can only end it drawn
    pos = hbot.Position(state)
    mover = state.to_move
    search = hbot.Search(pos, HALMA_LOOK)
    try:
        score = search.negamax(mover, HALMA_LOOK.depth, -2 * hbot.WIN, 2 * hbot.WIN)
    except OutOfNodes:
        score = pos.evaluate(mover)
    if abs(score) >= hbot.WIN // 2:  # the look sees the end
        return decided(2, mover if score > 0 else 1 - mover)
    race = math.sqrt(pos.cost[0] + pos.cost[1] + 100)
    return {mover: (score / race, 1.0), 1 - mover: (0.0, 0.0)}


def daschax(state: Any, seat: int) -> Terms:
    """The strong bot's quiescent score for the mover (captures played out),
    shrinking as the house rule's capture-free limit nears (a draw then)."""
    if sum(state.to_place[0]) + sum(state.to_place[1]):
        return [0.5, 0.5]  # the opening placement: even
    search = dbot.Search(state, DASCHAX_QUIET, state.to_move)
    if dbot.Search.dead(*search.split()):
        return [0.5, 0.5]  # an ending nobody can win
    mover = state.to_move
    try:
        score = search.quiesce(mover, -2 * dbot.WIN, 2 * dbot.WIN, DASCHAX_QUIET.quiet)
    except OutOfNodes:
        score = search.evaluate(mover)
    if abs(score) >= dbot.WIN // 2:
        return decided(2, mover if score > 0 else 1 - mover)
    limit = state.variants.stall_turns
    left = 1.0 if not limit else max(0.0, 1 - state.since_capture / limit)
    return {mover: (score / 100 * left, left), 1 - mover: (0.0, 0.0)}


def malefiz(state: MalefizState, seat: int) -> Terms:
    """Per seat still in: its distance to the goal (best piece, a little of
    the others, barricades costing extra), raw and over the race's length,
    and how many turns it waits for its next roll. A roll on the table is
    played out first with the strong bot's one-ply choice."""
    alive = tuple(s for s in range(state.seats) if s not in state.left)
    pos, roller = pos_of(state), state.turn
    search = mbot.Search(state, state.turn, mbot.FULL)
    if state.phase == MOVE:
        options = moves(pos, state.seats, state.turn, state.last_roll[1])
        if any(to == GOAL for _, to in options):
            return decided(state.seats, state.turn)
        afters = [search.after(pos, state.turn, mv, best_place=True) for mv in options]
        if afters:
            pos = max(afters, key=lambda p: search.value(p, state.turn))
        roller = _after(state.turn, alive)
    elif state.phase == PLACE:
        roller = _after(state.turn, alive)
        pos = place(pos, search.best_place(pos, state.turn))
    dist = costs(pos.bars, mbot.FULL.penalty)
    cost = {s: min(seat_cost(pos, state.seats, s, dist, mbot.FULL), FIELD_COUNT) for s in alive}
    race = math.sqrt(sum(cost.values()) / len(alive) + 5)
    order = {s: (alive.index(s) - alive.index(roller)) % len(alive) for s in alive}
    return {s: (-cost[s] / 10, -cost[s] / race, -order[s]) for s in alive}


def _after(seat: int, alive: tuple[int, ...]) -> int:
    """The seat that rolls after ``seat`` (the seats still in, in turn)."""
    return next((s for s in alive if s > seat), alive[0])


def idiotenspiel(state: Any, seat: int) -> Terms:
    """Robin's force over the Sheriff's (log), and which scenario it is (the
    scenarios are not even)."""
    fight = [power([u for u in state.units if u.side == s and u.combatant]) for s in (0, 1)]
    ratio = math.log(max(fight[0], 0.1) / max(fight[1], 0.1))
    marian = 1.0 if state.scenario == "marian" else 0.0
    return {0: (ratio, 1.0 - marian, marian), 1: (0.0, 0.0, 0.0)}


def hexenhalma(state: Any, seat: int) -> Terms:
    """Per team: witches home and match points, over the rounds still to come
    (a lead counts more when fewer rounds can undo it). The game master (seat
    0) runs the game and never wins it."""
    view = get_ruleset("hexenhalma").view(state, seat)
    planned = view["rounds"] or max(view["round"], 4)  # no limit: a bot game master plays four
    left = planned - view["round"] + (1 if view["phase"] in ("orders", "resolving") else 0)
    spread = math.sqrt(max(left, 0) + 1)
    return {
        row["seat"]: (row["goals"] / spread, row["points"] / spread) for row in view["standings"]
    }


TERMS = {
    "halma": halma,
    "daschax": daschax,
    "malefiz": malefiz,
    "idiotenspiel": idiotenspiel,
    "hexenhalma": hexenhalma,
}
