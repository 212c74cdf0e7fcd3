"""Analysis of a finished game by the computer, ply by ply (pure Python).

For each ruleset action of a seat (a ply) the analyser compares the action
played with its own choice for that position (the ``level`` bot's):

- ``eval``: every seat's win chance after the ply (games/bots/chances.py, as
  the mover sees the position);
- ``best``: the bot's action for the position before the ply (None for a
  roll, which is no decision);
- ``loss``: the mover's win chance after ``best`` minus after the action
  played, never below 0 (0 when they are the same action);
- ``judgement``: by how much the ply gave away (``severity``): the larger
  of ``loss`` and the same drop of the evaluation measured from an even
  position. Our chances are a logistic curve of the bots' evaluation (a
  softmax), so the drop in evaluation is the drop in log-odds,
  ``logit(best) - logit(played)``, and from an even position it costs
  ``sigmoid(that) - 0.5`` of win chance. That does not shrink once the
  mover's chance is already low (lichess measures by win chances scaled
  from the engine's evaluation for the same reason): walking a Halma piece
  backwards from 0.10 to 0.02 loses only 0.08, but as much evaluation as
  going from 0.50 to 0.16. ``INACCURACY`` (0.05) or more is an inaccuracy,
  ``MISTAKE`` (0.10) a mistake, ``BLUNDER`` (0.20) a blunder. Our chances
  are flatter than lichess's (a static estimate rather than a deep
  engine's), so the thresholds are half of lichess's 10 / 20 / 30 points.
  Never judged: a ply that still leaves the mover above ``CLEAR_WIN``
  (0.97; winning more slowly is no error) or that gives away less than
  ``NOISE`` (0.02) of raw win chance (in a lost position a hundredth of
  win chance is many log-odds, and within the estimate's noise);
- ``luck``: in dice games, a roll's effect on the mover's win chance (after
  the roll minus before it: the chance before is the calibrated average over
  the rolls to come, so a good roll is +, a bad one -); None elsewhere.

The summary's accuracy per player is lichess's per-move formula on the win
chance lost (in points of 100), ``103.1668 · e^(-0.04354 · loss) - 3.1669``
clamped to 0..100, averaged over the player's decisions.

Everything here takes plain data (encoded states, actions), so a ply can be
analysed in a bot process (``analyse_ply``).
"""

from __future__ import annotations

import contextlib
import math
from typing import Any

from games.bots import get_bot
from games.rules import get_ruleset

INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
CLEAR_WIN = 0.97
NOISE = 0.02
EDGE = 1e-4  # chances are clamped to this far from 0 and 1 before their log-odds
DICE_GAMES = frozenset({"malefiz", "idiotenspiel"})

COUNTS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
Ply = dict[str, Any]


def is_roll(slug: str, action: Any) -> bool:
    """A roll of the dice: chance, not a decision."""
    return slug in DICE_GAMES and isinstance(action, dict) and action.get("type") == "roll"


def severity(best: float, played: float) -> float:
    """How much a ply gave away, for its judgement: the larger of the win
    chance lost (``best - played``) and the same drop of log-odds measured
    from an even position (see the module doc)."""
    loss = max(0.0, best - played)
    drop = _logit(best) - _logit(played)
    return max(loss, 1 / (1 + math.exp(-drop)) - 0.5) if drop > 0 else loss


def _logit(chance: float) -> float:
    p = min(1 - EDGE, max(EDGE, chance))
    return math.log(p / (1 - p))


def judgement(best: float, played: float) -> str | None:
    """The judgement of a ply that left the mover ``played`` where ``best`` was to be had."""
    if played >= CLEAR_WIN or best - played < NOISE:
        return None
    given = severity(best, played)
    if given >= BLUNDER:
        return "blunder"
    if given >= MISTAKE:
        return "mistake"
    if given >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one move from the win chance it lost (0..1)."""
    raw = 103.1668 * math.exp(-0.04354 * loss * 100) - 3.1669
    return max(0.0, min(100.0, raw))


def analyse_ply(
    slug: str, level: str, encoded: dict[str, Any], seat: int, action: Any, seed: int
) -> dict[str, Any]:
    """One ply from the state before it (encoded): the fields of a ply but
    ``version``, ``seat`` and ``action`` (see the module doc)."""
    rs = get_ruleset(slug)
    bot = get_bot(slug, level)
    state = rs.decode(encoded)
    after_state, _ = rs.apply(rs.decode(encoded), seat, action)
    after = bot.win_chances(after_state, seat, seed=seed)
    if is_roll(slug, action):
        before = bot.win_chances(state, seat, seed=seed)[seat]
        luck = round(after[seat] - before, 4)
        return {"eval": _rounded(after), "best": None, "loss": 0.0, "judgement": None, "luck": luck}
    best = bot.choose(rs.decode(encoded), seat, seed=seed)
    loss, verdict = 0.0, None
    if _key(rs, state, seat, best) != _key(rs, state, seat, action):
        best_state, _ = rs.apply(rs.decode(encoded), seat, best)
        could = bot.win_chances(best_state, seat, seed=seed)[seat]
        loss, verdict = max(0.0, could - after[seat]), judgement(could, after[seat])
    return {
        "eval": _rounded(after),
        "best": best,
        "loss": round(loss, 4),
        "judgement": verdict,
        "luck": 0.0 if slug in DICE_GAMES else None,
    }


def _key(rs: Any, state: Any, seat: int, action: Any) -> str:
    with contextlib.suppress(Exception):  # an action it cannot read compares as written
        action = rs.normalize_action(state, seat, action)
    return repr(sorted(action.items())) if isinstance(action, dict) else repr(action)


def _rounded(chances: list[float]) -> list[float]:
    return [round(c, 4) for c in chances]


def summary(plies: list[Ply], seats: int) -> dict[int, dict[str, Any]]:
    """Per seat: accuracy 0..100 over its decisions, counts of each judgement,
    and (dice games) its luck summed over its rolls."""
    out: dict[int, dict[str, Any]] = {}
    for seat in range(seats):
        mine = [p for p in plies if p["seat"] == seat]
        decisions = [p for p in mine if p["best"] is not None]
        accuracy = (
            sum(move_accuracy(p["loss"]) for p in decisions) / len(decisions) if decisions else 100
        )
        row: dict[str, Any] = {"accuracy": round(accuracy, 1)}
        for kind, counted in COUNTS.items():
            row[counted] = sum(1 for p in mine if p["judgement"] == kind)
        lucks = [p["luck"] for p in mine if p.get("luck") is not None]
        row["luck"] = round(sum(lucks), 4) if lucks else None
        out[seat] = row
    return out
