"""Das Idiotenspiel bots: the posture of a side for this turn (issue 30).

A level's :class:`Params` say how it weighs fields in an even fight; the
posture adapts them to the scenario's real end, from what the view shows:

- *hunt*: far ahead in force, the army closes in and runs the enemy leader
  (Grundspiel) or Maid Marian's guard down (the weaker side cannot win a
  waiting game, and a waiting game never ends);
- *press*: a standoff that has lasted (no side gains by stepping first) is
  broken by the side at least as strong, so a game ends by the rules;
- *even*: the level's own weights;
- *lost*: a side with almost nothing left stands on good ground (running
  only delays the end); *dead*: leader against leader (Grundspiel), nobody moves and the
  rules' quiet draw ends the game.

Every level adapts (games between any two levels must end); strong reads the
balance earlier and hunts harder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.bots.idiot_board import Params
from games.bots.idiot_goals import sheriff_cannot_win
from games.bots.idiot_odds import value
from games.rules.idiotenspiel.scenarios import ROBIN
from games.rules.idiotenspiel.state import Unit
from games.rules.idiotenspiel.work import Work

LEADER_POWER = 1.5  # a leader fights with +1 and lifts his neighbours
LOST_RATIO = 0.3  # at most this share of the enemy's force (or a lone leader against 3): lost
FORCE_EARLY = 60  # turns in which either side keeps the game going
FORCE_AHEAD = 400  # after that the side behind may let it end in a quiet draw
# per level: hunt from this force ratio; press a standoff from this turn and ratio
HUNT_AT = {"easy": 2.0, "medium": 2.0, "strong": 1.6}
STALL_TURN = {"easy": 40, "medium": 40, "strong": 24}
PRESS_AT = {"easy": 1.0, "medium": 1.0, "strong": 0.95}
# worth of a fight taken (a unit's value is 1): hunting, one at -1 against
# good ground is worth it; a standoff that lasted twice as long is broken so
ENGAGE_HUNT = 0.4
ENGAGE_PRESS = 0.25


@dataclass(frozen=True)
class Posture:
    name: str  # even | press | hunt | lost | dead
    ratio: float  # own force over the enemy's
    params: Params


def power(units: list[Unit]) -> float:
    return sum(LEADER_POWER if u.leader else value(u.type, False) for u in units)


def posture(w: Work, seat: int, p: Params, level: str) -> Posture:
    mine = [u for u in w.units if u.side == seat and u.combatant]
    foes = [u for u in w.units if u.side != seat and u.combatant]
    ratio = power(mine) / max(power(foes), 0.1)
    strong = level == "strong"
    hunt_at = HUNT_AT[level]
    lone = len(mine) <= 1 and len(foes) <= 1  # leader against leader: neither can force it
    # (her guard alone may still carry her in; a duelling leader still fights)
    if lone and w.state.scenario != "marian" and not p.duel:
        return Posture("dead", ratio, p)
    alone = len(mine) == 1 and len(foes) >= 3  # a lone leader cannot win any more
    hopeless = seat != ROBIN and sheriff_cannot_win(w)  # (running only delays Robin)
    if (
        ratio <= LOST_RATIO or alone or hopeless
    ):  # running only delays the end: stand on good ground
        return Posture("lost", ratio, replace(p, leader_gap=0, threat=0.0, progress=0.0, hunt=0.0))
    if ratio >= hunt_at or (len(foes) <= 3 and ratio >= 1.5):
        hunted = replace(
            p,
            hold=0,
            hunt=0.45 if strong else 0.3,
            progress=max(p.progress, 0.3),
            threat=p.threat * 0.5,
            min_gain=min(p.min_gain, 0.03),
            engage=ENGAGE_HUNT,
        )
        return Posture("hunt", ratio, hunted)
    if w.turn >= STALL_TURN[level] and ratio >= PRESS_AT[level]:
        pressed = replace(
            p,
            hold=0,
            hunt=max(p.hunt, 0.1),
            progress=max(p.progress, 0.3),
            threat=p.threat * 0.6,
            engage=ENGAGE_PRESS if w.turn >= 2 * STALL_TURN[level] else 0.0,
        )
        return Posture("press", ratio, pressed)
    return Posture("even", ratio, p)


def forcing(plan: Posture, turn: int) -> bool:
    """Whether a side with nothing worth doing still moves one unit (keeping
    the game from a quiet draw): early on, and later only the side ahead."""
    if plan.name in ("lost", "dead"):
        return False
    return turn < FORCE_EARLY or (plan.ratio >= 1.0 and turn < FORCE_AHEAD)
