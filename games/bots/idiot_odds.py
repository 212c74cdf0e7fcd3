"""Das Idiotenspiel bots: the dice's odds and what a fight is worth.

Both fights roll one die a side (RULES.md §5): 6+ eliminates (both may die),
else the lower result retreats; in a shot totals 1-3 (or a declined roll)
count 0. Everything here is exact over the 36 die pairs and cached, so the
bots reason about dice by their odds and never look at the game's seed.
"""

from __future__ import annotations

from functools import lru_cache

ELIMINATE_AT = 6
COUNTS_FROM = 4
LEADER_VALUE = 40.0  # losing the leader loses the game (Grundspiel)
RETREAT_COST = 0.12  # a retreat disorders a unit and may cost its field

# (defender eliminated, attacker eliminated, defender retreats, attacker retreats)
Odds = tuple[float, float, float, float]


@lru_cache(maxsize=512)
def melee_odds(ba: int, bd: int, civilian: bool = False) -> Odds:
    """Odds of a melee between an attacker with bonus ``ba`` and a defender with ``bd``."""
    de = ae = dr = ar = 0
    for i in range(1, 7):
        ta = i + ba
        for j in range(1, 7):
            td = None if civilian else j + bd
            d_out = ta >= ELIMINATE_AT
            a_out = td is not None and td >= ELIMINATE_AT
            if d_out or a_out:
                de += d_out
                ae += a_out
            elif td is None or ta > td:
                dr += 1
            elif td > ta:
                ar += 1
    return de / 36, ae / 36, dr / 36, ar / 36


@lru_cache(maxsize=512)
def shot_odds(ba: int, bd: int, rolls: bool) -> Odds:
    """Odds of a shot: results 1-3 and a declined roll count 0."""
    de = ae = dr = ar = 0
    for i in range(1, 7):
        ac = i + ba if i + ba >= COUNTS_FROM else 0
        for j in range(1, 7):
            dc = (j + bd if j + bd >= COUNTS_FROM else 0) if rolls else 0
            d_out, a_out = ac >= ELIMINATE_AT, dc >= ELIMINATE_AT
            if d_out or a_out:
                de += d_out
                ae += a_out
            elif ac > dc:
                dr += 1
            elif dc > ac:
                ar += 1
    return de / 36, ae / 36, dr / 36, ar / 36


def worth(odds: Odds, v_att: float, v_def: float, trapped: bool = False) -> float:
    """Expected gain of the attacker's side; a ``trapped`` defender (no retreat
    field) dies when it loses."""
    de, ae, dr, ar = odds
    if trapped:
        de, dr = de + dr, 0.0
    return de * v_def - ae * v_att + RETREAT_COST * (dr - ar)


def value(unit_type: str, leader: bool, risking: bool = False) -> float:
    """What a unit is worth to its side (the leader is the game). ``risking``: the
    leader is the one who attacks; his side weighs his loss double (no gambles)."""
    if leader:
        return LEADER_VALUE * (2 if risking else 1)
    if unit_type == "civilian":
        return 6.0
    if unit_type in ("cavalry", "chariot", "elephant"):
        return 1.25
    if unit_type in ("archer", "slinger"):
        return 1.1
    return 1.0
