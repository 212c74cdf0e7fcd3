"""Win chances: a bot's evaluation as a chance per seat (ARCHITECTURE.md, "Bots").

``win_chances(slug, state, seat)`` is 1 / 0 (or the result's shares) once the
game is over or the evaluation sees a forced end; otherwise each contending
seat's terms (games/bots/chance_terms.py) are weighed by the game's fitted
constants and turned into shares by a softmax: a logistic curve with two
seats, the expected share of wins with more. A seat not in the race (a game
master, a seat that left) gets 0.

The constants are fitted on self-play by ``bench/calibration.py --fit``
(a logistic regression on the recorded terms and results, a draw counting
half); the bench prints the calibration table that docs/performance.md keeps.
Every level reports the same calibrated estimate: a weaker level plays worse
moves, it does not see the position worse.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from games.bots.chance_terms import TERMS, Terms
from games.rules import get_ruleset
from games.rules.base import Outcome

# Per game, one weight per term, fitted by bench/calibration.py --fit on
# 40-54 self-play games a game (docs/performance.md, "Bot win chances").
WEIGHTS: dict[str, tuple[float, ...]] = {
    "halma": (0.4389, 0.3194),
    "daschax": (0.9018, -0.0109),
    "malefiz": (-0.7842, 1.4873, 0.1823),
    "idiotenspiel": (1.2181, -0.4399, 1.5949),
    "hexenhalma": (0.5153, 1.3174),
}


def seat_count(slug: str, state: Any) -> int:
    """How many seats the game has (Malefiz and Hexenhalma keep it in the state)."""
    seats = getattr(state, "seats", None)
    return seats if isinstance(seats, int) else get_ruleset(slug).min_seats


def shares(outcome: Outcome, seats: int) -> list[float]:
    """A finished game's result as shares: the winners split one (a draw with
    no winners splits it among every seat)."""
    winners = outcome["winners"] or list(range(seats))
    return [1 / len(winners) if s in winners else 0.0 for s in range(seats)]


def softmax(
    terms: dict[int, tuple[float, ...]], weights: Sequence[float], seats: int
) -> list[float]:
    logits = {s: sum(w * x for w, x in zip(weights, t, strict=True)) for s, t in terms.items()}
    top = max(logits.values())
    raw = {s: math.exp(v - top) for s, v in logits.items()}
    total = sum(raw.values())
    return [raw.get(s, 0.0) / total for s in range(seats)]


def from_terms(
    slug: str, terms: Terms, seats: int, weights: Sequence[float] | None = None
) -> list[float]:
    """The chances that ``terms`` stand for (``weights``: the game's fitted ones)."""
    if isinstance(terms, list):
        return terms
    return softmax(terms, WEIGHTS[slug] if weights is None else weights, seats)


def terms_of(slug: str, state: Any, seat: int) -> Terms:
    """The result's shares if the game is over, else the game's terms (or,
    for a game without any, even chances)."""
    seats = seat_count(slug, state)
    outcome = get_ruleset(slug).outcome(state)
    if outcome is not None:
        return shares(outcome, seats)
    game = TERMS.get(slug)
    return game(state, seat) if game else [1 / seats] * seats


def win_chances(slug: str, state: Any, seat: int) -> list[float]:
    """Each seat's win chance as ``seat`` sees the position (see the module doc)."""
    return from_terms(slug, terms_of(slug, state, seat), seat_count(slug, state))
